// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Spec 004 through its MCP tools (a real MCP client on Streamable HTTP against document-store-mcp):
 * - SC-003 / SC-004: `find_chunks` and `query_hybrid` latency in a project of ~10,000 chunks (BEIR SciFact's 5,183
 *   abstracts, each stored with `store_chunks` as two chunks: its first and second half of sentences);
 * - quality, semantic vs hybrid: nDCG@10 on SciFact's train judgments (a document ranks at its best chunk);
 * - planning documents: the NPPF (82 pages) ingested with spec 004's heading-aware chunker, queried by each of its
 *   section titles (known-item: a hit is a result whose section path
 *   holds that title); success@6 and MRR for semantic vs hybrid.
 *   npx tsx bench/document-store/spec004-tools.bench.ts [--model potion-base-2M] [--model-dir ../shared/models/potion-base-2M]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createProject, runProjectIngest } from '@lectern/document-store';
import { connectMcp, corpusFile, listenOnFreePort, silentLogger, toolText } from '@lectern/testing';
import { buildApp } from '../../apps/document-store-mcp/src/app.js';
import { composeDocumentStore } from '../../apps/document-store-mcp/src/compose.js';
import { loadConfig } from '../../apps/document-store-mcp/src/config.js';
import { abstractHalves, loadCorpus, loadQrels, loadQueries } from '../embedding/corpus.js';
import { ndcgAt } from '../embedding/fusion.js';

const { values } = parseArgs({
  options: {
    model: { type: 'string', default: 'potion-base-2M' },
    'model-dir': { type: 'string', default: '../shared/models/potion-base-2M' },
  },
});
const log = (m: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${m}\n`);
const dataDir = mkdtempSync(join(tmpdir(), 'lectern-spec004-bench-'));
const config = loadConfig({
  DATA_DIR: dataDir,
  EMBEDDING_MODEL: values.model,
  EMBEDDING_MODEL_DIR: values['model-dir'],
  LOG_LEVEL: 'silent',
  DOCUMENT_ROOTS: dataDir,
});
const {
  documentStore: { deps },
  platform,
} = composeDocumentStore(config, silentLogger());
const app = buildApp({ config, logger: silentLogger(), documentStore: deps });
const client = await connectMcp(await listenOnFreePort(app), 'streamable-http');
const call = async (name: string, args: Record<string, unknown>) => {
  const t = performance.now();
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
  if (result.isError) throw new Error(JSON.stringify(toolText(result)));
  return { body: toolText(result) as Record<string, unknown>, ms: performance.now() - t };
};
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
type Results = Array<{ doc_id: string; section_path: string[] }>;

const out: Record<string, unknown> = { model: values.model };
try {
  // SciFact: ~10k chunks in one project.
  await createProject(deps, { project: 'scifact', chunking: { kind: 'client' } });
  const docs = loadCorpus();
  const t0 = performance.now();
  let stored = 0;
  for (let i = 0; i < docs.length; i += 250) {
    const chunks = docs.slice(i, i + 250).flatMap((d) =>
      abstractHalves(d).map(({ k, text }) => ({
        doc_id: d.id,
        chunk_index: k,
        text: text.slice(0, 20_000),
        section_heading: d.title,
        tags: ['scifact'],
      })),
    );
    stored += ((await call('store_chunks', { project: 'scifact', chunks })).body['chunks_stored'] as number) ?? 0;
  }
  log(`stored ${stored} chunks of ${docs.length} abstracts in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const queries = new Map(loadQueries().map((q) => [q.id, q.text]));
  const train = loadQrels('train');
  const scifact: Record<string, unknown> = { chunks: stored, queries: train.size };
  for (const tool of ['find_chunks', 'query_hybrid'] as const) {
    const ms: number[] = [];
    const ndcg: number[] = [];
    for (const [qid, relevant] of train) {
      const { body, ms: t } = await call(tool, { project: 'scifact', query: queries.get(qid), top_k: 20 });
      ms.push(t);
      const ranked = [...new Set((body['results'] as Results).map((r) => r.doc_id))];
      ndcg.push(ndcgAt(ranked, relevant, 10));
    }
    scifact[tool] = {
      ndcg10: Number(mean(ndcg).toFixed(4)),
      p50_ms: Number(pct(ms, 50).toFixed(1)),
      p95_ms: Number(pct(ms, 95).toFixed(1)),
      max_ms: Number(Math.max(...ms).toFixed(1)),
    };
    log(`scifact ${tool}: ${JSON.stringify(scifact[tool])}`);
  }
  out['scifact'] = scifact;

  // Planning: the NPPF through spec 004's ingest, queried by its section titles (known item).
  const embedder = await deps.embedders.configured();
  await createProject(deps, { project: 'nppf', chunking: { kind: 'heading', max_tokens: embedder.maxTokens } });
  const nppf = corpusFile('uk-planning-policy', 'nppf-2024', 'NPPF_December_2024.pdf');
  const { dirname } = await import('node:path');
  const t1 = performance.now();
  const run = await runProjectIngest(
    { ...deps, roots: [dirname(nppf)] },
    { project: 'nppf', root: dirname(nppf), files: [nppf], kind: 'ingest', embedder },
  );
  const ingestS = (performance.now() - t1) / 1000;
  const titles = [
    ...new Set(
      (await deps.store.scroll('nppf', { limit: 1000 })).points.flatMap((p) =>
        (p.payload['section_path'] as string[]).slice(-1),
      ),
    ),
  ].filter((t) => t.split(' ').length >= 2 && !/^\d+$/.test(t));
  const planning: Record<string, unknown> = {
    pages: run.documents[0]?.page_count,
    chunks: run.totals.chunks,
    ingest_s: Number(ingestS.toFixed(1)),
    queries: titles.length,
  };
  for (const tool of ['find_chunks', 'query_hybrid'] as const) {
    let hits = 0;
    const rr: number[] = [];
    const ms: number[] = [];
    for (const title of titles) {
      const { body, ms: t } = await call(tool, { project: 'nppf', query: title, top_k: 6 });
      ms.push(t);
      const rank = (body['results'] as Results).findIndex((r) => r.section_path.includes(title));
      if (rank >= 0) hits++;
      rr.push(rank >= 0 ? 1 / (rank + 1) : 0);
    }
    planning[tool] = {
      success_at_6: Number((hits / titles.length).toFixed(3)),
      mrr: Number(mean(rr).toFixed(3)),
      p50_ms: Number(pct(ms, 50).toFixed(1)),
      p95_ms: Number(pct(ms, 95).toFixed(1)),
    };
    log(`nppf ${tool}: ${JSON.stringify(planning[tool])}`);
  }
  out['planning'] = planning;
} finally {
  await client.close();
  await app.close();
  await platform.close();
  rmSync(dataDir, { recursive: true, force: true });
}
process.stdout.write(`${JSON.stringify({ ...out, load: loadavg()[0] })}\n`);
