// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Retrieval quality on BEIR SciFact THROUGH THE REAL EMBEDDED VECTOR STORE: the 5,183 abstracts chunked to the
 * bundled model's token limit (one point per chunk, `document_id` payload), searched with `searchDense`,
 * `searchKeyword` (FTS5 BM25 on the chunks) and `searchHybrid` (default z-score fusion, and RRF); a document
 * scores as its best chunk (its first appearance in the chunk ranking). nDCG@10 and Recall@100 on the train
 * judgments (the only ones in ../shared), plus nDCG@10 on the "check" half the fusion was NOT tuned on
 * (the same split as bench/embedding/scifact.bench.ts).
 *
 *   npx tsx bench/vector-store/scifact-hybrid.bench.ts [--depth 100,300] [--model auto] [--model-dir DIR] [--tune]
 *
 * `--tune`: also a grid over the store's fusion (z-score convex weights, RRF k and weights, candidates per side),
 * each setting scored on the tune half only; the best of each family is then reported on the check half.
 *
 * Chunk vectors come from bench/embedding's cache (tmp/bench-cache/scifact-<model>-<revision>-<maxTokens>.f32),
 * computed once by `npx tsx bench/embedding/scifact.bench.ts` (~25 min on 2 cores) or here if missing; the chunk
 * texts (cached next to them) are re-derived with the same chunker and checked against the cached layout.
 * `--depth`: chunks requested per search (the `limit`); 100 = the fusion's default candidates per side.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveEmbedder, type Embedder } from '@lectern/embedding';
import { repoRoot } from '@lectern/testing';
import { EmbeddedVectorStore, FUSION_DEFAULTS, type Hit, type HybridOptions } from '@lectern/vector-store';
import { chunkByTokens, loadCorpus, loadQrels, loadQueries, shuffled, type Doc } from '../embedding/corpus.js';
import { ndcgAt, recallAt } from '../embedding/fusion.js';

const { values } = parseArgs({
  options: {
    depth: { type: 'string', default: '100,300' },
    model: { type: 'string', default: 'auto' },
    'model-dir': { type: 'string' },
    tune: { type: 'boolean', default: false },
  },
});
const depths = values.depth.split(',').map(Number);
const cacheDir = join(repoRoot(), 'tmp', 'bench-cache');
const log = (msg: string): void => console.error(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);

interface Chunks {
  texts: string[];
  docOf: number[];
  vectors: Float32Array;
}

/** Chunk texts and vectors (bench/embedding's cache layout: `<key>.json` = chunk -> doc index, `<key>.f32`). */
const chunkIndex = async (embedder: Embedder, docs: Doc[]): Promise<Chunks> => {
  mkdirSync(cacheDir, { recursive: true });
  const key = `scifact-${embedder.modelId}-${embedder.fingerprint.revision.replace(/[^a-z0-9]/gi, '')}-${embedder.maxTokens}`;
  const textsFile = join(cacheDir, `${key}.texts.json`);
  let texts: string[];
  let docOf: number[];
  if (existsSync(textsFile)) {
    ({ texts, docOf } = JSON.parse(readFileSync(textsFile, 'utf8')) as { texts: string[]; docOf: number[] });
  } else {
    log(`chunking ${docs.length} abstracts to ${embedder.maxTokens} tokens`);
    texts = [];
    docOf = [];
    docs.forEach((d, i) => {
      for (const piece of chunkByTokens(`${d.title}. ${d.text}`, embedder.maxTokens, (t) => embedder.countTokens(t))) {
        texts.push(piece);
        docOf.push(i);
      }
    });
    writeFileSync(textsFile, JSON.stringify({ texts, docOf }));
  }
  const bin = join(cacheDir, `${key}.f32`);
  const meta = join(cacheDir, `${key}.json`);
  if (existsSync(bin) && existsSync(meta)) {
    const cachedDocOf = JSON.parse(readFileSync(meta, 'utf8')) as number[];
    if (cachedDocOf.length !== docOf.length || cachedDocOf.some((d, i) => d !== docOf[i])) {
      throw new Error(`${meta}: cached vectors do not match this chunking; delete the cache and rerun`);
    }
    const buf = readFileSync(bin);
    log(`reusing ${texts.length} cached chunk vectors from ${bin}`);
    return { texts, docOf, vectors: new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4) };
  }
  log(`embedding ${texts.length} chunks (no cache; this takes a while on 2 cores)`);
  const vs = await embedder.embedBatch(texts, {
    batchSize: 32,
    onProgress: (done, total) => done % 2000 < 32 && log(`embedded ${done}/${total}`),
  });
  const flat = new Float32Array(texts.length * embedder.dimension);
  vs.forEach((v, i) => flat.set(v, i * embedder.dimension));
  writeFileSync(bin, Buffer.from(flat.buffer));
  writeFileSync(meta, JSON.stringify(docOf));
  return { texts, docOf, vectors: flat };
};

