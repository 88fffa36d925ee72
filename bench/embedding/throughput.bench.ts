// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Embedding throughput and latency: the MiniLM-shaped model (random weights, the real graph, tokenizer and cost;
 * fp32 and int8) through @lectern/embedding and through Transformers.js on the same ONNX file, and the bundled
 * USE-lite model; agreement of the outputs. (GFLOP/s against the GEMM peak: efficiency.bench.ts.)
 *
 *   npx tsx bench/embedding/throughput.bench.ts [--rounds 3] [--quick]
 *
 * Engines are measured alternately, `rounds` times, best round kept: the machine is shared, and this keeps
 * ratios fair under background load. Prints Markdown; docs/benchmarks/embedding.md records a run.
 */
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { env, pipeline, type FeatureExtractionPipeline } from '@huggingface/transformers';
import { resolveEmbedder, type Embedder } from '@lectern/embedding';
import { sharedModelDir } from '@lectern/testing';
import { makeMiniLmFixture } from '../../libs/embedding/src/test-model/minilm-fixture.js';
import { chunkByTokens, loadCorpus, loadQueries, shuffled } from './corpus.js';

const args = process.argv.slice(2);
const rounds = Number(args[args.indexOf('--rounds') + 1] || 3);
const quick = args.includes('--quick');
const THREADS = availableParallelism();
const BATCH_SIZES = quick ? [1, 32] : [1, 8, 32, 64];

interface Engine {
  name: string;
  embed: (texts: string[], batchSize: number) => Promise<Float32Array[]>;
}
const ours = (e: Embedder, name: string): Engine => ({ name, embed: (t, batchSize) => e.embedBatch(t, { batchSize }) });
const transformersJs = (p: FeatureExtractionPipeline, name: string, dim: number): Engine => ({
  name,
  embed: async (texts, batchSize) => {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += batchSize) {
      const t = await p(texts.slice(i, i + batchSize), { pooling: 'mean', normalize: true });
      const data = t.data as Float32Array;
      for (let r = 0; r < data.length / dim; r++) out.push(data.slice(r * dim, (r + 1) * dim));
    }
    return out;
  },
});

const time = async (fn: () => Promise<unknown>): Promise<number> => {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
};
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
const maxAbsDiff = (a: Float32Array[], b: Float32Array[]) =>
  a.reduce(
    (m, v, i) => v.reduce((mm, x, j) => Math.max(mm, Math.abs(x - ((b[i] as Float32Array)[j] as number))), m),
    0,
  );
const fmt = (x: number, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '–');

/** Best texts/s of each engine over `rounds` alternating runs. */
const throughput = async (engines: Engine[], texts: string[], batchSize: number): Promise<number[]> => {
  const best = engines.map(() => 0);
  for (let r = 0; r < rounds; r++) {
    for (const [i, e] of engines.entries()) {
      const ms = await time(() => e.embed(texts, batchSize));
      best[i] = Math.max(best[i] as number, texts.length / (ms / 1000));
    }
  }
  return best;
};

