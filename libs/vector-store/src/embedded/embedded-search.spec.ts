// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedVectorStore } from './embedded.adapter.js';
import { COMMON_TERM_MIN_CHUNKS, FACTS_CACHE, FACTS_READ } from './embedded-search.js';
import { HEADER_CREDIT, SHORT_CHUNK_DAMPING } from '../lexical.js';
import type { Point } from '../vector-store.port.js';

const FP = { model_id: 'test/unit-4', revision: '1', dimension: 4, normalized: true };

/** A small deterministic generator (mulberry32), so the collection is the same on every run. */
const random = (seed: number): (() => number) => {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

const WORDS = (
  'adoption plan council housing appraisal sustainability mitigation waste transport parking density green belt ' +
  'heritage flood risk policy site allocation employment retail centre design quality air noise viability ' +
  'infrastructure school inspector modification consultation evidence trajectory target affordable tenure'
).split(' ');
const HEADERS = [
  'Coventry Local Plan Sustainability Appraisal',
  'Air Quality Action Plan',
  'Housing Trajectory Report',
];

/**
 * Documents of 1-8 chunks whose texts run from a few words to ~900 characters (the damping's spread of lengths),
 * some with a running header, some without a document id, some with a numeric one: every case the keyword side's
 * damping and header credit read.
 */
const generate = (seed: number, docs: number): Point[] => {
  const r = random(seed);
  const pick = (): string => WORDS[Math.floor(r() * WORDS.length)] ?? 'plan';
  const points: Point[] = [];
  for (let d = 0; d < docs; d++) {
    const chunks = 1 + Math.floor(r() * 8);
    const header = r() < 0.3 ? HEADERS[d % HEADERS.length] : r() < 0.1 ? 7 : undefined;
    const docId = r() < 0.1 ? undefined : r() < 0.15 ? d : `doc-${d}`;
    for (let i = 0; i < chunks; i++) {
      const n = r() < 0.3 ? 2 + Math.floor(r() * 6) : 20 + Math.floor(r() * 120);
      const text = Array.from({ length: n }, pick).join(' ') + '.';
      points.push({
        id: `p-${d}-${i}`,
        text,
        payload: {
          ...(docId !== undefined ? { document_id: docId } : {}),
          chunk_index: i,
          ...(header !== undefined ? { running_header: header } : {}),
        },
        vector: [1, r(), r(), r()],
      });
    }
  }
  return points;
};

const QUERIES = (() => {
  const r = random(99);
  return Array.from({ length: 24 }, () =>
    Array.from({ length: 2 + Math.floor(r() * 6) }, () => WORDS[Math.floor(r() * WORDS.length)] ?? 'plan').join(' '),
  );
})();

type Ranked = [string, number][];

describe('embedded keyword side: the cached candidate facts rank exactly as reading them each time', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lectern-vs-search-'));
  });
  afterEach(() => {
    Object.assign(FACTS_CACHE as { enabled: boolean }, { enabled: true });
    rmSync(dir, { recursive: true, force: true });
  });

  /** Each query's keyword and hybrid answers (ids and scores), with the cache on (twice: cold, warm) and off. */
  const compare = async (store: EmbeddedVectorStore, limit: number): Promise<{ damped: number; headed: number }> => {
    const run = async (): Promise<Ranked[]> => {
      const out: Ranked[] = [];
      for (const q of QUERIES) {
        out.push((await store.searchKeyword('gen', q, { limit })).map((h) => [h.id, h.score]));
        const hybrid = await store.searchHybrid(
          'gen',
          { vector: [1, 0.5, 0.5, 0.5], text: q },
          { limit, fingerprint: FP },
        );
        out.push(hybrid.map((h) => [h.id, h.score]));
        out.push(hybrid.map((h) => [h.id, h.keywordScore ?? -1]));
      }
      return out;
    };
    Object.assign(FACTS_CACHE as { enabled: boolean }, { enabled: false });
    const reference = await run();
    Object.assign(FACTS_CACHE as { enabled: boolean }, { enabled: true });
    expect(await run()).toEqual(reference);
    expect(await run()).toEqual(reference);
    // The collection exercises both steps: turned off, each changes some answers.
    const without = async (o: object, v: object): Promise<number> => {
      const before = { ...o };
      Object.assign(o, v);
      try {
        const plain = await run();
        return plain.filter((p, i) => JSON.stringify(p) !== JSON.stringify(reference[i])).length;
      } finally {
        Object.assign(o, before);
      }
    };
    return {
      damped: await without(SHORT_CHUNK_DAMPING, { exponent: 0 }),
      headed: await without(HEADER_CREDIT, { weight: 0 }),
    };
  };

  it('on a generated collection, and after each kind of write (upsert, payload patch, delete)', async () => {
    const store = new EmbeddedVectorStore({ dataDir: dir });
    await store.ensureCollection('gen', { fingerprint: FP, hybrid: true });
    const points = generate(7, 120);
    await store.upsert('gen', points, { fingerprint: FP });
    const first = await compare(store, 20);
    expect(first.damped).toBeGreaterThan(0);
    expect(first.headed).toBeGreaterThan(0);
    // A payload patch does not bump the collection version: documents merged, headers given and taken.
    await store.setPayload('gen', { chunk_index: 0 }, { document_id: 'merged' });
    await compare(store, 20);
    await store.setPayload('gen', { chunk_index: 1 }, { running_header: HEADERS[0] });
    await compare(store, 20);
    // Texts rewritten (lengths change), then points deleted.
    await store.upsert(
      'gen',
      generate(8, 40).map((p) => ({ ...p, id: p.id })),
      { fingerprint: FP },
    );
    await compare(store, 10);
    await store.deleteByIds(
      'gen',
      points.filter((_, i) => i % 3 === 0).map((p) => p.id),
    );
    await compare(store, 20);
    await store.close();
  });

  it("keeps its cache across another connection's writes, evicting only the points they changed", async () => {
    const writer = new EmbeddedVectorStore({ dataDir: dir });
    await writer.ensureCollection('gen', { fingerprint: FP, hybrid: true });
    const points = generate(21, 150);
    await writer.upsert('gen', points, { fingerprint: FP });
    const reader = new EmbeddedVectorStore({ dataDir: dir });
    /** Every query's hybrid answer (ids, scores, keyword scores) with the cache as it is, then read afresh. */
    const agree = async (): Promise<void> => {
      for (const q of QUERIES) {
        const ask = async (): Promise<Ranked[]> => {
          const h = await reader.searchHybrid(
            'gen',
            { vector: [1, 0.3, 0.6, 0.2], text: q },
            { limit: 15, fingerprint: FP },
          );
          const k = await reader.searchKeyword('gen', q, { limit: 15 });
          return [
            h.map((x) => [x.id, x.score]),
            h.map((x) => [x.id, x.keywordScore ?? -1]),
            k.map((x) => [x.id, x.score]),
          ];
        };
        const cached = await ask();
        Object.assign(FACTS_CACHE as { enabled: boolean }, { enabled: false });
        try {
          expect(cached).toEqual(await ask());
        } finally {
          Object.assign(FACTS_CACHE as { enabled: boolean }, { enabled: true });
        }
      }
    };
    await agree();
    // Warm: asked again with no write between, nothing is read.
    const warm = FACTS_READ.rids;
    for (const q of QUERIES) await reader.searchKeyword('gen', q, { limit: 15 });
    expect(FACTS_READ.rids).toBe(warm);
    // One other document's chunks rewritten: asked again, only (some of) those points are read.
    const doc = points.filter((p) => p.id.startsWith('p-3-'));
    await writer.upsert(
      'gen',
      doc.map((p) => ({ ...p, text: `${p.text} plan` })),
      { fingerprint: FP },
    );
    const before = FACTS_READ.rids;
    for (const q of QUERIES) await reader.searchKeyword('gen', q, { limit: 15 });
    expect(FACTS_READ.rids - before).toBeLessThanOrEqual(doc.length);
    // Writes of every kind interleaved with searches: texts shortened and lengthened, documents merged and split,
    // headers given, points added and deleted; after each, the cached answers are the uncached ones.
    const r = random(5);
    const pickIds = (n: number): string[] =>
      Array.from({ length: n }, () => points[Math.floor(r() * points.length)]?.id ?? 'p-0-0');
    const writes: (() => Promise<unknown>)[] = [
      () =>
        writer.upsert(
          'gen',
          pickIds(6).map((id, i) => ({
            id,
            text: i % 2 === 0 ? 'plan' : `${WORDS.slice(0, 30).join(' ')} housing`,
            payload: {
              document_id: `moved-${i % 2}`,
              chunk_index: i,
              ...(i % 3 === 0 ? { running_header: HEADERS[2] } : {}),
            },
            vector: [1, r(), r(), r()],
          })),
          { fingerprint: FP },
        ),
      () => writer.setPayload('gen', { chunk_index: 2 }, { document_id: `merged-${Math.floor(r() * 3)}` }),
      () => writer.setPayload('gen', { chunk_index: 3 }, { running_header: HEADERS[Math.floor(r() * 3)] }),
      () => writer.deleteByIds('gen', pickIds(5)),
      () =>
        writer.upsert(
          'gen',
          generate(100 + Math.floor(r() * 1000), 4).map((p) => ({ ...p, id: `new-${p.id}-${r()}` })),
          { fingerprint: FP },
        ),
    ];
    for (let round = 0; round < 10; round++) {
      await writes[round % writes.length]?.();
      await agree();
    }
    await reader.close();
    await writer.close();
  });

  it('leaves out the same common words as exact frequencies would, while writes move a word across the line', async () => {
    const writer = new EmbeddedVectorStore({ dataDir: dir });
    await writer.ensureCollection('gen', { fingerprint: FP, hybrid: true });
    // 'record' in every chunk and 'cohort' in 50 more than COMMON_TERM_MIN_CHUNKS (both common), 'patients' in 10
    // fewer (not yet), 'observed', 'notes', 'aspirin thrombosis' in fewer; the writes below add 'patients' to more
    // chunks, 15 at a time, past the line and past 'cohort', and take it out again.
    const n = COMMON_TERM_MIN_CHUNKS + 200;
    const text = (i: number, patients: boolean): string =>
      `${i < COMMON_TERM_MIN_CHUNKS + 50 ? 'Cohort ' : ''}${i} ${patients ? 'patients ' : ''}` +
      `${i % 2 === 0 ? 'observed ' : ''}record ${i % 7 === 0 ? 'aspirin thrombosis' : 'notes'}.`;
    const filler = (i: number, patients: boolean): Point => ({
      id: `f${i}`,
      text: text(i, patients),
      payload: { document_id: `d${i % 50}` },
      vector: [1, (i % 7) / 7, 0.5, 0.5],
    });
    const withPatients = new Set(Array.from({ length: COMMON_TERM_MIN_CHUNKS - 10 }, (_, i) => i));
    await writer.upsert(
      'gen',
      Array.from({ length: n }, (_, i) => filler(i, withPatients.has(i))),
      { fingerprint: FP },
    );
    const reader = new EmbeddedVectorStore({ dataDir: dir });
    // Four rare words: every common one is left out. Three: the rarest common word is kept.
    const asks = [
      'patients cohort aspirin thrombosis notes observed',
      'patients cohort record aspirin thrombosis notes',
    ];
    const agree = async (): Promise<string[]> => {
      const answers: string[] = [];
      for (const q of asks) {
        // Enough hits to reach the chunks holding 'patients' (the shorter ones without it rank first).
        const cached = (await reader.searchKeyword('gen', q, { limit: 100 })).map((h) => [h.id, h.score]);
        Object.assign(FACTS_CACHE as { enabled: boolean }, { enabled: false });
        try {
          expect(cached).toEqual((await reader.searchKeyword('gen', q, { limit: 100 })).map((h) => [h.id, h.score]));
        } finally {
          Object.assign(FACTS_CACHE as { enabled: boolean }, { enabled: true });
        }
        answers.push(JSON.stringify(cached));
      }
      return answers;
    };
    const seen = new Set<string>();
    const record = (a: string[]): void => void seen.add(a.join('|'));
    record(await agree());
    let next = COMMON_TERM_MIN_CHUNKS - 10;
    for (const step of [15, 15, -15, -15, 15, 15, 15, 15, 15, 15, -15, -15, -15, -15]) {
      const ids: number[] = [];
      if (step > 0) for (let j = 0; j < step; j++) ids.push(next++);
      else for (let j = 0; j < -step; j++) ids.push(--next);
      for (const i of ids) {
        if (step > 0) withPatients.add(i);
        else withPatients.delete(i);
      }
      await writer.upsert(
        'gen',
        ids.map((i) => filler(i, step > 0)),
        { fingerprint: FP },
      );
      record(await agree());
    }
    // 'patients' was left out in some states and kept in others: the answers changed with the writes.
    expect(seen.size).toBeGreaterThan(1);
    await reader.close();
    await writer.close();
  });

  it('holds at most FACTS_CACHE.max facts per connection over its collections, answering the same', async () => {
    const store = new EmbeddedVectorStore({ dataDir: dir });
    for (const [name, seed] of [
      ['gen', 31],
      ['two', 32],
    ] as const) {
      await store.ensureCollection(name, { fingerprint: FP, hybrid: true });
      await store.upsert(name, generate(seed, 60), { fingerprint: FP });
    }
    const max = FACTS_CACHE.max;
    Object.assign(FACTS_CACHE as { max: number }, { max: 40 });
    try {
      const answers = async (): Promise<string> => {
        const out: unknown[] = [];
        for (const q of QUERIES.slice(0, 8))
          for (const name of ['gen', 'two'])
            out.push((await store.searchKeyword(name, q, { limit: 15 })).map((h) => [h.id, h.score]));
        return JSON.stringify(out);
      };
      const cached = await answers();
      // Asked again: with room for 40 facts over two collections, the cache cannot answer them all.
      const before = FACTS_READ.rids;
      expect(await answers()).toBe(cached);
      expect(FACTS_READ.rids).toBeGreaterThan(before);
      Object.assign(FACTS_CACHE as { enabled: boolean }, { enabled: false });
      expect(await answers()).toBe(cached);
    } finally {
      Object.assign(FACTS_CACHE as { max: number }, { max });
    }
    await store.close();
  });

  it("sees another connection's payload patch (a second store on the same file, as another process)", async () => {
    const writer = new EmbeddedVectorStore({ dataDir: dir });
    await writer.ensureCollection('gen', { fingerprint: FP, hybrid: true });
    await writer.upsert('gen', generate(11, 100), { fingerprint: FP });
    const reader = new EmbeddedVectorStore({ dataDir: dir });
    await compare(reader, 20);
    await writer.setPayload('gen', { chunk_index: 0 }, { document_id: 'merged' });
    await compare(reader, 20);
    await writer.setPayload('gen', { chunk_index: 2 }, { running_header: HEADERS[1] });
    await compare(reader, 20);
    await reader.close();
    await writer.close();
  });
});
