// SPDX-License-Identifier: AGPL-3.0-or-later
import { makePdf, pdfString } from '@lectern/testing';
import { partialLabel } from '../fields/field-words.js';
import type { SchemaField } from '../schema-fields.js';
import { labelLike, layoutPairs, readPageSpans } from './page-layout.js';

/** Text at (x, y) in PDF user space (origin bottom-left), 10 pt Helvetica: one run per call, as a form prints it. */
const show = (x: number, y: number, text: string, size = 10) =>
  `BT /F1 ${size} Tf ${x} ${y} Td (${pdfString(text)}) Tj ET`;

const field = (name: string, hint = ''): SchemaField => ({ path: [name], hint, kind: 'scalar' }) as SchemaField;

describe('label ↔ value pairing from the page layout (round 10)', () => {
  it('pairs a boxed form’s labels above their values and a column of labels with the column of values beside it', async () => {
    const pdf = makePdf([
      {
        content: [
          // a boxed form: small labels in capitals above their values, two boxes side by side
          show(72, 720, 'BOOKING REF.', 7),
          show(300, 720, 'ISSUED ON', 7),
          show(72, 710, 'QX-88120-B'),
          show(300, 710, '3 March 2031'),
          show(72, 690, 'COLLECT FROM', 7),
          show(72, 680, 'Depot 9, Marsh Road'),
          // labels in one column, their values in another, far to the right
          show(72, 640, 'Kiln number'),
          show(260, 640, 'K-0417'),
          show(72, 625, 'Firing date'),
          show(260, 625, '12 April 2031'),
          // a heading over a block of address lines: no pair
          show(72, 590, 'Pottery works'),
          show(72, 575, '7 Clay Lane'),
          show(72, 560, 'Stoke ST4 2QQ'),
        ].join('\n'),
      },
    ]);
    const fields = [field('booking_reference'), field('issue_date'), field('kiln_number'), field('firing_date')];
    const pages = await readPageSpans(pdf);
    expect(pages).toHaveLength(1);
    const pairs = layoutPairs(pages, fields).map((p) => [p.label.text, p.value.text, p.where]);
    expect(pairs).toEqual(
      expect.arrayContaining([
        ['BOOKING REF.', 'QX-88120-B', 'below'],
        ['ISSUED ON', '3 March 2031', 'below'],
        ['Kiln number', 'K-0417', 'right'],
        ['Firing date', '12 April 2031', 'right'],
      ]),
    );
    // a label is never a value ("ISSUED ON" is not the value of "BOOKING REF."), and an address block under a
    // heading is not one value
    expect(pairs.some(([, value]) => value === 'ISSUED ON')).toBe(false);
    expect(pairs.some(([label]) => label === 'Pottery works')).toBe(false);
    // every span carries its box on the page (the value's own box is its quad)
    const kiln = pages[0]!.find((s) => s.text === 'K-0417')!;
    expect(kiln.x0).toBeGreaterThan(255);
    expect(kiln.x1).toBeGreaterThan(kiln.x0);
    expect(kiln.y1).toBeGreaterThan(kiln.y0);
  });

  it('splits one text run at a gap of two spaces or more, and not at one space', async () => {
    const pdf = makePdf([{ content: show(72, 700, 'Glaze code    GL-22 matte') }]);
    const [spans] = await readPageSpans(pdf);
    expect(spans!.map((s) => s.text)).toEqual(['Glaze code', 'GL-22 matte']);
  });

  it('calls a short text a label when it ends in a colon, is in capitals, or names a field; never when it holds a digit', () => {
    const fields = [field('kiln_number')];
    expect(labelLike('Operator:', fields)).toBe(true);
    expect(labelLike('SHIP TO', fields)).toBe(true);
    expect(labelLike('Kiln number', fields)).toBe(true);
    expect(labelLike('Blue speckle', fields)).toBe(false);
    expect(labelLike('K-0417', fields)).toBe(false);
  });

  it('gives a pair the heading of its block: the text alone on its line over a column of labels', async () => {
    const block = [
      show(72, 700, 'Service life', 11),
      show(72, 680, 'Bearings'),
      show(230, 680, '40,000 hours'),
      show(72, 665, 'Seals'),
      show(230, 665, '12,000 hours'),
      // (a label far below, past a wide gap, is not under that heading)
      show(72, 600, 'Gearbox'),
      show(230, 600, 'sealed'),
    ];
    const pairs = layoutPairs(await readPageSpans(makePdf([{ content: block.join('\n') }])), [field('kiln_number')]);
    const of = (label: string) => pairs.find((p) => p.label.text === label)?.heading;
    expect([of('Bearings'), of('Seals'), of('Gearbox')]).toEqual(['Service life', 'Service life', undefined]);
  });

  it('reads a header row of labels as no pairs', async () => {
    // ("Band" / "Net" / "LEVY": without the header-row rule "Net" is read as the value of "Band", "LEVY" being a label)
    const row = [show(72, 700, 'Band'), show(200, 700, 'Net'), show(300, 700, 'LEVY'), show(72, 685, 'Upper')];
    const pairs = layoutPairs(await readPageSpans(makePdf([{ content: row.join('\n') }])), [field('kiln_number')]);
    expect(pairs.filter((p) => p.where === 'right')).toEqual([]);
  });
});

describe('a label printing part of one field’s name (partialLabel)', () => {
  const fields = [field('kiln_number'), field('glaze_colour'), field('firing_date'), field('firing_cost')];
  it('is that field’s when no other field has its words and it prints the thing the field is', () => {
    expect(partialLabel(fields[0]!, 'Kiln', fields)).toBe(true); // (the name's identifier word left out)
    expect(partialLabel(fields[1]!, 'Colour', fields)).toBe(true);
    // "Firing" is the firing date's and the firing cost's: neither
    expect(partialLabel(fields[2]!, 'Firing', fields)).toBe(false);
    // "Glaze" does not say what the field is (a colour)
    expect(partialLabel(fields[1]!, 'Glaze', fields)).toBe(false);
    // a word that is not the field's
    expect(partialLabel(fields[1]!, 'Colour chart', fields)).toBe(false);
  });
  it('or a short description’s words', () => {
    const described = [field('lender', 'The bank'), field('borrower', 'The customer')];
    expect(partialLabel(described[0]!, 'Bank', described)).toBe(true);
    expect(partialLabel(described[1]!, 'Bank', described)).toBe(false);
  });
});
