// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Retrieval quality on BEIR SciFact: dense-only (the bundled model), BM25, and hybrid fusion, nDCG@10 and
 * Recall@100 on the train judgments (the only ones here). Fusion parameters are chosen on a random half of the train
 * queries ("tune") and checked on the other half ("check"), so the default is not fitted to the queries it is judged on.
 * Long abstracts are never silently cut by the model's token limit: each document is chunked to the limit and
 * scores as its best chunk (also shown: the truncated "first 128 tokens only" baseline).
 *
 *   npx tsx bench/embedding/scifact.bench.ts [--model universal-sentence-encoder-lite] [--depth 100] [--model-dir DIR]
 *   npx tsx bench/embedding/scifact.bench.ts --model potion-base-2M --model-dir ../shared/models/potion-base-2M
 *
 * Chunk vectors are cached in tmp/bench-cache/ (keyed by the model fingerprint), so reruns only redo the scoring.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { resolveEmbedder, type Embedder } from '@lectern/embedding';
import { repoRoot } from '@lectern/testing';
import { Bm25, topK } from './bm25.js';
import { chunkByTokens, loadCorpus, loadQrels, loadQueries, shuffled, type Doc } from './corpus.js';
import { convex, minMax, ndcgAt, recallAt, rrf, zScore, type Scored } from './fusion.js';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) =>
  args.includes(name) ? (args[args.indexOf(name) + 1] as string) : fallback;
const MODEL = opt('--model', 'universal-sentence-encoder-lite');
const DEPTH = Number(opt('--depth', '100'));
const MODEL_DIR = args.includes('--model-dir') ? opt('--model-dir', '') : undefined;

interface ChunkIndex {
  docOf: number[];
  vectors: Float32Array;
  dim: number;
}

