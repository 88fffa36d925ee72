// SPDX-License-Identifier: AGPL-3.0-or-later
import { seededUnit } from '@lectern/testing';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMBEDDED_DB_FILE, EmbeddedVectorStore } from './embedded.adapter.js';
import { KEYWORD_INDEX, commonTerms, type Stmt } from './embedded-search.js';
import { ftsWords } from './sql-filter.js';
import { KEYWORD_INDEX_STATS, POSTINGS_HELD, dropKeywordIndexes, keywordTopK } from './keyword-index.js';
import type { Collection } from './embedded-schema.js';
import { FIELD_WEIGHTS } from '../lexical.js';
import type { Filter, Point } from '../vector-store.port.js';

const FP = { model_id: 'test/unit-4', revision: '1', dimension: 4, normalized: true };

/** A seeded generator (mulberry32): the same collections and operations on every run. */
const rng = seededUnit;

// Words of very different frequencies (drawn with a skew), several sharing a Porter stem (housing / houses / house),
// stopwords among them, a code or two (their compound token goes to the `codes` field).
const VOCAB = (
  'housing houses house flood flooding floods risk transport road roads traffic green belt open space air quality ' +
  'noise school schools heritage listed building buildings design density parking cycle cycling bus station ' +
  'retail centre employment land allocation policy policies water drainage ecology habitat trees viability ' +
  'affordable tenure rural village town city council plan the of and in to MR-J5-60G4 2021–2041 Para 11'
).split(' ');

const sentence = (r: () => number, n: number): string =>
  Array.from({ length: n }, () => VOCAB[Math.floor(VOCAB.length * r() ** 2)] as string).join(' ');

const point = (r: () => number, i: number): Point => ({
  id: `p${i}`,
  text: sentence(r, 3 + Math.floor(r() * 40)),
  vector: [1, r(), r(), 0],
  payload: {
    document_id: `d${i % 17}`,
    kind: r() < 0.5 ? 'a' : 'b',
    ...(r() < 0.4 ? { source_title: sentence(r, 1 + Math.floor(r() * 4)) } : {}),
    ...(r() < 0.3 ? { section_path: [sentence(r, 2)] } : {}),
  },
});

const WEIGHTS = (): [number, number, number, number] => [
  FIELD_WEIGHTS.text,
  FIELD_WEIGHTS.title,
  FIELD_WEIGHTS.section,
  FIELD_WEIGHTS.codes,
];

