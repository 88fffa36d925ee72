// SPDX-License-Identifier: AGPL-3.0-or-later
import { renderGrayPages } from '@lectern/conversion';
import { fixtureFile, makePdf, makePolicyPdf, makeTextPdf, pdfString } from '@lectern/testing';

/** The documents the console's browser tests and screenshots put in (generated: no ../shared needed). */

/** A planning statement uploaded through the console (its original is kept, so its pages can be drawn). */
export const STATEMENT = fixtureFile(
  'planning-statement.pdf',
  makeTextPdf([
    ['# Planning statement', 'The proposed cycle store holds forty bicycles beside the north entrance.'],
    ['# Drainage', 'Soakaways are sized for a one in one hundred year storm event.'],
  ]),
);
/** A transport assessment ingested from the server's document roots (its pages can be drawn). */
export const TRANSPORT = fixtureFile(
  'transport-assessment.pdf',
  makeTextPdf([
    ['# Transport assessment', 'Traffic counts were taken in March on weekdays.'],
    ['# Junction capacity', 'Junction capacity at the Mill Lane roundabout remains below eighty five percent.'],
  ]),
);
/** A scanned letter: one image of a page and no text layer, skipped as image_based (SCANNED_PDF_POLICY=skip). */
export const scannedLetter = async (): Promise<string> => {
  const lines = [
    'Dear Planning Officer,',
    'I write about the new library on Station Road.',
    'Yours faithfully, M. Holloway',
  ];
  const content = lines.map((s, i) => `BT /F1 14 Tf 60 ${700 - i * 24} Td (${pdfString(s)}) Tj ET`).join('\n');
  const [scan] = await renderGrayPages(makePdf([{ content }]), 100);
  if (!scan) throw new Error('no page rendered');
  return fixtureFile('scanned-letter.pdf', makePdf([{ content: 'q 612 0 0 792 0 0 cm /Im1 Do Q', image: scan }]));
};
export const DATASHEET = fixtureFile(
  'widget-datasheet.pdf',
  makeTextPdf([
    ['# Widget W-100 datasheet', 'The W-100 is a compact industrial widget.', 'Rated current: 1.6 A'],
    ['# Environment', 'Protection class: IP65', 'Operating temperature: 0 to 40 C.'],
  ]),
);
export const POLICY_2020 = fixtureFile('cycling-policy-2020.pdf', makePolicyPdf('cycling'));
export const POLICY_2023 = fixtureFile('walking-policy-2023.pdf', makePolicyPdf('walking'));

export const REF = '25/00042/FUL';

/** What the fake LLM reads from the datasheet, the well-behaved way (one search and read per field). */
export const DATASHEET_FIELDS = [
  { key: 'rated_current', query: 'rated current', line: /Rated current: ([\d.]+ A)/ },
  { key: 'protection_class', query: 'protection class', line: /Protection class: (IP\d\d)/ },
];
/** A damaged PDF (a header, then noise): its conversion job fails for real (extraction_failed). */
export const DAMAGED = fixtureFile(
  'damaged-statement.pdf',
  Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(5000, 7)]),
);
