// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  contractDocs,
  freshDocs,
  FRESH_VARIANTS_A,
  FRESH_VARIANTS_B,
  freshVariant7Docs,
  freshVariant8Docs,
  freshVariant9Docs,
  freshVariant10Docs,
  freshVariant11Docs,
  freshVariant12Docs,
  freshVariant13Docs,
  freshVariant14Docs,
  freshVariant15Docs,
  freshVariant16Docs,
  freshVariant17Docs,
  freshVariant18Docs,
  freshVariant19Docs,
  freshVariant20Docs,
  freshVariant21Docs,
  receiptDocs,
  unseenLayoutDocs,
  type ContractVariant,
  type ReceiptVariant,
} from '@lectern/testing';
import type { BenchDocument } from '@lectern/testing';

/**
 * Held-out names, dates and amounts for the generated layouts (variants 3 and 4), written for the report half
 * before the extractor was run on them: other date forms ("2 September 2025", "21/06/2025", "Feb 3, 2026"),
 * other legal forms and places, other term lengths. The layouts are the tuning ones, so this half measures the
 * rules on unseen values, not on unseen layouts.
 */
const REPORT_CONTRACTS: ContractVariant[] = [
  {
    a: 'Meridian Biotech S.A.',
    b: 'Harbor Point Consulting LLP',
    date: '2 September 2025',
    law: 'State of California',
    term: 'eighteen (18) months',
    termShort: '18 months',
  },
  {
    a: 'Oakridge Energy Partners LP',
    b: 'Lumen Software Pty Ltd',
    date: 'January 15, 2026',
    law: 'Province of Ontario',
    term: 'five (5) years',
    termShort: '60 months',
  },
];

const REPORT_RECEIPTS: ReceiptVariant[] = [
  {
    vendor: 'Corner Bookshop',
    address: '221 King Street, Cambridge CB1 1LD',
    date: '21/06/2025',
    items: [
      ['Paperback novel', '2', '17.98'],
      ['Bookmark', '1', '2.50'],
    ],
    subtotal: '20.48',
    tax: '4.10',
    total: '24.58',
  },
  {
    vendor: 'Sunrise Pharmacy',
    address: '77 Elm Avenue, Austin, TX 78701',
    date: 'Feb 3, 2026',
    items: [
      ['Vitamin D 1000 IU', '1', '9.99'],
      ['Bandages (30)', '2', '6.78'],
    ],
    subtotal: '16.77',
    tax: '1.38',
    total: '18.15',
  },
];

/**
 * The generated set (clearly marked `source: 'generated'`): the contracts and receipts of
 * `libs/testing/src/business-docs.ts`, real PDFs in three layouts each. Variants 1-2 (the built-in ones) were
 * written with the extractor's contract and receipt rules: tuning. Variants 3-4 (above): report.
 */
