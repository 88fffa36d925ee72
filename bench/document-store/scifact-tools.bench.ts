// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * BEIR SciFact through the product's MCP tools, as a spec 002 client uses them: every abstract stored with
 * `store_document_chunks` (one chunk per abstract, `source_filename` = the document id), then each train query
 * asked with `retrieve_document_chunks` (top_k 10) over a real MCP client on Streamable HTTP; nDCG@10 against
 * the train judgments, on all queries and on the tune/check halves of scifact-hybrid.bench.ts (seed 7). Dense
 * (`RETRIEVE_SEARCH_MODE=dense`) and hybrid (the default) run against the same stored collection.
 *   npx tsx bench/document-store/scifact-tools.bench.ts [--model potion-base-2M] [--model-dir ../shared/models/potion-base-2M]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { connectMcp, listenOnFreePort, silentLogger, toolText } from '@lectern/testing';
import { buildApp } from '../../apps/document-store-mcp/src/app.js';
import { composeDocumentStore } from '../../apps/document-store-mcp/src/compose.js';
import { loadConfig } from '../../apps/document-store-mcp/src/config.js';
import { loadCorpus, loadQrels, loadQueries, shuffled } from '../embedding/corpus.js';
import { ndcgAt } from '../embedding/fusion.js';

const { values } = parseArgs({
  options: {
    model: { type: 'string', default: 'potion-base-2M' },
    'model-dir': { type: 'string', default: '../shared/models/potion-base-2M' },
  },
});
const log = (m: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${m}\n`);
const dataDir = mkdtempSync(join(tmpdir(), 'lectern-scifact-tools-'));
const env = {
  DATA_DIR: dataDir,
  EMBEDDING_MODEL: values.model,
  EMBEDDING_MODEL_DIR: values['model-dir'],
  LOG_LEVEL: 'silent',
};

const serve = async (mode: 'hybrid' | 'dense') => {
  const config = loadConfig({ ...env, RETRIEVE_SEARCH_MODE: mode });
  const {
    documentStore: { deps },
    platform,
  } = composeDocumentStore(config, silentLogger());
  const app = buildApp({ config, logger: silentLogger(), documentStore: deps });
  const client = await connectMcp(await listenOnFreePort(app), 'streamable-http');
  return {
    call: async (name: string, args: Record<string, unknown>) =>
      toolText(await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 })),
    close: async () => {
      await client.close();
      await app.close();
      await platform.close();
    },
  };
};

const docs = loadCorpus();
const queries = new Map(loadQueries().map((q) => [q.id, q.text]));
const train = loadQrels('train');
const order = shuffled([...train.keys()], 7);
const tune = new Set(order.slice(0, Math.floor(order.length / 2)));

const results: Record<string, { all: number; tune: number; check: number; seconds: number }> = {};
try {
  const writer = await serve('hybrid');
  const t0 = performance.now();
  for (let i = 0; i < docs.length; i += 500) {
    const batch = docs
      .slice(i, i + 500)
      .map((d) => ({ text: `${d.title}. ${d.text}`, source_filename: d.id, chunk_index: 0 }));
    const stored = (await writer.call('store_document_chunks', { collection: 'scifact', chunks: batch })) as {
      success: boolean;
      message: string;
    };
    if (!stored.success) throw new Error(stored.message);
  }
  log(`stored ${docs.length} abstracts in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  await writer.close();
  for (const mode of ['dense', 'hybrid'] as const) {
    const server = await serve(mode);
    const scores = { all: [] as number[], tune: [] as number[], check: [] as number[] };
    const t = performance.now();
    for (const [qid, relevant] of train) {
      const list = (await server.call('retrieve_document_chunks', {
        query: queries.get(qid),
        collection: 'scifact',
        top_k: 10,
      })) as Array<{ source_filename: string }>;
      const n = ndcgAt(
        list.map((r) => r.source_filename),
        relevant,
        10,
      );
      scores.all.push(n);
      scores[tune.has(qid) ? 'tune' : 'check'].push(n);
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    results[mode] = {
      all: mean(scores.all),
      tune: mean(scores.tune),
      check: mean(scores.check),
      seconds: (performance.now() - t) / 1000,
    };
    log(`${mode}: nDCG@10 ${results[mode]?.all.toFixed(3)} over ${scores.all.length} queries`);
    await server.close();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
process.stdout.write(`${JSON.stringify({ model: values.model, queries: train.size, load: loadavg()[0], results })}\n`);