interface TuneInput {
  runs: { name: string; search: (qv: Float32Array, text: string, limit: number) => Promise<Hit[]> }[];
  hybrid: (o: Partial<HybridOptions>) => (qv: Float32Array, text: string, limit: number) => Promise<Hit[]>;
  qIds: string[];
  qVectors: Float32Array[];
  queries: Map<string, string>;
  train: Map<string, Set<string>>;
  tune: Set<string>;
}

/** Grid over the store's fusion settings, chosen on the tune half, reported on the check half (limit 10). */
const tuneFusion = async (t: TuneInput): Promise<void> => {
  const mean = async (search: TuneInput['runs'][number]['search'], half: 'tune' | 'check'): Promise<number> => {
    let sum = 0;
    let n = 0;
    for (const [i, q] of t.qIds.entries()) {
      if (t.tune.has(q) !== (half === 'tune')) continue;
      const ranked = docsOf(await search(t.qVectors[i] as Float32Array, t.queries.get(q) as string, 10));
      sum += ndcgAt(ranked, t.train.get(q) as Set<string>, 10);
      n++;
    }
    return sum / n;
  };
  type Setting = { family: string; name: string; o: Partial<HybridOptions> };
  const grid: Setting[] = [];
  // z-score weights x the dense-confidence exponent (FUSION_DEFAULTS.denseConfidence), 100 candidates per side;
  // RRF at its best earlier setting only (it lost to z-score at every earlier grid point).
  for (const w of [0.2, 0.3, 0.4, 0.5]) {
    for (const g of [0, 0.5, 1, 2]) {
      grid.push({
        family: 'z-score',
        name: `z-score, ${(1 - w).toFixed(1)} BM25 + ${w.toFixed(1)} dense, confidence ${g}`,
        o: { fusion: 'zscore', keywordWeight: 1 - w, denseWeight: w, candidates: 100, denseConfidence: g },
      });
    }
  }
  grid.push({
    family: 'rrf',
    name: 'rrf k=10, 1 BM25 + 0.3 dense, 100/side',
    o: { fusion: 'rrf', rrfK: 10, keywordWeight: 1, denseWeight: 0.3, candidates: 100 },
  });
  log(`tuning: ${grid.length} fusion settings on the tune half`);
  const scored: { s: Setting; tune: number }[] = [];
  for (const s of grid) scored.push({ s, tune: await mean(t.hybrid(s.o), 'tune') });
  const f = (x: number) => x.toFixed(3);
  console.log('');
  console.log('Fusion grid through searchHybrid (limit 10), chosen on the tune half, reported on the check half:');
  console.log('');
  console.log('| run | tune nDCG@10 | check nDCG@10 |');
  console.log('|---|---|---|');
  const inputs = [t.runs[0], t.runs[1], t.runs[2]].filter((r) => r !== undefined);
  for (const r of inputs)
    console.log(`| ${r.name} | ${f(await mean(r.search, 'tune'))} | ${f(await mean(r.search, 'check'))} |`);
  for (const family of ['z-score', 'rrf']) {
    const best = scored.filter((x) => x.s.family === family).sort((a, b) => b.tune - a.tune)[0];
    if (best)
      console.log(
        `| best ${family} on tune: ${best.s.name} | ${f(best.tune)} | **${f(await mean(t.hybrid(best.s.o), 'check'))}** |`,
      );
  }
  console.log('');
  console.log(`All settings (tune nDCG@10): ${scored.map((x) => `${x.s.name} ${f(x.tune)}`).join('; ')}`);
};

/** Chunk hits -> documents, each at its best chunk's position. */
const docsOf = (hits: Hit[]): string[] => [...new Set(hits.map((h) => h.payload['document_id'] as string))];

