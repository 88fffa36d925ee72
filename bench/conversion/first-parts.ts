// SPDX-License-Identifier: AGPL-3.0-or-later
// Where the first conversion in a fresh process spends its CPU (all threads, process.cpuUsage), in order: loading
// @lectern/conversion, starting the PDF worker (its thread, its modules, the mupdf engine: `warm`), the first
// conversion with the worker started, and the next conversions. Run compiled as the bench runs convert-one:
//   npx tsx bench/conversion/first-parts.ts FILE   (builds .compiled/first-parts-run.js and runs it RUNS times,
//   each in a fresh process; RUNS=5). FIRST_PARTS_NO_WARM=1: no separate worker start (as the bench's first run).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiledConvertOne } from './compiled.js';

const here = dirname(fileURLToPath(import.meta.url));
const file = process.argv[2] ?? '';
const runs = Number(process.env['RUNS'] ?? 5);
const src = join(here, process.env['COLD_PARTS'] === '1' ? 'cold-parts-run.ts' : 'first-parts-run.ts');
const program = await compiledConvertOne(src);
const abFlags = (process.env['AB_NODE_FLAGS'] ?? '').split(/\s+/).filter(Boolean);
const variants = abFlags.length > 0 ? [[], abFlags] : [[]];
const rows = new Map<string, Record<string, number>[]>(variants.map((v) => [v.join(' '), []]));
for (let i = 0; i < runs; i++) {
  for (const flags of i % 2 === 0 ? variants : [...variants].reverse()) {
    const r = spawnSync(process.execPath, [...flags, program, file], { encoding: 'utf8', env: process.env });
    if (r.status !== 0) throw new Error(r.stderr);
    const row = JSON.parse(r.stdout) as Record<string, number>;
    rows.get(flags.join(' '))?.push(row);
    process.stdout.write(`${JSON.stringify({ flags: flags.join(' '), ...row })}\n`);
  }
}
const median = (v: number[]): number => [...v].sort((a, b) => a - b)[v.length >> 1] ?? NaN;
for (const [flags, list] of rows) {
  const keys = Object.keys(list[0] ?? {});
  const medians = Object.fromEntries(keys.map((k) => [k, median(list.map((r) => r[k] ?? NaN))]));
  process.stdout.write(`median ${JSON.stringify({ flags, ...medians })}\n`);
}
