// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Issue 26, round 13: every wrong and every null-when-present value of the offline extractor, by the reading that
 * produced it (the Markdown's `key_value` / `table_cell` / `pattern`, the page layout's `layout_pair` / `grid_cell`,
 * the document's `top`), and for a wrong one what the layout's pair and a grid's cell read for the field and whether
 * that reading is right (strict). Inputs: one bench run's BENCH_JSON and BENCH_FEATURES files.
 *
 *   BENCH_EXCEPT=fresh-18 BENCH_PATHS=local BENCH_JSON=/tmp/r.json BENCH_FEATURES=/tmp/r.jsonl \
 *     npx tsx bench/extraction/extraction.bench.ts > /dev/null
 *   npx tsx bench/extraction/paths.ts /tmp/r.json /tmp/r.jsonl "fresh variant 13,fresh variant 14"
 *
 * Markdown to stdout.
 */
import { readFileSync } from 'node:fs';
import { extractionScore } from '@lectern/testing';

interface Field {
  path: string;
  document: string;
  set: string;
  field: string;
  expected: unknown;
  got: unknown;
  strict: string;
  evidence: unknown;
}
interface Features {
  doc: string;
  field: string;
  chosen: boolean;
  abstained: boolean;
  paths?: { source: string; layout: unknown; grid: unknown };
}

const [jsonFile, featuresFile, setList] = process.argv.slice(2);
if (!jsonFile || !featuresFile) throw new Error('usage: paths.ts <bench.json> <features.jsonl> [set,set,…]');
const sets = setList ? new Set(setList.split(',')) : undefined;
const fields = (JSON.parse(readFileSync(jsonFile, 'utf8')) as Field[]).filter(
  (f) => f.path === 'local' && (!sets || sets.has(f.set)),
);
const chosen = new Map<string, Features>();
for (const line of readFileSync(featuresFile, 'utf8').split('\n').filter(Boolean)) {
  const r = JSON.parse(line) as Features;
  if (r.chosen) chosen.set(`${r.doc}\u0000${r.field}`, r);
}
const flat = (v: unknown) =>
  (typeof v === 'string' ? v : JSON.stringify(v))
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s"]+/g, '');
const reading = (expected: unknown, got: unknown, alt: unknown): string => {
  if (alt === null || alt === undefined) return 'none';
  const same = flat(alt) === flat(got) ? 'the same' : 'another';
  return `${same}, ${extractionScore.score(expected, alt, 'strict')}`;
};
const show = (v: unknown) =>
  JSON.stringify(v ?? null)
    .slice(0, 40)
    .replace(/\|/g, '\\|');

const wrong = new Map<string, number>();
const nulls = new Map<string, number>();
const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
const rows: string[] = [];
for (const f of fields) {
  if (f.strict !== 'wrong' && f.strict !== 'null_when_present') continue;
  const r = chosen.get(`${f.document}\u0000${f.field}`);
  const source = r?.paths?.source ?? '';
  if (f.strict === 'wrong') {
    const layout = reading(f.expected, f.got, r?.paths?.layout);
    const grid = reading(f.expected, f.got, r?.paths?.grid);
    bump(wrong, `| ${f.set} | ${source} | ${layout} | ${grid} |`);
    rows.push(
      `| ${f.set} | ${f.document.slice(0, 44)} | ${f.field} | ${show(f.expected)} | ${show(f.got)} | ${source} | ${layout}: ${show(r?.paths?.layout)} | ${grid === 'none' ? 'none' : `${grid}: ${show(r?.paths?.grid)}`} |`,
    );
  } else {
    const warning = String((f.evidence as { warning?: string } | null)?.warning ?? '');
    const why = r?.abstained
      ? `abstained (calibration), read by ${source}`
      : warning.includes('saw ')
        ? 'a reading refused by a rule'
        : 'nothing read';
    bump(nulls, `| ${f.set} | ${why} |`);
  }
}
const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => a[0].localeCompare(b[0]));
const out = [
  'Wrong values by the reading that gave them, and what the layout and a grid read for the field:',
  '',
  '| set | gave the value | layout pair read | grid cell read | values |',
  '| --- | --- | --- | --- | --- |',
  ...sorted(wrong).map(([k, n]) => `${k} ${n} |`),
  '',
  'Nulls when present, by why:',
  '',
  '| set | why | values |',
  '| --- | --- | --- |',
  ...sorted(nulls).map(([k, n]) => `${k} ${n} |`),
  '',
  'Every wrong value:',
  '',
  '| set | document | field | expected | returned | gave it | layout pair read | grid cell read |',
  '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ...rows,
];
process.stdout.write(`${out.join('\n')}\n`);
