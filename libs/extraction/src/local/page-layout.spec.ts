// SPDX-License-Identifier: AGPL-3.0-or-later
import { makePdf, pdfTextAt } from '@lectern/testing';
import { partialLabel } from '../fields/field-words.js';
import type { SchemaField } from '../schema-fields.js';
import { gridCellFor, gridLabel } from './local-extractor.js';
import { gridCells, labelLike, layoutPairs, readPageSpans } from './page-layout.js';

/** Text at (x, y) in PDF user space (origin bottom-left), 10 pt Helvetica: one run per call, as a form prints it. */
const field = (name: string, hint = ''): SchemaField => ({ path: [name], hint, kind: 'scalar' }) as SchemaField;

describe('label ↔ value pairing from the page layout (round 10)', () => {
  it('pairs a boxed form’s labels above their values and a column of labels with the column of values beside it', async () => {
    const pdf = makePdf([
      {
        content: [
          // a boxed form: small labels in capitals above their values, two boxes side by side
          pdfTextAt(72, 720, 'BOOKING REF.', 7),
          pdfTextAt(300, 720, 'ISSUED ON', 7),
          pdfTextAt(72, 710, 'QX-88120-B'),
          pdfTextAt(300, 710, '3 March 2031'),
          pdfTextAt(72, 690, 'COLLECT FROM', 7),
          pdfTextAt(72, 680, 'Depot 9, Marsh Road'),
          // labels in one column, their values in another, far to the right
          pdfTextAt(72, 640, 'Kiln number'),
          pdfTextAt(260, 640, 'K-0417'),
          pdfTextAt(72, 625, 'Firing date'),
          pdfTextAt(260, 625, '12 April 2031'),
          // a heading over a block of address lines: no pair
          pdfTextAt(72, 590, 'Pottery works'),
          pdfTextAt(72, 575, '7 Clay Lane'),
          pdfTextAt(72, 560, 'Stoke ST4 2QQ'),
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
    const pdf = makePdf([{ content: pdfTextAt(72, 700, 'Glaze code    GL-22 matte') }]);
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
      pdfTextAt(72, 700, 'Service life', 11),
      pdfTextAt(72, 680, 'Bearings'),
      pdfTextAt(230, 680, '40,000 hours'),
      pdfTextAt(72, 665, 'Seals'),
      pdfTextAt(230, 665, '12,000 hours'),
      // (a label far below, past a wide gap, is not under that heading)
      pdfTextAt(72, 600, 'Gearbox'),
      pdfTextAt(230, 600, 'sealed'),
    ];
    const pairs = layoutPairs(await readPageSpans(makePdf([{ content: block.join('\n') }])), [field('kiln_number')]);
    const of = (label: string) => pairs.find((p) => p.label.text === label)?.heading;
    expect([of('Bearings'), of('Seals'), of('Gearbox')]).toEqual(['Service life', 'Service life', undefined]);
  });

  it('reads a header row of labels as no pairs', async () => {
    // ("Band" / "Net" / "LEVY": without the header-row rule "Net" is read as the value of "Band", "LEVY" being a label)
    const row = [
      pdfTextAt(72, 700, 'Band'),
      pdfTextAt(200, 700, 'Net'),
      pdfTextAt(300, 700, 'LEVY'),
      pdfTextAt(72, 685, 'Upper'),
    ];
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

describe('grid cells by row label × column header (round 12)', () => {
  const row = (y: number, cells: string[], xs: number[]) =>
    cells.map((c, i) => (c ? pdfTextAt(xs[i]!, y, c, 9) : '')).join('\n');
  const XS = [72, 200, 300, 350, 400, 450];

  it('reads a header line over rows: each cell under its column, a Unit cell as its row’s unit, no bullet rows', async () => {
    const pdf = makePdf([
      {
        content: [
          row(700, ['Parameter', 'Conditions', 'Min', 'Typ', 'Max', 'Unit'], XS),
          row(686, ['Pump head', 'at 2 bar', '11', '12', '14', 'm'], XS),
          row(672, ['Seal leakage', '', '', '', '3', 'ml/h'], XS),
          // a bulleted list beside two labels with values is not a grid's rows
          pdfTextAt(72, 600, '- Quiet running', 9),
          pdfTextAt(250, 600, 'Duty', 9),
          pdfTextAt(350, 600, 'Noise', 9),
          pdfTextAt(72, 586, '- Long life', 9),
          pdfTextAt(250, 586, 'S1', 9),
          pdfTextAt(350, 586, '42 dB', 9),
        ].join('\n'),
      },
    ]);
    const cells = gridCells(await readPageSpans(pdf)).map((c) => [
      c.row.text,
      c.column.text,
      c.value.text,
      c.unit?.text,
      c.cells,
    ]);
    expect(cells).toEqual([
      ['Pump head', 'Min', '11', 'm', 3],
      ['Pump head', 'Typ', '12', 'm', 3],
      ['Pump head', 'Max', '14', 'm', 3],
      ['Seal leakage', 'Max', '3', 'ml/h', 1],
    ]);
  });

  it('picks the cell the field’s qualifier names, else the only value or the Typ column, and nothing when unsure', async () => {
    const pdf = makePdf([
      {
        content: [
          row(700, ['Parameter', 'Min', 'Typ', 'Max', 'Unit'], [72, 300, 350, 400, 450]),
          row(686, ['Pump head', '11', '12', '14', 'm'], [72, 300, 350, 400, 450]),
          row(672, ['Seal leakage', '', '', '3', 'ml/h'], [72, 300, 350, 400, 450]),
          row(640, ['Parameter', 'Dry', 'Wet'], [72, 300, 400]),
          row(626, ['Grip force', '40 N', '25 N'], [72, 300, 400]),
        ].join('\n'),
      },
    ]);
    const grid = gridCells(await readPageSpans(pdf));
    const rowOf = (label: string) => grid.filter((c) => c.row.text === label);
    const pick = (f: SchemaField, label: string) => {
      const got = gridCellFor(f, rowOf(label), undefined);
      return got && [got.cell.value.text, got.label];
    };
    expect(pick(field('minimum_pump_head'), 'Pump head')).toEqual(['11', 'Pump head minimum']);
    expect(pick(field('pump_head', 'Nominal head'), 'Pump head')).toEqual(['12', 'Pump head nominal']);
    expect(pick(field('pump_head'), 'Pump head')).toEqual(['12', 'Pump head']);
    expect(pick(field('seal_leakage'), 'Seal leakage')).toEqual(['3', 'Seal leakage']);
    // a limit the row does not give: nothing (not another column's value)
    expect(pick(field('minimum_seal_leakage'), 'Seal leakage')).toBeUndefined();
    // a condition the description names picks its column; no qualifier and no Typ column: nothing
    expect(pick(field('grip_force', 'Grip force on wet glass'), 'Grip force')).toEqual(['25 N', 'Grip force Wet']);
    expect(pick(field('grip_force'), 'Grip force')).toBeUndefined();
  });

  it('reads a header’s bracketed unit and a symbol after its name as no words of its label', () => {
    expect(gridLabel('Mass (kg)')).toEqual({ label: 'Mass', unit: 'kg' });
    expect(gridLabel('Flow [m³/h]')).toEqual({ label: 'Flow', unit: 'm³/h' });
    expect(gridLabel('Width B')).toEqual({ label: 'Width' });
    expect(gridLabel('Dyn. load C0')).toEqual({ label: 'Dyn. load' });
    // a bracket holding a number is a condition, not a unit; a word after the name stays
    expect(gridLabel('Current (25 °C)')).toEqual({ label: 'Current (25 °C)' });
    expect(gridLabel('Output power')).toEqual({ label: 'Output power' });
  });
});
