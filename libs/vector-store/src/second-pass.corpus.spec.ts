// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedDir } from '@lectern/testing';
import { EmbeddedVectorStore } from './embedded/embedded.adapter.js';
import { QdrantVectorStore } from './qdrant/qdrant.adapter.js';
import { OpenApiValidator } from './qdrant/testing/openapi-validator.js';
import { QdrantSimulator } from './qdrant/testing/qdrant-simulator.js';
import { HEADER_CREDIT, SHORT_CHUNK_DAMPING } from './lexical.js';

/*
 * The keyword side's second scoring pass (lexical.ts `secondPass`: short-chunk damping inside a document, phrase
 * credit, running-header credit) in both adapters: the same points in an embedded store and in the Qdrant adapter
 * (against the repository's Qdrant simulator, its requests checked against Qdrant's OpenAPI schema, hence the corpus
 * tier), the same first-pass candidates fed to each adapter's second pass (`keywordSecondPass`, the code their
 * keyword and hybrid searches run on their own first-pass candidates): the same order and the same scores.
 * The query's word pairs are not side by side in any text, so the phrase-match score is 0 in both: the adapters
 * score a pair differently (FTS5 phrase BM25 / `pairMatchScore`), as they score the words differently.
 */
const FP = { model_id: 'test/unit-4', revision: '1', dimension: 4, normalized: true };
const pad = (s: string, n: number): string => `${s} ${'lorem ipsum dolor sit amet '.repeat(n)}`.trim();

const POINTS = [
  // Document A: a short leftover holding all three query words, and the paragraph that answers with two of them.
  { id: 'a-short', text: 'flood bridge river', payload: { document_id: 'A', source_file: 'alpha.pdf' } },
  {
    id: 'a-long',
    text: pad('The river rose and the flood closed the crossing for a week.', 28),
    payload: { document_id: 'A', source_file: 'alpha.pdf' },
  },
  // Document B: one chunk, its running header names the bridge.
  {
    id: 'b-1',
    text: pad('The river walk was closed after the flood.', 28),
    payload: { document_id: 'B', source_file: 'beta.pdf', running_header: 'Town Bridge Study 2024' },
  },
  // Document C: two chunks of ordinary length, no header.
  {
    id: 'c-1',
    text: pad('A flood plan for every river ward.', 28),
    payload: { document_id: 'C', source_file: 'gamma.pdf' },
  },
  {
    id: 'c-2',
    text: pad('Nothing about the river here.', 28),
    payload: { document_id: 'C', source_file: 'gamma.pdf' },
  },
  // Filler: no query word.
  ...Array.from({ length: 6 }, (_, i) => ({
    id: `z-${i}`,
    text: pad(`Parking standards table ${i}.`, 26 + i),
    payload: { document_id: `Z${i}`, source_file: `zeta-${i}.pdf` },
  })),
].map((p, i) => ({ ...p, vector: [1, i / 10, 0, 0] }));

/** First-pass candidates as a keyword search might return them (best first): the short leftover leads document A. */
const CANDIDATES = [
  { id: 'a-short', score: 6 },
  { id: 'c-1', score: 4.5 },
  { id: 'a-long', score: 4 },
  { id: 'b-1', score: 4.3 },
  { id: 'c-2', score: 2 },
];
const QUERY = 'flood river bridge';

describe('the keyword second pass, embedded and Qdrant', () => {
  const validator = new OpenApiValidator(join(sharedDir(), 'qdrant', 'openapi-v1.18.json'));
  const sim = new QdrantSimulator(validator);
  let dir = '';
  let embedded: EmbeddedVectorStore;
  let qdrant: QdrantVectorStore;

  beforeAll(async () => {
    await sim.start();
    dir = mkdtempSync(join(tmpdir(), 'lectern-vs-second-pass-'));
    embedded = new EmbeddedVectorStore({ dataDir: dir, searchThreads: 0 });
    qdrant = new QdrantVectorStore({ url: sim.url, retry: { attempts: 2, baseDelayMs: 5 }, collectionPrefix: 'sp_' });
    for (const s of [embedded, qdrant]) {
      await s.ensureCollection('pass', { fingerprint: FP, hybrid: true });
      await s.upsert('pass', POINTS, { fingerprint: FP });
    }
  });
  afterAll(async () => {
    await embedded.close();
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives the same candidates the same order and scores in both adapters', async () => {
    const e = await embedded.keywordSecondPass('pass', QUERY, CANDIDATES, 5);
    const q = await qdrant.keywordSecondPass('pass', QUERY, CANDIDATES, 5);
    expect(q).toEqual(e);
    // The pass did something: the damping put document A's paragraph above its leftover (A keeps its best score,
    // 6), and the running header's "Bridge" lifted document B (4.3 + credit) above document C's 4.5.
    expect(e.map((r) => r.id)).toEqual(['a-long', 'b-1', 'c-1', 'a-short', 'c-2']);
    expect(e[0]?.score).toBe(6);
    expect(e.find((r) => r.id === 'a-short')?.score).toBe(4);
    expect(e.find((r) => r.id === 'b-1')?.score).toBeGreaterThan(4.5);
    // Every result is in the order of its score.
    expect(e.map((r) => r.score)).toEqual([...e.map((r) => r.score)].sort((a, b) => b - a));
  });

  it('is a no-op in both adapters with the damping and the header credit off', async () => {
    const saved = { e: SHORT_CHUNK_DAMPING.exponent, h: HEADER_CREDIT.weight };
    Object.assign(SHORT_CHUNK_DAMPING as { exponent: number }, { exponent: 0 });
    Object.assign(HEADER_CREDIT as { weight: number }, { weight: 0 });
    try {
      const e = await embedded.keywordSecondPass('pass', QUERY, CANDIDATES, 5);
      const q = await qdrant.keywordSecondPass('pass', QUERY, CANDIDATES, 5);
      expect(e).toEqual(CANDIDATES);
      expect(q).toEqual(CANDIDATES);
    } finally {
      Object.assign(SHORT_CHUNK_DAMPING as { exponent: number }, { exponent: saved.e });
      Object.assign(HEADER_CREDIT as { weight: number }, { weight: saved.h });
    }
  });

  it("runs in the Qdrant adapter's keyword and hybrid searches: a document's paragraph above its short leftover", async () => {
    // Qdrant's first pass (Σ IDF of the words present, no length term) puts the three-word leftover first (it alone
    // has "bridge"); damped to (18 / ~750)^0.25 of its score, it falls below its document's paragraph.
    const kw = await qdrant.searchKeyword('pass', QUERY, { limit: 5 });
    const ids = kw.map((h) => h.id);
    expect(ids.indexOf('a-long')).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf('a-long')).toBeLessThan(ids.indexOf('a-short'));
    expect(kw.map((h) => h.score)).toEqual([...kw.map((h) => h.score)].sort((a, b) => b - a));
    const hy = await qdrant.searchHybrid(
      'pass',
      { vector: [0, 0, 1, 0], text: QUERY },
      { fingerprint: FP, limit: 5, denseWeight: 0, keywordWeight: 1 },
    );
    const hyIds = hy.map((h) => h.id);
    expect(hyIds.indexOf('a-long')).toBeLessThan(hyIds.indexOf('a-short'));
  });
});
