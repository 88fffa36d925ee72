// SPDX-License-Identifier: AGPL-3.0-or-later
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { BusinessDoc } from './business-docs.js';
import { fixtureFile } from './make-pdf.js';
import { repoRoot } from './paths.js';

/*
 * What the blind extraction sets' specs (fresh-docs-9.spec.ts, fresh-docs-10.spec.ts) use to check that every
 * expected value is printed on its page: the repository's converter reads the text through `lectern convert` in its
 * own process (libs/testing may not import libs/conversion, whose specs import it), never the extractor. The
 * `lectern` bin (apps/cli/bin/lectern.cjs), as a user runs it: the command line compiled once for the run and
 * started with its code cache, not its TypeScript compiled by tsx in every process (~8× the CPU a document;
 * docs/benchmarks/test-suite.md, round 6).
 */
const run = promisify(execFile);

/** The page's Markdown as `lectern convert` writes it. */
const convert = async (doc: BusinessDoc, ocr: boolean): Promise<string> => {
  const file = fixtureFile(doc.name, doc.pdf);
  const lectern = join(repoRoot(), 'apps', 'cli', 'bin', 'lectern.cjs');
  const { stdout } = await run(process.execPath, [lectern, 'convert', file], {
    cwd: repoRoot(),
    env: { ...process.env, LOG_LEVEL: 'silent', ENABLE_OCR: ocr ? 'true' : 'false' },
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

/**
 * A document's page text (flattened) and every expected value of it not printed there, as `field: needle` (an
 * expected value "48.37;L" is looked for as "48.37" and "L"). `ocr`: a scan (no text layer) is read by the
 * converter's OCR, as a user's upload would be; otherwise OCR is off and only the text layer counts.
 */
export const unprintedValues = async (
  doc: BusinessDoc,
  { ocr = false }: { ocr?: boolean } = {},
): Promise<{ page: string; missing: string[] }> => {
  const page = ` ${flat(await convert(doc, ocr))} `;
  const missing = Object.entries(doc.expected).flatMap(([field, value]) =>
    needles(value)
      .filter((needle) => !printed(page, needle))
      .map((needle) => `${field}: ${needle}`),
  );
  return { page, missing };
};
