// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Go/no-go for an exact top-N keyword first pass (issue 28, round 11): the store's FTS5 query (`MATCH ... AND rank
 * MATCH 'bm25(weights)' ORDER BY rank, rowid LIMIT pool`, as embedded-search.ts runs it) against keyword-index.ts's
 * top-N over postings held in memory, on the same MATCH words (the store's common-word rule applied once for both),
 * alternating query by query, CPU (process.cpuUsage) and wall per call. Every query's two answers are compared: the
 * same rids in the same order, scores equal to a relative 1e-12.
 *
 * Collections: `--corpus load` = the load bench's ~10k SciFact chunks (5,183 abstracts, two chunks each, the title
 * in the text, as scifactBatches makes them); `--corpus windows --chunks 100000` = bm25-natural.bench.ts's 100k
 * windows. Queries: SciFact claims (shuffled, seed 7) and the planning-dev questions when present.
 *
 *   npx tsx bench/vector-store/keyword-topk.bench.ts --corpus load
 *   npx tsx bench/vector-store/keyword-topk.bench.ts --corpus windows --chunks 100000
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { EMBEDDED_DB_FILE, EmbeddedVectorStore } from '@lectern/vector-store';
import { repoRoot } from '@lectern/testing';
import { abstractHalves, loadCorpus, naturalQuerySets } from '../embedding/corpus.js';
import { ftsWords } from '../../libs/vector-store/src/embedded/sql-filter.js';
import { commonTerms, type Stmt } from '../../libs/vector-store/src/embedded/embedded-search.js';
import {
  dropKeywordIndexes,
  keywordIndexBytes,
  keywordTopK,
  KEYWORD_INDEX_STATS,
} from '../../libs/vector-store/src/embedded/keyword-index.js';
import { FIELD_WEIGHTS, keywordPool } from '../../libs/vector-store/src/lexical.js';
import type { Collection } from '../../libs/vector-store/src/embedded/embedded-schema.js';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string', default: 'load' },
    chunks: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '300' },
    rounds: { type: 'string', default: '2' },
    planning: { type: 'string', default: join(repoRoot(), 'bench/retrieval/eval/sets/planning-dev.json') },
  },
});
const log = (m: string): void => console.error(`[${new Date().toISOString().slice(11, 19)}] ${m}`);
const FP = { model_id: 'bench/none-2', revision: '1', dimension: 2, normalized: true };

const loadChunks = (): { text: string; doc: string }[] =>
  loadCorpus().flatMap((d) => abstractHalves(d).map(({ text }) => ({ text, doc: d.id })));

const windows = (n: number): { text: string; doc: string }[] => {
  const docs = loadCorpus().map((d) => `${d.title}. ${d.text}`.split(/\s+/).filter(Boolean));
  const out: { text: string; doc: string }[] = [];
  for (let rep = 0; out.length < n; rep++) {
    const shift = (rep * 13) % 120;
    for (const w of docs) {
      for (let i = rep === 0 ? 0 : -shift; i < w.length && out.length < n; i += 120) {
        const piece = w.slice(Math.max(0, i), i + 120);
        if (piece.length > 0) out.push({ text: piece.join(' '), doc: `d${out.length % 5183}` });
      }
    }
  }
  return out;
};

const chunks = values.corpus === 'load' ? loadChunks() : windows(Number(values.chunks));
const dir = mkdtempSync(join(tmpdir(), 'lectern-ktopk-'));
log(`${chunks.length} chunks (${values.corpus}); building the store in ${dir}`);
const store = new EmbeddedVectorStore({ dataDir: dir });
await store.ensureCollection('bench', { fingerprint: FP, hybrid: true });
for (let i = 0; i < chunks.length; i += 2000) {
  await store.upsert(
    'bench',
    chunks.slice(i, i + 2000).map((c, j) => ({
      id: String(i + j),
      text: c.text,
      vector: [1, ((i + j) % 7) / 7],
      payload: { document_id: c.doc },
    })),
    { fingerprint: FP },
  );
}
await store.close();

const db = new Database(join(dir, EMBEDDED_DB_FILE), { readonly: true });
const cache = new Map<string, ReturnType<Database.Database['prepare']>>();
const stmt: Stmt = (sql) => {
  let s = cache.get(sql);
  if (!s) cache.set(sql, (s = db.prepare(sql)));
  return s;
};
const c = db.prepare(`SELECT cid, version FROM vs_collections WHERE name = 'lectern_bench'`).get() as Collection;
const fts = `vs_fts_${c.cid}`;
const weights = [FIELD_WEIGHTS.text, FIELD_WEIGHTS.title, FIELD_WEIGHTS.section, FIELD_WEIGHTS.codes] as const;
const rank = `bm25(${weights.join(', ')})`;
const pool = keywordPool(100);
const ftsFirst = (match: string): { rid: number; r: number }[] =>
  stmt(
    `SELECT rowid AS rid, rank AS r FROM ${fts} WHERE ${fts} MATCH ? AND rank MATCH ? ORDER BY r, rowid LIMIT ?`,
  ).all(match, rank, pool) as { rid: number; r: number }[];

dropKeywordIndexes(stmt);
const heapBefore = process.memoryUsage();
const sets = naturalQuerySets(Number(values.queries), values.planning);

const cpu = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1000;
const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const mean = (xs: number[]): number => xs.reduce((a, x) => a + x, 0) / Math.max(1, xs.length);

for (const set of sets) {
  const match = set.queries.map((q) => {
    db.prepare('BEGIN').run();
    const words = ftsWords(q, commonTerms(stmt, c, q));
    db.prepare('COMMIT').run();
    return words;
  });
  let mismatches = 0;
  let fallbacks = 0;
  let matched = 0;
  for (let round = 0; round < Number(values.rounds); round++) {
    const m = {
      fts: { cpu: [] as number[], wall: [] as number[] },
      topk: { cpu: [] as number[], wall: [] as number[] },
    };
    for (const [i, words] of match.entries()) {
      if (words.length === 0) continue;
      const q = words.map((w) => `"${w}"`).join(' OR ');
      const runFts = (): { rid: number; r: number }[] => {
        const c0 = process.cpuUsage();
        const w0 = performance.now();
        const r = ftsFirst(q);
        m.fts.wall.push(performance.now() - w0);
        m.fts.cpu.push(cpu(process.cpuUsage(c0)));
        return r;
      };
      const runTopk = (): { rid: number; r: number }[] | null => {
        const c0 = process.cpuUsage();
        const w0 = performance.now();
        const r = keywordTopK(stmt, c, words, weights, pool);
        m.topk.wall.push(performance.now() - w0);
        m.topk.cpu.push(cpu(process.cpuUsage(c0)));
        return r;
      };
      // Alternate which goes first.
      const [a, b] = (i + round) % 2 === 0 ? [runFts(), runTopk()] : ((r) => [runFts(), r])(runTopk());
      if (b === null) {
        fallbacks++;
        continue;
      }
      if (round === 0) {
        matched += (db.prepare(`SELECT count(*) FROM ${fts} WHERE ${fts} MATCH ?`).pluck().get(q) as number) ?? 0;
        const same =
          a.length === b.length &&
          a.every((x, j) => x.rid === b[j]?.rid && Math.abs(x.r - (b[j]?.r ?? 0)) <= 1e-12 * Math.abs(x.r));
        if (!same) {
          mismatches++;
          if (mismatches <= 3)
            log(
              `mismatch on ${JSON.stringify(words)}: fts ${JSON.stringify(a.slice(0, 3))} topk ${JSON.stringify(b.slice(0, 3))}`,
            );
        }
      }
    }
    const f = (x: { cpu: number[]; wall: number[] }): string =>
      `CPU mean ${mean(x.cpu).toFixed(3)} ms, p50 ${pct(x.cpu, 50).toFixed(3)}, p99 ${pct(x.cpu, 99).toFixed(3)}; wall mean ${mean(x.wall).toFixed(3)} ms, p99 ${pct(x.wall, 99).toFixed(3)}`;
    const mem = process.memoryUsage();
    console.log(
      `${set.name} round ${round} (${set.queries.length} queries, ${chunks.length} chunks, mean rows matched ${(matched / Math.max(1, set.queries.length)).toFixed(0)}, pool ${pool}): ` +
        `mismatches ${mismatches}, fallbacks ${fallbacks}\n  FTS5  ${f(m.fts)}\n  topk  ${f(m.topk)}\n  index typed arrays ${(keywordIndexBytes(stmt, c.cid) / 1e6).toFixed(1)} MB, ` +
        `rss +${((mem.rss - heapBefore.rss) / 1e6).toFixed(0)} MB, heapUsed +${((mem.heapUsed - heapBefore.heapUsed) / 1e6).toFixed(0)} MB; load ${loadavg()
          .map((x) => x.toFixed(2))
          .join(' ')}`,
    );
  }
}
console.log(`stats ${JSON.stringify(KEYWORD_INDEX_STATS)}`);
db.close();
rmSync(dir, { recursive: true, force: true });
