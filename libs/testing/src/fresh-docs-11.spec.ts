// SPDX-License-Identifier: AGPL-3.0-or-later
import type { BusinessDoc } from './business-docs.js';
import { unprintedValues } from './printed-values.testkit.js';
import { freshVariant11Docs } from './fresh-docs-11.js';
import { score } from './extraction-bench/score.js';

/**
 * Fresh variant 11 (a blind held-out extraction set) checked as test material, not as extraction: the documents
 * build into real PDFs, every expected value the documents state is printed on the page (the repository's converter
 * reads the text, through `lectern convert` in its own process since libs/testing may not import libs/conversion,
 * whose specs import it; not the extractor), every schema field is scored (has an expected value, null when
 * absent), and the names are unique.
 */
const docs: BusinessDoc[] = freshVariant11Docs();

describe('fresh variant 11 documents', () => {
  it('are 12 documents (4 contracts, 4 receipts, 4 datasheets) with at least 80 scored fields, about 15 % absent, under unique names', () => {
    expect(docs.length).toBe(12);
    expect(docs.map((d) => d.kind).sort()).toEqual([
      ...Array<string>(4).fill('contract'),
      ...Array<string>(4).fill('datasheet'),
      ...Array<string>(4).fill('receipt'),
    ]);
    const fields = docs.flatMap((d) => Object.keys(d.expected));
    expect(fields.length).toBeGreaterThanOrEqual(80);
    const absent = docs.flatMap((d) => Object.values(d.expected)).filter((v) => v === null).length;
    expect(absent / fields.length).toBeGreaterThanOrEqual(0.1);
    expect(absent / fields.length).toBeLessThanOrEqual(0.2);
    expect(new Set(docs.map((d) => d.name)).size).toBe(docs.length);
    for (const d of docs) expect(d.name).toMatch(/^fresh-11-[a-z0-9-]+\.pdf$/);
  });

  it('score every schema field (expected null where the page does not state it)', () => {
    for (const d of docs) expect(Object.keys(d.expected).sort()).toEqual(Object.keys(d.schema).sort());
  });

  it('expect values the strict scorer can reach: each, written as the page prints it, scores right', () => {
    // "0.20;N·m" is printed as "0.20 N·m"; a per-model dict and a list of parties as themselves
    const printedForm = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(printedForm);
      if (typeof v === 'object' && v !== null)
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, printedForm(x)]));
      const unitValue = /^(-?[\d.]+);(.+)$/.exec(String(v));
      return unitValue ? `${unitValue[1]} ${unitValue[2]}` : typeof v === 'number' ? String(v) : v;
    };
    const outcomes = docs.flatMap((d) =>
      Object.entries(d.expected).map(([field, v]) => `${d.name} ${field}: ${score(v, printedForm(v), 'strict')}`),
    );
    expect(outcomes.filter((o) => !/: (right|null_correct)$/.test(o))).toEqual([]);
  });

  it.each(docs.map((d) => [d.name, d] as const))(
    '%s prints every expected value',
    async (_name, doc) => {
      expect(doc.pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const { page, missing } = await unprintedValues(doc);
      expect(page.trim()).not.toBe('');
      expect(missing).toEqual([]);
    },
    120_000,
  );
});
