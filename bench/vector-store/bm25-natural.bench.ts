// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * BM25 at 100k chunks on NATURAL-LANGUAGE queries (issue 28): SciFact claims and the planning dev questions
 * (bench/retrieval/eval/sets/planning-dev.json), against a store of ~100k real-text chunks (the SciFact abstracts
 * cut into 120-word windows, the corpus repeated with shifted window starts until 100k chunks: real word
 * frequencies, every posting list ~10x as long as in the 5k-abstract corpus).
 *
 * Side by side in one run, alternating query by query (same terms for all three):
 * - `store`: `searchKeyword` through the embedded store (this code);
 * - `store-fts5`: the same call with the first pass from FTS5 (`KEYWORD_INDEX.enabled = false`: the store as it was
 *   before keyword-index.ts, round 11), the same rows and scores;
 * - `before`: the store's previous keyword SQL on the same index (points JOIN before the LIMIT,
 *   ORDER BY bm25(), unweighted);
 * - `plain`: plain FTS5 `bm25()` over a text-only FTS5 table of the same chunks (same tokenizer),
 *   `ORDER BY bm25(t) LIMIT 10`, the same OR-ed terms.
 * Per query: wall time (performance.now) and CPU time (process.cpuUsage, user + system) of the call.
 *
 *   npx tsx bench/vector-store/bm25-natural.bench.ts [--chunks 100000] [--queries 300] [--planning FILE]
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { EMBEDDED_DB_FILE, EmbeddedVectorStore } from '@lectern/vector-store';
import { repoRoot } from '@lectern/testing';
import { loadCorpus, naturalQuerySets } from '../embedding/corpus.js';
import { ftsQuery } from '../../libs/vector-store/src/embedded/sql-filter.js';
import { queryTerms } from '../../libs/vector-store/src/query-terms.js';
import { KEYWORD_INDEX } from '../../libs/vector-store/src/embedded/embedded-search.js';
import { KEYWORD_INDEX_STATS } from '../../libs/vector-store/src/embedded/keyword-index.js';

const { values } = parseArgs({
  options: {
    chunks: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '300' },
    planning: { type: 'string', default: join(repoRoot(), 'bench/retrieval/eval/sets/planning-dev.json') },
    out: { type: 'string', default: join(import.meta.dirname, 'results', 'bm25-natural.json') },
  },
});
const N = Number(values.chunks);
const log = (m: string): void => console.error(`[${new Date().toISOString().slice(11, 19)}] ${m}`);
const FP = { model_id: 'bench/none-2', revision: '1', dimension: 2, normalized: true };

const windows = (): string[] => {
  const docs = loadCorpus().map((d) => `${d.title}. ${d.text}`.split(/\s+/).filter(Boolean));
  const out: string[] = [];
  for (let rep = 0; out.length < N; rep++) {
    const shift = (rep * 13) % 120;
    for (const w of docs) {
      for (let i = rep === 0 ? 0 : -shift; i < w.length && out.length < N; i += 120) {
        const piece = w.slice(Math.max(0, i), i + 120);
        if (piece.length > 0) out.push(piece.join(' '));
      }
    }
  }
  return out;
};

const dir = mkdtempSync(join(tmpdir(), 'lectern-bm25-'));
const texts = windows();
log(`${texts.length} chunks; building the store and the plain FTS5 table in ${dir}`);
const store = new EmbeddedVectorStore({ dataDir: dir });
await store.ensureCollection('bench', { fingerprint: FP, hybrid: true });
for (let i = 0; i < texts.length; i += 2000) {
  await store.upsert(
    'bench',
    texts.slice(i, i + 2000).map((text, j) => ({
      id: String(i + j),
      text,
      vector: [1, ((i + j) % 7) / 7],
      payload: { document_id: `d${(i + j) % 5183}` },
    })),
    { fingerprint: FP },
  );
}
const plainDb = new Database(join(dir, 'plain.sqlite'));
plainDb.exec(`CREATE VIRTUAL TABLE t USING fts5(text, tokenize='porter unicode61 remove_diacritics 2')`);
const ins = plainDb.prepare('INSERT INTO t(rowid, text) VALUES (?, ?)');
plainDb.transaction(() => texts.forEach((t, i) => ins.run(i + 1, t)))();
plainDb.exec(`INSERT INTO t(t) VALUES ('optimize')`);
const storeDb = new Database(join(dir, EMBEDDED_DB_FILE), { readonly: true });
const cid = storeDb.prepare(`SELECT cid FROM vs_collections WHERE name = 'lectern_bench'`).pluck().get() as number;
const fts = `vs_fts_${cid}`;
const before = storeDb.prepare(
  `SELECT p.rid AS rid, -bm25(${fts}) AS s FROM ${fts} JOIN vs_points_${cid} p ON p.rid = ${fts}.rowid
   WHERE ${fts} MATCH ? AND 1 ORDER BY bm25(${fts}), p.rid LIMIT ?`,
);
const plain = plainDb.prepare(`SELECT rowid, bm25(t) AS s FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT ?`);