const main = async (): Promise<void> => {
  const docs = loadCorpus();
  const queries = new Map(loadQueries().map((q) => [q.id, q.text]));
  const train = loadQrels('train');
  const order = shuffled([...train.keys()], 7);
  const tune = new Set(order.slice(0, Math.floor(order.length / 2)));
  const embedder = await resolveEmbedder({
    model: values.model,
    modelDir: values['model-dir'],
    cacheDir: join(repoRoot(), 'data', 'models'),
  });
  const fingerprint = embedder.fingerprint;
  const chunks = await chunkIndex(embedder, docs);
  const qIds = [...train.keys()];
  log(`embedding ${qIds.length} train queries`);
  const qVectors = await embedder.embedBatch(qIds.map((q) => queries.get(q) as string));
  await embedder.close();

  const dataDir = mkdtempSync(join(tmpdir(), 'lectern-scifact-'));
  const store = new EmbeddedVectorStore({ dataDir });
  try {
    await store.ensureCollection('scifact', { fingerprint, hybrid: true });
    const dim = fingerprint.dimension;
    const perChunk = new Map<number, number>();
    const t0 = performance.now();
    for (let i = 0; i < chunks.texts.length; i += 1000) {
      const batch = chunks.texts.slice(i, i + 1000).map((text, j) => {
        const c = i + j;
        const d = chunks.docOf[c] as number;
        const n = perChunk.get(d) ?? 0;
        perChunk.set(d, n + 1);
        const doc = docs[d] as Doc;
        return {
          id: `${doc.id}:${n}`,
          vector: chunks.vectors.subarray(c * dim, (c + 1) * dim),
          text,
          payload: { document_id: doc.id, chunk_index: n },
        };
      });
      await store.upsert('scifact', batch, { fingerprint });
    }
    log(
      `indexed ${await store.count('scifact')} chunks of ${docs.length} abstracts in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    type Run = { name: string; search: (qv: Float32Array, text: string, limit: number) => Promise<Hit[]> };
    const hybrid = (o: Partial<HybridOptions>) => (qv: Float32Array, text: string, limit: number) =>
      store.searchHybrid('scifact', { vector: qv, text }, { fingerprint, limit, ...o });
    const runs: Run[] = [
      {
        name: 'dense (searchDense)',
        search: (qv, _t, limit) => store.searchDense('scifact', qv, { fingerprint, limit }),
      },
      {
        name: 'BM25 (searchKeyword, FTS5)',
        search: (_qv, text, limit) => store.searchKeyword('scifact', text, { limit }),
      },
      {
        name: `hybrid default: z-score, ${FUSION_DEFAULTS.keywordWeight} BM25 + ${FUSION_DEFAULTS.denseWeight} dense`,
        search: hybrid({}),
      },
      {
        name: `hybrid fusion: rrf, k=60, default weights (${FUSION_DEFAULTS.keywordWeight} / ${FUSION_DEFAULTS.denseWeight})`,
        search: hybrid({ fusion: 'rrf' }),
      },
      {
        name: 'hybrid fusion: rrf, k=60, equal weights (naive)',
        search: hybrid({ fusion: 'rrf', denseWeight: 1, keywordWeight: 1 }),
      },
    ];

    console.log(
      `SciFact train: ${train.size} queries (check half: ${train.size - tune.size}), ${docs.length} abstracts, ${chunks.texts.length} chunks, model ${fingerprint.model_id} (${fingerprint.revision}), load ${loadavg()[0]?.toFixed(1)}.`,
    );
    for (const depth of depths) {
      // Deeper than the default candidates: also the default statistics (100 per side) with a longer result list.
      const pinned: Run[] =
        depth > FUSION_DEFAULTS.candidates
          ? [
              {
                name: `hybrid default, candidates pinned to ${FUSION_DEFAULTS.candidates} per side`,
                search: hybrid({ candidates: FUSION_DEFAULTS.candidates }),
              },
            ]
          : [];
      console.log('');
      console.log(
        `Depth ${depth} chunks per search (limit = ${depth}; hybrid candidates per side = max(limit, ${FUSION_DEFAULTS.candidates}) = ${Math.max(depth, FUSION_DEFAULTS.candidates)}).`,
      );
      console.log('');
      console.log(
        '| run | train nDCG@10 | train R@100 | check nDCG@10 | check R@100 | docs per query (mean) | ms/query |',
      );
      console.log('|---|---|---|---|---|---|---|');
      for (const run of [...runs, ...pinned]) {
        const acc = { n: 0, r: 0, cn: 0, cr: 0, docs: 0, ms: 0 };
        for (let i = 0; i < qIds.length; i++) {
          const q = qIds[i] as string;
          const rel = train.get(q) as Set<string>;
          const t = performance.now();
          const ranked = docsOf(await run.search(qVectors[i] as Float32Array, queries.get(q) as string, depth));
          acc.ms += performance.now() - t;
          const n = ndcgAt(ranked, rel, 10);
          const r = recallAt(ranked, rel, 100);
          acc.n += n;
          acc.r += r;
          acc.docs += ranked.length;
          if (!tune.has(q)) {
            acc.cn += n;
            acc.cr += r;
          }
        }
        const N = qIds.length;
        const C = N - tune.size;
        const f = (x: number) => x.toFixed(3);
        console.log(
          `| ${run.name} | **${f(acc.n / N)}** | ${f(acc.r / N)} | ${f(acc.cn / C)} | ${f(acc.cr / C)} | ${(acc.docs / N).toFixed(1)} | ${(acc.ms / N).toFixed(1)} |`,
        );
      }
    }
    if (values.tune) await tuneFusion({ runs, hybrid, qIds, qVectors, queries, train, tune });
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
};

await main();