describe('keyword-index: the exact top-N against FTS5', () => {
  let dir = '';
  let store: EmbeddedVectorStore;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lectern-vs-kindex-'));
    store = new EmbeddedVectorStore({ dataDir: dir });
    await store.ensureCollection('g', { fingerprint: FP, hybrid: true });
  });
  afterEach(async () => {
    KEYWORD_INDEX.enabled = true;
    POSTINGS_HELD.max = 2_000_000;
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** One random write: new points, re-stored points (new texts), a title patch, deletes by id or by filter. */
  const write = async (r: () => number, next: { i: number }): Promise<string> => {
    const x = r();
    const live = (): number => Math.floor(r() * next.i);
    if (x < 0.3) {
      const pts = Array.from({ length: 1 + Math.floor(r() * 30) }, () => point(r, next.i++));
      await store.upsert('g', pts, { fingerprint: FP });
      return `upsert ${pts.length} new`;
    }
    if (x < 0.55) {
      const ids = [...new Set(Array.from({ length: 1 + Math.floor(r() * 20) }, live))];
      const pts = ids.map((i) => point(r, i));
      await store.upsert('g', pts, { fingerprint: FP });
      return `re-store ${pts.length}`;
    }
    if (x < 0.7) {
      const n = await store.setPayload(
        'g',
        { document_id: `d${Math.floor(r() * 17)}` },
        { source_title: sentence(r, 3) },
      );
      return `patch titles of ${n}`;
    }
    if (x < 0.85) {
      const n = await store.deleteByIds(
        'g',
        Array.from({ length: 1 + Math.floor(r() * 10) }, () => `p${live()}`),
      );
      return `delete ${n} by id`;
    }
    const n = await store.deleteByFilter('g', { document_id: `d${Math.floor(r() * 17)}`, kind: 'a' });
    return `delete ${n} by filter`;
  };

  it.each([
    ['', 11, 2_000_000],
    [', its lists dropped at a cap of 400 postings', 12, 400],
  ])(
    'gives FTS5 ORDER BY rank, rowid rows and scores on a connection held across upserts, patches and deletes, searched between writes%s',
    async (_what, seed, cap) => {
      POSTINGS_HELD.max = cap;
      const r = rng(seed);
      const next = { i: 0 };
      await store.upsert(
        'g',
        Array.from({ length: 300 }, () => point(r, next.i++)),
        { fingerprint: FP },
      );
      // A second connection, as a search worker holds one: its index is brought forward across the writes.
      const db = new Database(join(dir, EMBEDDED_DB_FILE), { readonly: true });
      const cache = new Map<string, Database.Statement>();
      const stmt: Stmt = (sql) => {
        let s = cache.get(sql);
        if (!s) cache.set(sql, (s = db.prepare(sql)));
        return s;
      };
      const reads0 = KEYWORD_INDEX_STATS.termReads;
      const rows0 = KEYWORD_INDEX_STATS.changedRows;
      const terms0 = KEYWORD_INDEX_STATS.changedTerms;
      const states0 = KEYWORD_INDEX_STATS.states;
      const drops0 = KEYWORD_INDEX_STATS.drops;
      const seen = new Set<string>();
      let compared = 0;
      try {
        for (let step = 0; step < 40; step++) {
          const op = step === 0 ? 'none' : await write(r, next);
          db.prepare('BEGIN').run();
          try {
            const c = db
              .prepare(`SELECT cid, version FROM vs_collections WHERE name = 'lectern_g'`)
              .get() as Collection;
            const fts = `vs_fts_${c.cid}`;
            for (let q = 0; q < 6; q++) {
              const query = sentence(r, 2 + Math.floor(r() * 9));
              const words = ftsWords(query, commonTerms(stmt, c, query));
              if (words.length === 0) continue;
              const limit = [5, 40, 200][q % 3] as number;
              const ours = keywordTopK(stmt, c, words, WEIGHTS(), limit);
              for (const w of words) seen.add(w);
              const theirs = stmt(
                `SELECT rowid AS rid, rank AS r FROM ${fts} WHERE ${fts} MATCH ? AND rank MATCH ? ORDER BY r, rowid LIMIT ?`,
              ).all(words.map((w) => `"${w}"`).join(' OR '), `bm25(${WEIGHTS().join(', ')})`, limit) as {
                rid: number;
                r: number;
              }[];
              const where = `step ${step} (${op}), query "${query}"`;
              // The same rows in the same order with the same scores, bit for bit.
              expect({ where, ranked: ours }).toEqual({ where, ranked: theirs });
              compared++;
            }
          } finally {
            db.prepare('COMMIT').run();
          }
        }
      } finally {
        db.close();
      }
      expect(compared).toBeGreaterThan(200);
      // Served after every write, brought forward in place: one state, the changed rows folded into the held lists.
      expect(KEYWORD_INDEX_STATS.states - states0).toBe(1);
      expect(KEYWORD_INDEX_STATS.changedRows).toBeGreaterThan(rows0);
      expect(KEYWORD_INDEX_STATS.changedTerms).toBeGreaterThan(terms0);
      if (cap > 1000) {
        // Each word's list read once (a word no row holds is read again: those are few), then kept current.
        expect(KEYWORD_INDEX_STATS.drops).toBe(drops0);
        expect(KEYWORD_INDEX_STATS.termReads - reads0).toBeLessThan(seen.size + 20);
      } else {
        // The cap held: the lists were dropped and read again, and the answers are still FTS5's.
        expect(KEYWORD_INDEX_STATS.drops).toBeGreaterThan(drops0);
      }
    },
  );

  it('leaves keyword and hybrid searches unchanged, with and without filters (FTS5 serves the filtered ones)', async () => {
    const r = rng(5);
    const next = { i: 0 };
    await store.upsert(
      'g',
      Array.from({ length: 200 }, () => point(r, next.i++)),
      { fingerprint: FP },
    );
    const filters: (Filter | undefined)[] = [undefined, { kind: 'a' }, { document_id: { $in: ['d1', 'd2', 'd3'] } }];
    for (let step = 0; step < 12; step++) {
      if (step > 0) await write(r, next);
      for (let q = 0; q < 4; q++) {
        const text = sentence(r, 2 + Math.floor(r() * 9));
        const vector = [1, r(), 0.5, 0];
        for (const filter of filters) {
          const run = async (on: boolean) => {
            KEYWORD_INDEX.enabled = on;
            const opts = filter ? { filter } : {};
            return {
              keyword: await store.searchKeyword('g', text, { limit: 10, ...opts }),
              hybrid: await store.searchHybrid(
                'g',
                { vector, text },
                { fingerprint: FP, limit: 10, documentEvidence: 0.3, ...opts },
              ),
            };
          };
          const on = await run(true);
          const off = await run(false);
          const strip = (hs: { id: string; score: number }[]) => hs.map((h) => [h.id, h.score]);
          expect(strip(on.keyword)).toEqual(strip(off.keyword));
          expect(strip(on.hybrid)).toEqual(strip(off.hybrid));
        }
      }
    }
  });

  it('reads a term again after the connection drops its lists', async () => {
    const r = rng(3);
    await store.upsert(
      'g',
      Array.from({ length: 50 }, (_, i) => point(r, i)),
      { fingerprint: FP },
    );
    const db = new Database(join(dir, EMBEDDED_DB_FILE), { readonly: true });
    const stmt: Stmt = (sql) => db.prepare(sql);
    try {
      const c = db.prepare(`SELECT cid, version FROM vs_collections WHERE name = 'lectern_g'`).get() as Collection;
      const before = KEYWORD_INDEX_STATS.termReads;
      keywordTopK(stmt, c, ['flood', 'risk'], WEIGHTS(), 10);
      keywordTopK(stmt, c, ['flood', 'risk'], WEIGHTS(), 10);
      expect(KEYWORD_INDEX_STATS.termReads - before).toBe(2);
      dropKeywordIndexes(stmt);
      keywordTopK(stmt, c, ['flood'], WEIGHTS(), 10);
      expect(KEYWORD_INDEX_STATS.termReads - before).toBe(3);
    } finally {
      db.close();
    }
  });

  it('serves right after a write, with the written rows', async () => {
    const r = rng(9);
    await store.upsert(
      'g',
      Array.from({ length: 50 }, (_, i) => point(r, i)),
      { fingerprint: FP },
    );
    const db = new Database(join(dir, EMBEDDED_DB_FILE), { readonly: true });
    const stmt: Stmt = (sql) => db.prepare(sql);
    const collection = (): Collection =>
      db.prepare(`SELECT cid, version FROM vs_collections WHERE name = 'lectern_g'`).get() as Collection;
    try {
      const before = keywordTopK(stmt, collection(), ['flood', 'risk'], WEIGHTS(), 100);
      expect(before).not.toBeNull();
      // A new point holding both words many times, and one of the matching rows re-stored without them.
      const gone = (before as { rid: number }[])[0]?.rid as number;
      const goneId = db.prepare(`SELECT id FROM vs_points_${collection().cid} WHERE rid = ?`).pluck().get(gone);
      await store.upsert(
        'g',
        [
          { ...point(r, 60), text: 'flood risk flood risk flood risk' },
          { ...point(r, 61), id: goneId as string, text: 'school bus', payload: { document_id: 'd0', kind: 'a' } },
        ],
        { fingerprint: FP },
      );
      const after = keywordTopK(stmt, collection(), ['flood', 'risk'], WEIGHTS(), 100) as { rid: number }[];
      expect(after).not.toBeNull();
      const top = db.prepare(`SELECT rid FROM vs_points_${collection().cid} WHERE id = 'p60'`).pluck().get();
      expect(after[0]?.rid).toBe(top);
      expect(after.map((h) => h.rid)).not.toContain(gone);
    } finally {
      db.close();
    }
  });
});
