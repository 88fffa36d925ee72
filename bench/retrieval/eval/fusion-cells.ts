// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Round 12 (issue 25): from `lexical-lab.ts --out f` (per-question scores of every config), per set and metric:
 * each config's hybrid against a reference keyword row (`--keyword`, default the config labelled "plain": the
 * tool's keyword mode) — the cells where hybrid < keyword — and against a baseline hybrid (`--base`) — how many
 * questions fall / rise per metric (a question "falls" on nDCG@10 or MRR when its score is lower).
 *   npx tsx bench/retrieval/eval/fusion-cells.ts --in f.json --base E [--keyword plain]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { meanScores, type QuestionScore } from './metrics.js';

const { values } = parseArgs({
  options: {
    in: { type: 'string' },
    base: { type: 'string', default: 'E' },
    keyword: { type: 'string', default: 'plain' },
  },
});
type Dump = Record<
  string,
  { ids: string[]; configs: Record<string, { keyword: QuestionScore[]; hybrid: QuestionScore[] }> }
>;
const dump = JSON.parse(readFileSync(values.in as string, 'utf8')) as Dump;
const metrics = ['ndcg10', 'hit1', 'answer5', 'mrr'] as const;
const below: Record<string, number> = {};
for (const [set, d] of Object.entries(dump)) {
  const kw = meanScores(d.configs[values.keyword as string]?.keyword ?? []);
  const base = d.configs[values.base as string]?.hybrid ?? [];
  process.stdout.write(`\n${set} (${d.ids.length}) keyword ${metrics.map((m) => kw[m].toFixed(4)).join(' / ')}\n`);
  for (const [label, c] of Object.entries(d.configs)) {
    if (label === values.keyword) continue;
    const m = meanScores(c.hybrid);
    const cells = metrics.filter((k) => m[k] < kw[k] - 1e-9);
    below[label] = (below[label] ?? 0) + cells.length;
    const moves = metrics.map((k) => {
      const fell = c.hybrid.filter((s, i) => s[k] < (base[i] as QuestionScore)[k] - 1e-9).length;
      const rose = c.hybrid.filter((s, i) => s[k] > (base[i] as QuestionScore)[k] + 1e-9).length;
      return `-${fell}+${rose}`;
    });
    process.stdout.write(
      `  ${label.padEnd(14)} ${metrics.map((k) => m[k].toFixed(4)).join(' / ')}  below keyword: ${cells.join(',') || '-'}  vs ${values.base}: ${moves.join(' ')}\n`,
    );
  }
}
process.stdout.write(`\ncells below keyword, all sets: ${JSON.stringify(below)}\n`);