const sets = naturalQuerySets(Number(values.queries), values.planning);
if (sets.length === 1) log(`no ${values.planning}: planning questions skipped`);

const cpuMs = (c: NodeJS.CpuUsage): number => (c.user + c.system) / 1000;
const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const summary = (xs: { wall: number; cpu: number }[]) => ({
  wallP50: pct(
    xs.map((x) => x.wall),
    50,
  ),
  wallP99: pct(
    xs.map((x) => x.wall),
    99,
  ),
  cpuMean: xs.reduce((a, x) => a + x.cpu, 0) / xs.length,
  cpuP99: pct(
    xs.map((x) => x.cpu),
    99,
  ),
});

const results: Record<string, unknown> = {};
const load = [loadavg()];
for (const set of sets) {
  const m: Record<'store' | 'storeFts5' | 'before' | 'plain', { wall: number; cpu: number }[]> = {
    store: [],
    storeFts5: [],
    before: [],
    plain: [],
  };
  let differ = 0;
  const timed = (fn: () => unknown): { wall: number; cpu: number } => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    fn();
    return { wall: performance.now() - t0, cpu: cpuMs(process.cpuUsage(c0)) };
  };
  // One warm-up pass, then alternating measured passes.
  for (const q of set.queries.slice(0, 20)) await store.searchKeyword('bench', q, { limit: 10 });
  let words = 0;
  for (const q of set.queries) {
    const terms = queryTerms(q, 64);
    words += terms.length;
    const match = terms.map((w) => `"${w}"`).join(' OR ');
    const storeMatch = ftsQuery(q);
    if (!storeMatch) continue;
    const viaStore = async (index: boolean): Promise<string> => {
      KEYWORD_INDEX.enabled = index;
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const found = await store.searchKeyword('bench', q, { limit: 10 });
      (index ? m.store : m.storeFts5).push({ wall: performance.now() - t0, cpu: cpuMs(process.cpuUsage(c0)) });
      KEYWORD_INDEX.enabled = true;
      return JSON.stringify(found.map((h) => [h.id, h.score]));
    };
    // Alternating which of the two goes first; their answers compared.
    const first = m.store.length % 2 === 0;
    const a = await viaStore(first);
    const b = await viaStore(!first);
    if (a !== b) differ++;
    m.before.push(timed(() => before.all(storeMatch, 10)));
    m.plain.push(timed(() => plain.all(match, 10)));
  }
  results[set.name] = {
    queries: set.queries.length,
    meanTerms: words / set.queries.length,
    store: summary(m.store),
    storeFts5: summary(m.storeFts5),
    storeAnswersDiffering: differ,
    before: summary(m.before),
    plain: summary(m.plain),
  };
  load.push(loadavg());
  log(`${set.name}: ${JSON.stringify(results[set.name])}`);
}
const out = {
  date: new Date().toISOString(),
  chunks: texts.length,
  loadavg: load,
  keywordIndex: KEYWORD_INDEX_STATS,
  results,
};
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(values.out, JSON.stringify(out, null, 2));
console.log(JSON.stringify(out, null, 2));
await store.close();
storeDb.close();
plainDb.close();
rmSync(dir, { recursive: true, force: true });
