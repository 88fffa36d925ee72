// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * keyword-index.ts under writes (issue 28, round 11): the load bench's ~10k SciFact chunks in an embedded store; then
 * rounds of one write (re-storing 250 abstracts = 500 chunks, as the load bench's writer does) and `--per` hybrid
 * searches whose text is one of 300 SciFact claims (cycled) plus one word no chunk holds (as the load bench asks them), the keyword
 * first pass from keyword-index.ts and from FTS5 alternating query by query. CPU (process.cpuUsage) per search.
 *
 *   npx tsx bench/vector-store/keyword-topk-writes.bench.ts [--rounds 20] [--per 40]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { EmbeddedVectorStore } from '@lectern/vector-store';
import { abstractHalves, loadCorpus, loadQueries, shuffled } from '../embedding/corpus.js';
import { KEYWORD_INDEX } from '../../libs/vector-store/src/embedded/embedded-search.js';
import { KEYWORD_INDEX_STATS } from '../../libs/vector-store/src/embedded/keyword-index.js';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '20' }, per: { type: 'string', default: '40' } },
});
const FP = { model_id: 'bench/none-2', revision: '1', dimension: 2, normalized: true };
const docs = loadCorpus();
const chunksOf = (ds: typeof docs) =>
  ds.flatMap((d) =>
    abstractHalves(d).map(({ k, text }) => ({
      id: `${d.id}:${k}`,
      text,
      vector: [1, (k + 1) / 7],
      payload: { document_id: d.id },
    })),
  );
const dir = mkdtempSync(join(tmpdir(), 'lectern-ktopkw-'));
const store = new EmbeddedVectorStore({ dataDir: dir });
await store.ensureCollection('bench', { fingerprint: FP, hybrid: true });
const all = chunksOf(docs);
for (let i = 0; i < all.length; i += 2000) await store.upsert('bench', all.slice(i, i + 2000), { fingerprint: FP });
const claims = shuffled(loadQueries(), 7)
  .slice(0, 300)
  .map((q) => q.text);
const cpu = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1000;
const m = { index: [] as number[], fts5: [] as number[], write: [] as number[] };
let n = 0;
for (let round = 0; round < Number(values.rounds); round++) {
  const batch = chunksOf(docs.slice((round * 250) % docs.length, ((round * 250) % docs.length) + 250));
  const w0 = process.cpuUsage();
  await store.upsert('bench', batch, { fingerprint: FP });
  m.write.push(cpu(process.cpuUsage(w0)));
  for (let i = 0; i < Number(values.per); i++) {
    const text = `${claims[n % claims.length]} q${round}x${i}`;
    n++;
    for (const on of (i + round) % 2 === 0 ? [true, false] : [false, true]) {
      KEYWORD_INDEX.enabled = on;
      const c0 = process.cpuUsage();
      await store.searchHybrid('bench', { vector: [1, 0.3], text }, { fingerprint: FP, limit: 12 });
      (on ? m.index : m.fts5).push(cpu(process.cpuUsage(c0)));
    }
  }
  KEYWORD_INDEX.enabled = true;
}
const mean = (xs: number[]): number => xs.reduce((a, x) => a + x, 0) / Math.max(1, xs.length);
// The first search after each write, in the rounds where that mode went first (it pays the catch-ups both share).
const first = (xs: number[], on: boolean): number[] =>
  xs.filter((_, i) => i % Number(values.per) === 0 && (Math.floor(i / Number(values.per)) % 2 === 0) === on);
console.log(
  `${all.length} chunks, ${values.rounds} writes of 500 chunks, ${values.per} searches after each: ` +
    `hybrid search CPU mean ${mean(m.index).toFixed(3)} ms with keyword-index.ts, ${mean(m.fts5).toFixed(3)} ms with FTS5; ` +
    `first search after a write (going first) ${mean(first(m.index, true)).toFixed(3)} / ${mean(first(m.fts5, false)).toFixed(3)} ms; ` +
    `write CPU mean ${mean(m.write).toFixed(1)} ms; load ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}; ${JSON.stringify(KEYWORD_INDEX_STATS)}`,
);
await store.close();
rmSync(dir, { recursive: true, force: true });