export const generatedDocuments = (): BenchDocument[] => {
  const of = (docs: ReturnType<typeof contractDocs>, split: BenchDocument['split']): BenchDocument[] =>
    docs.map((d) => ({
      name: `${d.name} (generated, ${d.layout})`,
      split,
      source: 'generated',
      filename: d.name,
      bytes: () => d.pdf,
      schema: d.schema,
      expected: d.expected,
    }));
  return [
    ...of([...contractDocs(), ...receiptDocs()], 'tuning'),
    ...of([...contractDocs(REPORT_CONTRACTS, 3), ...receiptDocs(REPORT_RECEIPTS, 3)], 'report'),
    // fresh layouts and wordings (libs/testing/src/fresh-docs.ts), variant 5: its first run is a report figure
    ...of(freshDocs(FRESH_VARIANTS_A, 5), 'tuning').map((d) => ({ ...d, source: 'fresh' as const })),
    // report: new values in the fresh layouts (variant 6), and four layouts never looked at
    ...of([...freshDocs(FRESH_VARIANTS_B, 6), ...unseenLayoutDocs()], 'report').map((d) => ({
      ...d,
      source: 'fresh' as const,
    })),
    // round 3's untouched report set (fresh variant 7): other layouts and wordings again, committed before its
    // first run; its first run is the round's headline generalisation figure
    ...of(freshVariant7Docs(), 'report').map((d) => ({
      ...d,
      source: 'fresh' as const,
      set: 'fresh variant 7',
    })),
    // fresh variant 8: a blind held-out set, written by someone who had not read the extractor and committed before
    // its first run (bench/extraction/results/extraction-fresh8-first-run.md)
    ...of(freshVariant8Docs(), 'report').map((d) => ({
      ...d,
      source: 'fresh' as const,
      set: 'fresh variant 8',
    })),
    // fresh variant 9: another blind held-out set (libs/testing/src/fresh-docs-9.ts), written without reading the
    // extractor and committed before its first run (results/extraction-fresh9-first-run.md); a tuning set since round
    // 5, whose rules were written while looking at its misses
    ...of(freshVariant9Docs(), 'tuning').map((d) => ({
      ...d,
      source: 'fresh' as const,
      set: 'fresh variant 9',
    })),
    // fresh variant 10: another blind held-out set (libs/testing/src/fresh-docs-10.ts), written without reading the
    // extractor and committed before its first run
    ...of(freshVariant10Docs(), 'report').map((d) => ({
      ...d,
      source: 'fresh' as const,
      set: 'fresh variant 10',
    })),
    // fresh variant 11: another blind held-out set (libs/testing/src/fresh-docs-11.ts), written without reading the
    // extractor and committed before its first run
    ...of(freshVariant11Docs(), 'report').map((d) => ({
      ...d,
      source: 'fresh' as const,
      set: 'fresh variant 11',
    })),
    // fresh variant 12: another blind held-out set (libs/testing/src/fresh-docs-12.ts), written without reading the
    // extractor and committed before its first run
    ...of(freshVariant12Docs(), 'report').map((d) => ({
      ...d,
      source: 'fresh' as const,
      set: 'fresh variant 12',
    })),
    // fresh variant 13: another blind held-out set (libs/testing/src/fresh-docs-13.ts), written without reading the
    // extractor and committed before its first run
    ...of(freshVariant13Docs(), 'report').map((d) => ({
      ...d,
      source: 'fresh' as const,
      set: 'fresh variant 13',
    })),
    // fresh variant 14: another blind held-out set (libs/testing/src/fresh-docs-14.ts), written without reading the
    // extractor and committed before its first run
    ...of(freshVariant14Docs(), 'report').map((d) => ({
      ...d,
      source: 'fresh' as const,
      set: 'fresh variant 14',
    })),
    // fresh variant 15: another blind held-out set (libs/testing/src/fresh-docs-15.ts), written without reading the
    // extractor and committed before its first run
    ...of(freshVariant15Docs(), 'report').map((d) => ({
      ...d,
      source: 'fresh' as const,
      set: 'fresh variant 15',
    })),
    // fresh variant 16: another blind held-out set (libs/testing/src/fresh-docs-16.ts), written without reading the
    // extractor and committed before its first run
    ...of(freshVariant16Docs(), 'report').map((d) => ({
      ...d,
      source: 'fresh' as const,
      set: 'fresh variant 16',
    })),
    // fresh variant 17: another blind held-out set (libs/testing/src/fresh-docs-17.ts), written without reading the
    // extractor and committed before its first run
    ...of(freshVariant17Docs(), 'report').map((d) => ({
      ...d,
      source: 'fresh' as const,
      set: 'fresh variant 17',
    })),
    // fresh variant 18: another blind held-out set (libs/testing/src/fresh-docs-18*.ts), the first drawn by a browser
    // (HTML + CSS rendered to PDF by chromium, committed under libs/testing/fixtures/fresh-18), written without
    // reading the extractor and committed before its first run
    ...of(freshVariant18Docs(), 'report').map((d) => ({
      ...d,
      source: 'fresh' as const,
      set: 'fresh variant 18',
    })),
    // fresh variant 19: another blind held-out set (libs/testing/src/fresh-docs-19*.ts), the first of scans:
    // image-only PDFs (HTML rendered by chromium to a 200-300 DPI picture, degraded by sharp, no text layer) under
    // libs/testing/fixtures/fresh-19, read only by OCR; written without reading the extractor, committed before its
    // first run
    ...of(freshVariant19Docs(), 'report').map((d) => ({
      ...d,
      source: 'fresh' as const,
      set: 'fresh variant 19',
    })),
    // fresh variant 20: another blind held-out set of scans from another pipeline (libs/testing/src/fresh-docs-20*.ts):
    // pages drawn and rasterised by PyMuPDF, degraded by sharp (rotation, keystone, lighting, ring or stamp, JPEG,
    // one dithered 1-bit fax), image-only PDFs under libs/testing/fixtures/fresh-20 read only by OCR; written without
    // reading the extractor, committed before its first run
    ...of(freshVariant20Docs(), 'report').map((d) => ({
      ...d,
      source: 'fresh' as const,
      set: 'fresh variant 20',
    })),
    // fresh variant 21: another blind held-out set (libs/testing/src/fresh-docs-21*.ts), the first with Word files
    // (.docx, read by the converter's DOCX path) beside PDFs printed ERP-style by PyMuPDF (text runs at absolute
    // positions), committed under libs/testing/fixtures/fresh-21; written without reading the extractor, committed
    // before its first run
    ...of(freshVariant21Docs(), 'report').map((d) => ({
      ...d,
      source: 'fresh' as const,
      set: 'fresh variant 21',
    })),
  ];
};
