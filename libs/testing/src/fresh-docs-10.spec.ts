// SPDX-License-Identifier: AGPL-3.0-or-later
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { BusinessDoc } from './business-docs.js';
import { freshVariant10Docs } from './fresh-docs-10.js';
import { score } from './extraction-bench/score.js';
import { fixtureFile } from './make-pdf.js';
import { repoRoot } from './paths.js';
import { serviceArgs } from './service-args.js';

/**
 * Fresh variant 10 (a blind held-out extraction set) checked as test material, not as extraction: the documents
 * build into real PDFs, every expected value the documents state is printed on the page (the repository's converter
 * reads the text, through `lectern convert` in its own process since libs/testing may not import libs/conversion,
 * whose specs import it; not the extractor), every schema field is scored (has an expected value, null when
 * absent), and the names are unique.
 */
const run = promisify(execFile);

/** The page's Markdown as `lectern convert` writes it. */
const convert = async (doc: BusinessDoc): Promise<string> => {
  const file = fixtureFile(doc.name, doc.pdf);
  const { stdout } = await run(process.execPath, [...serviceArgs('apps/cli/src/main.ts'), 'convert', file], {
    cwd: repoRoot(),
    env: { ...process.env, LOG_LEVEL: 'silent', ENABLE_OCR: 'false' },
    maxBuffer: 1 << 20,
  });
  return stdout;
};

/**
 * Whitespace collapsed, table pipes and commas dropped, case folded: the page's words in reading order (an address
 * printed over two lines is expected as its lines joined by ", ").
 */
const flat = (text: string): string =>
  text.replace(/\\?\|/g, ' ').replace(/,/g, ' ').replace(/\*\*/g, '').replace(/\s+/g, ' ').toLowerCase();

/** The printed forms an expected value must have on the page ("48.37;L": the number and the unit, as tokens). */
const needles = (expected: unknown): string[] => {
  if (expected === null || expected === undefined) return [];
  if (Array.isArray(expected)) return expected.flatMap(needles);
  if (typeof expected === 'object')
    return Object.entries(expected as Record<string, unknown>).flatMap(([model, v]) => [model, ...needles(v)]);
  const text = String(expected);
  const unitValue = /^(-?[\d.]+);(.+)$/.exec(text);
  return unitValue ? [unitValue[1]!, unitValue[2]!] : [text];
};

/** `needle` on the page as whole tokens (so "30" is not found inside "300" or "30.5"). */
const printed = (page: string, needle: string): boolean => {
  const escaped = flat(needle)
    .trim()
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // a full stop ends a token, a decimal point does not ("3" is not printed in "3.75")
  return new RegExp(`(?:^|[\\s(:])${escaped}(?=$|[\\s):;]|\\.(?!\\d))`).test(page);
};

const docs: BusinessDoc[] = freshVariant10Docs();

describe('fresh variant 10 documents', () => {
  it('are 10 documents (3 contracts, 3 receipts, 4 datasheets) with at least 60 scored fields, some absent, under unique names', () => {
    expect(docs.length).toBe(10);
    expect(docs.map((d) => d.kind).sort()).toEqual([
      ...Array<string>(3).fill('contract'),
      ...Array<string>(4).fill('datasheet'),
      ...Array<string>(3).fill('receipt'),
    ]);
    const fields = docs.flatMap((d) => Object.keys(d.expected));
    expect(fields.length).toBeGreaterThanOrEqual(60);
    expect(docs.flatMap((d) => Object.values(d.expected)).filter((v) => v === null).length).toBeGreaterThan(0);
    expect(new Set(docs.map((d) => d.name)).size).toBe(docs.length);
    for (const d of docs) expect(d.name).toMatch(/^fresh-10-[a-z0-9-]+\.pdf$/);
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
      const page = ` ${flat(await convert(doc))} `;
      expect(page.trim()).not.toBe('');
      const missing = Object.entries(doc.expected).flatMap(([field, value]) =>
        needles(value)
          .filter((needle) => !printed(page, needle))
          .map((needle) => `${field}: ${needle}`),
      );
      expect(missing).toEqual([]);
    },
    120_000,
  );
});
