// SPDX-License-Identifier: AGPL-3.0-or-later
import type { BusinessDoc } from './business-docs.js';
import { unprintedValues } from './printed-values.testkit.js';
import { freshVariant9Docs } from './fresh-docs-9.js';

/**
 * Fresh variant 9 (a blind held-out extraction set) checked as test material, not as extraction: the documents
 * build into real PDFs, every expected value the documents state is printed on the page (the repository's converter
 * reads the text, through `lectern convert` in its own process since libs/testing may not import libs/conversion,
 * whose specs import it; not the extractor), every schema field is scored (has an expected value, null when
 * absent), and the names are unique.
 */
const docs: BusinessDoc[] = freshVariant9Docs();

describe('fresh variant 9 documents', () => {
  it('are 9-10 documents with at least 40 scored fields, some absent from the page, under unique names', () => {
    expect(docs.length).toBeGreaterThanOrEqual(9);
    expect(docs.length).toBeLessThanOrEqual(10);
    const fields = docs.flatMap((d) => Object.keys(d.expected));
    expect(fields.length).toBeGreaterThanOrEqual(40);
    expect(docs.flatMap((d) => Object.values(d.expected)).filter((v) => v === null).length).toBeGreaterThan(0);
    expect(new Set(docs.map((d) => d.name)).size).toBe(docs.length);
    for (const d of docs) expect(d.name).toMatch(/^fresh-9-[a-z0-9-]+\.pdf$/);
  });

  it('score every schema field (expected null where the page does not state it)', () => {
    for (const d of docs) expect(Object.keys(d.expected).sort()).toEqual(Object.keys(d.schema).sort());
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