/** Embeds every document's chunks (cached on disk). */
const chunkVectors = async (embedder: Embedder, docs: Doc[]): Promise<ChunkIndex> => {
  const dir = join(repoRoot(), 'tmp', 'bench-cache');
  mkdirSync(dir, { recursive: true });
  const key = `scifact-${embedder.modelId}-${embedder.fingerprint.revision.replace(/[^a-z0-9]/gi, '')}-${embedder.maxTokens}`;
  const meta = join(dir, `${key}.json`);
  const bin = join(dir, `${key}.f32`);
  if (existsSync(meta) && existsSync(bin)) {
    const docOf = JSON.parse(readFileSync(meta, 'utf8')) as number[];
    const buf = readFileSync(bin);
    return {
      docOf,
      vectors: new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4),
      dim: embedder.dimension,
    };
  }
  const t0 = performance.now();
  const texts: string[] = [];
  const docOf: number[] = [];
  docs.forEach((d, i) => {
    for (const piece of chunkByTokens(`${d.title}. ${d.text}`, embedder.maxTokens, (t) => embedder.countTokens(t))) {
      texts.push(piece);
      docOf.push(i);
    }
  });
  console.error(
    `chunked ${docs.length} docs into ${texts.length} chunks in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
  const t1 = performance.now();
  let last = 0;
  const vectors = await embedder.embedBatch(texts, {
    batchSize: 32,
    onProgress: (done, total) => {
      if (done - last >= 1000 || done === total) {
        last = done;
        console.error(`embedded ${done}/${total} (${(done / ((performance.now() - t1) / 1000)).toFixed(1)}/s)`);
      }
    },
  });
  const flat = new Float32Array(texts.length * embedder.dimension);
  vectors.forEach((v, i) => flat.set(v, i * embedder.dimension));
  writeFileSync(bin, Buffer.from(flat.buffer));
  writeFileSync(meta, JSON.stringify(docOf));
  return { docOf, vectors: flat, dim: embedder.dimension };
};

/** Document scores = best chunk's cosine; `firstOnly` keeps each document's first chunk (= truncation). */
const denseSearch = (index: ChunkIndex, q: Float32Array, nDocs: number, k: number, firstOnly = false): number[] => {
  const best = new Float64Array(nDocs).fill(-Infinity);
  const seen = new Uint8Array(nDocs);
  for (let c = 0; c < index.docOf.length; c++) {
    const d = index.docOf[c] as number;
    if (firstOnly && seen[d]) continue;
    seen[d] = 1;
    let s = 0;
    const base = c * index.dim;
    for (let j = 0; j < index.dim; j++) s += (q[j] as number) * (index.vectors[base + j] as number);
    if (s > (best[d] as number)) best[d] = s;
  }
  return topK(best, k, false);
};

const main = async () => {
  const docs = loadCorpus();
  const queries = new Map(loadQueries().map((q) => [q.id, q.text]));
  const train = loadQrels('train');
  const order = shuffled([...train.keys()], 7);
  const half = new Set(order.slice(0, Math.floor(order.length / 2)));
  const splits = {
    train,
    tune: new Map([...train].filter(([q]) => half.has(q))),
    check: new Map([...train].filter(([q]) => !half.has(q))),
  };
  const ids = docs.map((d) => d.id);
  const bm25 = new Bm25(
    ids,
    docs.map((d) => `${d.title} ${d.text}`),
  );
  const embedder = await resolveEmbedder({
    model: MODEL,
    modelDir: MODEL_DIR,
    cacheDir: join(repoRoot(), 'data', 'models'),
    log: console as never,
  });
  const index = await chunkVectors(embedder, docs);
  const qIds = [...train.keys()];
  const qVectors = await embedder.embedBatch(qIds.map((q) => queries.get(q) as string));
  await embedder.close();

  const runs = new Map<string, { bm25: Scored[]; dense: Scored[]; truncated: Scored[] }>();
  qIds.forEach((q, i) => {
    const qv = qVectors[i] as Float32Array;
    const dense = denseSearch(index, qv, docs.length, DEPTH);
    const truncated = denseSearch(index, qv, docs.length, DEPTH, true);
    const toScored = (list: number[]) => list.map((d) => ({ id: ids[d] as string, score: 0 }));
    // Dense scores are needed by score-based fusion: recompute the best-chunk cosine for the candidates.
    const scoreOf = new Map<number, number>();
    for (let c = 0; c < index.docOf.length; c++) {
      const d = index.docOf[c] as number;
      if (!dense.includes(d)) continue;
      let s = 0;
      for (let j = 0; j < index.dim; j++) s += (qv[j] as number) * (index.vectors[c * index.dim + j] as number);
      scoreOf.set(d, Math.max(scoreOf.get(d) ?? -Infinity, s));
    }
    runs.set(q, {
      bm25: bm25.search(queries.get(q) as string, DEPTH),
      dense: dense.map((d) => ({ id: ids[d] as string, score: scoreOf.get(d) as number })),
      truncated: toScored(truncated),
    });
  });

  const evaluate = (split: keyof typeof splits, rank: (r: { bm25: Scored[]; dense: Scored[] }) => Scored[]) => {
    let n = 0;
    let r = 0;
    for (const [q, rel] of splits[split]) {
      const ranked = rank(runs.get(q) as { bm25: Scored[]; dense: Scored[] }).map((d) => d.id);
      n += ndcgAt(ranked, rel, 10);
      r += recallAt(ranked, rel, 100);
    }
    return { ndcg: n / splits[split].size, recall: r / splits[split].size };
  };

  type Method = { family: string; params: string; rank: (r: { bm25: Scored[]; dense: Scored[] }) => Scored[] };
  const methods: Method[] = [];
  for (const k of [1, 2, 5, 10, 20, 60, 100]) {
    for (let w = 0.1; w <= 1.001; w += 0.1) {
      methods.push({
        family: 'RRF',
        params: `k=${k}, w_bm25=1, w_dense=${w.toFixed(1)}`,
        rank: (r) => rrf([r.bm25, r.dense], [1, w], k),
      });
    }
  }
  for (const [name, norm] of [
    ['min-max', minMax],
    ['z-score', zScore],
  ] as const) {
    for (let a = 0.05; a <= 0.951; a += 0.05) {
      methods.push({
        family: `convex ${name}`,
        params: `w_dense=${a.toFixed(2)}, w_bm25=${(1 - a).toFixed(2)}`,
        rank: (r) => convex([r.bm25, r.dense], [1 - a, a], norm),
      });
    }
  }

  const fmt = (x: number) => x.toFixed(3);
  const rows: string[] = [];
  const row = (name: string, rank: Method['rank']) => {
    const tr = evaluate('train', rank);
    const tu = evaluate('tune', rank);
    const ch = evaluate('check', rank);
    rows.push(
      `| ${name} | **${fmt(tr.ndcg)}** | ${fmt(tr.recall)} | ${fmt(tu.ndcg)} | ${fmt(ch.ndcg)} | ${fmt(ch.recall)} |`,
    );
    return tr;
  };
  const bm = row('BM25 (k1=1.2, b=0.75)', (r) => r.bm25);
  const de = row(
    `dense ${embedder.modelId}, chunked to ${embedder.maxTokens} tokens, doc = best chunk`,
    (r) => r.dense,
  );
  row(
    `dense ${embedder.modelId}, first ${embedder.maxTokens} tokens only (truncated)`,
    (r) => (r as unknown as { truncated: Scored[] }).truncated,
  );
  row('hybrid RRF k=60, equal weights (naive)', (r) => rrf([r.bm25, r.dense], [1, 1], 60));

  // Choose on the tune half (nDCG@10): the best of each family, and the overall default.
  const scored = methods.map((m) => ({ m, train: evaluate('tune', m.rank) }));
  const bestOf = (family: string) =>
    scored.filter((s) => s.m.family === family).sort((a, b) => b.train.ndcg - a.train.ndcg)[0];
  const families = ['RRF', 'convex min-max', 'convex z-score'].map((f) => bestOf(f)).filter((x) => x !== undefined);
  for (const f of families) row(`hybrid ${f.m.family} (${f.m.params}), best on tune`, f.m.rank);
  const chosen = [...families].sort((a, b) => b.train.ndcg - a.train.ndcg)[0];

  console.log(
    `Model ${embedder.modelId} (${embedder.fingerprint.revision}), ${docs.length} docs, ${index.docOf.length} chunks, depth ${DEPTH} per list.`,
  );
  console.log('');
  console.log(
    `Train judgments: ${train.size} queries; tune half ${splits.tune.size}, check half ${splits.check.size}.`,
  );
  console.log('');
  console.log('| run | train nDCG@10 | train R@100 | tune nDCG@10 | check nDCG@10 | check R@100 |');
  console.log('|---|---|---|---|---|---|');
  rows.forEach((r) => console.log(r));
  console.log('');
  console.log(`Better input on train: ${bm.ndcg >= de.ndcg ? 'BM25' : 'dense'} ${fmt(Math.max(bm.ndcg, de.ndcg))}.`);
  if (chosen)
    console.log(`Chosen default: ${chosen.m.family} (${chosen.m.params}), tune nDCG@10 ${fmt(chosen.train.ndcg)}.`);
  // The sensitivity of the chosen family, for the record.
  console.log('');
  console.log('Sensitivity (tune nDCG@10) of each family to its weight:');
  for (const f of ['RRF', 'convex min-max', 'convex z-score']) {
    const list = scored.filter(
      (s) =>
        s.m.family === f &&
        (f !== 'RRF' || s.m.params.startsWith(`k=${bestOf('RRF')?.m.params.split(',')[0]?.slice(2)},`)),
    );
    console.log(
      `- ${f}: ${list.map((s) => `${s.m.params.replace(/, w_bm25=1(\.00)?/, '').replace(/w_bm25=[0-9.]+,?\s?/, '')} → ${fmt(s.train.ndcg)}`).join('; ')}`,
    );
  }
};

await main();
