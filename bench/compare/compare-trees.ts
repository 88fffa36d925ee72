// SPDX-License-Identifier: AGPL-3.0-or-later
// A/B benchmark of two checkouts of this repository on the same machine at the same time: runs a bench
// command from each tree in turn (base, head, base, head, ...), so load on the machine falls on both alike,
// and prints every run's JSON line with the tree it came from plus the median per tree.
//   npx tsx bench/compare/compare-trees.ts --base ../wt-base --head . --rounds 3 -- npx tsx bench/conversion/convert-one.ts text FILE
// The command runs with each tree as its working directory; it must print one JSON object as its last line.
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';

const args = process.argv.slice(2);
const sep = args.indexOf('--');
if (sep < 0) throw new Error('usage: compare-trees.ts --base DIR --head DIR [--rounds N] -- COMMAND...');
const flag = (name: string, fallback?: string): string => {
  const i = args.indexOf(name);
  const v = i >= 0 && i < sep ? args[i + 1] : fallback;
  if (v === undefined) throw new Error(`missing ${name}`);
  return v;
};
const trees = { base: resolve(flag('--base')), head: resolve(flag('--head')) };
const rounds = Number(flag('--rounds', '3'));
const [cmd, ...cmdArgs] = args.slice(sep + 1);
if (!cmd) throw new Error('no command');

const results: Record<'base' | 'head', Record<string, unknown>[]> = { base: [], head: [] };
for (let r = 0; r < rounds; r++) {
  const order: Array<'base' | 'head'> = r % 2 === 0 ? ['base', 'head'] : ['head', 'base'];
  for (const tree of order) {
    const load = loadavg()[0];
    const out = execFileSync(cmd, cmdArgs, {
      cwd: trees[tree],
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const line = JSON.parse(out.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
    results[tree].push(line);
    process.stdout.write(`${JSON.stringify({ round: r + 1, tree, load_before: load, ...line })}\n`);
  }
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const summary: Record<string, Record<string, number>> = {};
for (const tree of ['base', 'head'] as const) {
  summary[tree] = {};
  const keys = Object.keys(results[tree][0] ?? {}).filter((k) => typeof results[tree][0]?.[k] === 'number');
  for (const k of keys) summary[tree][k] = median(results[tree].map((x) => Number(x[k])));
}
process.stdout.write(`${JSON.stringify({ medians: summary })}\n`);