const main = async () => {
  const root = await mkdtemp(join(tmpdir(), 'lectern-bench-emb-'));
  const modelDir = join(root, 'all-MiniLM-L6-v2');
  await mkdir(modelDir, { recursive: true });
  await makeMiniLmFixture(sharedModelDir(), { root: modelDir, int8: true });
  // Transformers.js looks for the int8 file under this name (dtype q8).
  await copyFile(join(modelDir, 'onnx', 'model_quint8_avx2.onnx'), join(modelDir, 'onnx', 'model_quantized.onnx'));
  const log = { info: () => undefined, warn: () => undefined };
  const fp32 = await resolveEmbedder({ model: 'all-MiniLM-L6-v2', modelDir, cacheDir: root, threads: THREADS, log });
  const int8 = await resolveEmbedder({
    model: 'all-MiniLM-L6-v2',
    modelDir,
    cacheDir: root,
    threads: THREADS,
    quantized: true,
    log,
  });
  const bundled = await resolveEmbedder({ model: 'universal-sentence-encoder-lite', cacheDir: root, log });
  env.allowRemoteModels = false;
  env.localModelPath = `${root}/`;
  const session_options = { intraOpNumThreads: THREADS, interOpNumThreads: 1 };
  const tjsFp32 = await pipeline('feature-extraction', 'all-MiniLM-L6-v2', { dtype: 'fp32', session_options });
  const tjsQ8 = await pipeline('feature-extraction', 'all-MiniLM-L6-v2', { dtype: 'q8', session_options });

  // Texts: SciFact claims (query length), abstract pieces of ~200 tokens, and a realistic mix of chunk lengths
  // (every abstract chunked to the 256-token limit: full pieces and shorter tails, shuffled).
  const corpus = shuffled(loadCorpus());
  const count = (t: string) => fp32.countTokens(t);
  // Query length: claims of 8–16 MiniLM tokens (special tokens included), about 12 on average.
  const queries = shuffled(loadQueries())
    .map((q) => q.text)
    .filter((t) => count(t) >= 8 && count(t) <= 16)
    .slice(0, quick ? 64 : 128);
  const chunks200 = corpus
    .map((d) => chunkByTokens(d.text, 200, count)[0] as string)
    .filter((t) => count(t) >= 190)
    .slice(0, quick ? 32 : 64);
  const mix = shuffled(corpus.slice(0, 200).flatMap((d) => chunkByTokens(`${d.title}. ${d.text}`, 256, count))).slice(
    0,
    quick ? 64 : 192,
  );
  const avg = (xs: string[]) => xs.reduce((s, t) => s + count(t), 0) / xs.length;
  const engines = [
    ours(fp32, 'lectern fp32'),
    transformersJs(tjsFp32, 'Transformers.js fp32', 384),
    ours(int8, 'lectern int8'),
    transformersJs(tjsQ8, 'Transformers.js int8 (q8)', 384),
    ours(bundled, 'lectern USE-lite (bundled)'),
  ];
  for (const e of engines) await e.embed(queries.slice(0, 8), 8); // warm-up: load sessions

  const lines: string[] = [];
  const say = (s = '') => {
    lines.push(s);
    console.log(s);
  };
  say(
    `Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, ${THREADS} intra-op threads, best of ${rounds} alternating rounds.`,
  );
  say(
    `Texts: ${queries.length} SciFact claims (avg ${fmt(avg(queries))} MiniLM tokens); ${chunks200.length} abstract pieces (avg ${fmt(avg(chunks200))} tokens); mix of ${mix.length} chunks (avg ${fmt(avg(mix))}, min ${Math.min(...mix.map(count))}, max ${Math.max(...mix.map(count))} tokens).`,
  );
  say();
  say(`| texts | batch | ${engines.map((e) => e.name).join(' | ')} |`);
  say(`|---|---|${engines.map(() => '---').join('|')}|`);
  for (const [label, texts] of [
    ['query (~12 tok)', queries],
    ['chunk (~200 tok)', chunks200],
  ] as const) {
    for (const bs of BATCH_SIZES) {
      const tps = await throughput(engines, texts, bs);
      say(`| ${label} | ${bs} | ${tps.map((x) => `${fmt(x)}/s`).join(' | ')} |`);
    }
  }
  const mixTps = await throughput(engines, mix, 32);
  say(`| **mix** | 32 | ${mixTps.map((x) => `**${fmt(x)}/s**`).join(' | ')} |`);
  say();
  const [oF, tF, oQ, tQ] = mixTps as [number, number, number, number];
  say(
    `Mix, batch 32: lectern fp32 / Transformers.js fp32 = **${fmt(oF / tF, 2)}×**; lectern int8 / Transformers.js q8 = **${fmt(oQ / tQ, 2)}×**.`,
  );

  // Latency of single calls (what a search request pays).
  say();
  say('| single call | engine | p50 ms | p95 ms |');
  say('|---|---|---|---|');
  for (const [label, texts] of [
    ['query', queries.slice(0, 40)],
    ['chunk', chunks200.slice(0, 20)],
  ] as const) {
    for (const e of engines) {
      const ms: number[] = [];
      for (const t of texts) ms.push(await time(() => e.embed([t], 1)));
      say(`| ${label} | ${e.name} | ${fmt(pct(ms, 50))} | ${fmt(pct(ms, 95))} |`);
    }
  }

  // Agreement with Transformers.js on the same ONNX file.
  const sample = mix.slice(0, 64);
  const dF = maxAbsDiff(await engines[0]!.embed(sample, 32), await engines[1]!.embed(sample, 32));
  const dQalone = maxAbsDiff(
    await engines[2]!.embed(sample.slice(0, 16), 1),
    await engines[3]!.embed(sample.slice(0, 16), 1),
  );
  const dQbatch = maxAbsDiff(await engines[2]!.embed(sample, 32), await engines[3]!.embed(sample, 32));
  say();
  say(
    `Max abs difference vs Transformers.js (same ONNX file, ${sample.length} mixed texts): fp32 ${dF.toExponential(2)}; int8 batch 1 ${dQalone.toExponential(2)}; int8 batch 32 ${dQbatch.toExponential(2)} (dynamic int8 quantises activations per call, so Transformers.js' padded batches change its own output; lectern runs int8 texts alone).`,
  );

  await Promise.all([fp32.close(), int8.close(), bundled.close(), tjsFp32.dispose(), tjsQ8.dispose()]);
  await rm(root, { recursive: true, force: true });
};

await main();
