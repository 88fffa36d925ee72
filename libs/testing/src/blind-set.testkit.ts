// SPDX-License-Identifier: AGPL-3.0-or-later
import type { BusinessDoc } from './business-docs.js';
import { score } from './extraction-bench/score.js';
import { unprintedValues } from './printed-values.testkit.js';

/** What a blind set promises: its mix of documents, its least number of scored fields, its share of absent ones. */
export interface BlindSetShape {
  contracts: number;
  receipts: number;
  datasheets: number;
  minFields: number;
  /** The share of scored fields the page does not state (expected null), as [least, most]; else "some". */
  absentShare?: readonly [number, number];
  /** Scans (image-only PDFs): the printed values are read by the converter's OCR. */
  ocr?: boolean;
}

/** "0.20;N·m" is printed as "0.20 N·m"; a per-model dict and a list of parties as themselves. */
const printedForm = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(printedForm);
  if (typeof v === 'object' && v !== null)
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, printedForm(x)]));
  const unitValue = /^(-?[\d.]+);(.+)$/.exec(String(v));
  return unitValue ? `${unitValue[1]} ${unitValue[2]}` : typeof v === 'number' ? String(v) : v;
};

/**
 * A blind held-out extraction set (fresh variant N) checked as test material, not as extraction: the documents
 * build into real PDFs, every expected value the documents state is printed on the page (the repository's converter
 * reads the text, through `lectern convert` in its own process since libs/testing may not import libs/conversion,
 * whose specs import it; not the extractor), every schema field is scored (has an expected value, null when
 * absent), each expected value is one the strict scorer reaches, and the names are unique. One describe block per set.
 */
export const describeBlindSet = (variant: number, docs: BusinessDoc[], shape: BlindSetShape): void => {
  const count = shape.contracts + shape.receipts + shape.datasheets;
  describe(`fresh variant ${variant} documents`, () => {
    it(`are ${count} documents (${shape.contracts} contracts, ${shape.receipts} receipts, ${shape.datasheets} datasheets) with at least ${shape.minFields} scored fields, some absent, under unique names`, () => {
      expect(docs.length).toBe(count);
      expect(docs.map((d) => d.kind).sort()).toEqual([
        ...Array<string>(shape.contracts).fill('contract'),
        ...Array<string>(shape.datasheets).fill('datasheet'),
        ...Array<string>(shape.receipts).fill('receipt'),
      ]);
      const fields = docs.flatMap((d) => Object.keys(d.expected));
      expect(fields.length).toBeGreaterThanOrEqual(shape.minFields);
      const absent = docs.flatMap((d) => Object.values(d.expected)).filter((v) => v === null).length;
      expect(absent).toBeGreaterThan(0);
      if (shape.absentShare) {
        expect(absent / fields.length).toBeGreaterThanOrEqual(shape.absentShare[0]);
        expect(absent / fields.length).toBeLessThanOrEqual(shape.absentShare[1]);
      }
      expect(new Set(docs.map((d) => d.name)).size).toBe(docs.length);
      for (const d of docs) expect(d.name).toMatch(new RegExp(`^fresh-${variant}-[a-z0-9-]+\\.(pdf|docx)$`));
    });

    it('score every schema field (expected null where the page does not state it)', () => {
      for (const d of docs) expect(Object.keys(d.expected).sort()).toEqual(Object.keys(d.schema).sort());
    });

    it('expect values the strict scorer can reach: each, written as the page prints it, scores right', () => {
      const outcomes = docs.flatMap((d) =>
        Object.entries(d.expected).map(([field, v]) => `${d.name} ${field}: ${score(v, printedForm(v), 'strict')}`),
      );
      expect(outcomes.filter((o) => !/: (right|null_correct)$/.test(o))).toEqual([]);
    });

    it.each(docs.map((d) => [d.name, d] as const))(
      '%s prints every expected value',
      async (_name, doc) => {
        // a Word document (`.docx`, a zip) is what the converter's DOCX path reads; any other file is a PDF
        expect(doc.pdf.subarray(0, doc.name.endsWith('.docx') ? 4 : 5).toString('latin1')).toBe(
          doc.name.endsWith('.docx') ? 'PK\x03\x04' : '%PDF-',
        );
        const { page, missing } = await unprintedValues(doc, { ocr: shape.ocr ?? false });
        expect(page.trim()).not.toBe('');
        expect(missing).toEqual([]);
      },
      120_000,
    );
  });
};
