// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * What the call-cost and search-threads benches share: a document-store-mcp *process* started from a source tree
 * (node + tsx, as `npm start` runs it; potion-base-2M) over a fresh DATA_DIR holding an empty spec 004 project
 * `scifact`, the SciFact chunks they store in it (5,183 abstracts, two chunks each: ~10k), the held-out claims they
 * query with, and the server's CPU read from /proc.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProject } from '@lectern/document-store';
import { connectMcp, sharedModelDir, silentLogger, toolText } from '@lectern/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { composeDocumentStore } from '../../apps/document-store-mcp/src/compose.js';
import { loadConfig } from '../../apps/document-store-mcp/src/config.js';
import { abstractHalves, loadCorpus, loadQrels, loadQueries } from '../embedding/corpus.js';

/** utime + stime of a process (all its threads), or with `tid` of one thread, in ms (clock ticks of 10 ms). */
export const cpuMs = (pid: number, tid?: number): number => {
  const path = tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`;
  const fields = readFileSync(path, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

export interface ServiceProcess {
  label: string;
  baseUrl: string;
  pid: number;
  /** One MCP client (Streamable HTTP), connected. */
  client: Client;
  stop(): Promise<void>;
}

export interface StartOptions {
  label: string;
  /** The source tree the service runs from (its own sources; node_modules linked). */
  tree: string;
  logLevel: string;
  /** More environment (e.g. SEARCH_THREADS, NODE_OPTIONS). */
  env?: Record<string, string>;
  /** The connected client's name. */
  clientName?: string;
  /** Give up after this long (ms). */
  startTimeoutMs?: number;
  /** Node/V8 flags for this server only (after LECTERN_BENCH_NODE_FLAGS), e.g. `--max-semi-space-size=4`. */
  nodeArgs?: string[];
}

/** The service started from `tree` with a fresh DATA_DIR and an empty project `scifact`, ready when /health answers. */
export const startDocumentStore = async (o: StartOptions): Promise<ServiceProcess> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lectern-bench-ds-'));
  const env = {
    DATA_DIR: dataDir,
    EMBEDDING_MODEL: 'potion-base-2M',
    EMBEDDING_MODEL_DIR: sharedModelDir('potion-base-2M'),
    DOCUMENT_ROOTS: dataDir,
    LOG_LEVEL: o.logLevel,
    ...o.env,
  };
  // The project is created on the DATA_DIR before the service starts (spec 004 has no create tool).
  const { documentStore, platform } = composeDocumentStore(loadConfig(env), silentLogger());
  await createProject(documentStore.deps, { project: 'scifact', chunking: { kind: 'client' } });
  await platform.close();
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  // LECTERN_BENCH_NODE_FLAGS: more node/V8 flags for the servers (e.g. `--trace-deopt`; its output is the server's
  // stdout, written to $LECTERN_BENCH_STDOUT when set).
  const flags = [...(process.env['LECTERN_BENCH_NODE_FLAGS'] ?? '').split(' ').filter(Boolean), ...(o.nodeArgs ?? [])];
  const stdoutFile = process.env['LECTERN_BENCH_STDOUT'];
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', 'apps/document-store-mcp/src/main.ts'], {
    cwd: o.tree,
    env: { ...process.env, ...env, DOCUMENT_STORE_PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', stdoutFile ? openSync(`${stdoutFile}.${o.label}`, 'w') : 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (o.startTimeoutMs ?? 120_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${o.label}: exited (${child.exitCode})`);
    if (
      await fetch(`${baseUrl}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error(`${o.label}: did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const client = await connectMcp(baseUrl, 'streamable-http', o.clientName ? { name: o.clientName } : undefined);
  return {
    label: o.label,
    baseUrl,
    pid: child.pid as number,
    client,
    stop: async () => {
      await client.close();
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

/** A tool call that throws on a tool error (its text, cut to 200 characters). */
export const callTool = async (client: Client, name: string, args: Record<string, unknown>, timeout = 600_000) => {
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout });
  if (r.isError) throw new Error(JSON.stringify(toolText(r)).slice(0, 200));
  return r;
};

/** The first `docs` SciFact abstracts as `store_chunks` batches of 250 abstracts, two chunks each (title + half). */
export const scifactBatches = (docs = 5183): Record<string, unknown>[][] => {
  const all = loadCorpus().slice(0, docs);
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < all.length; i += 250)
    batches.push(
      all
        .slice(i, i + 250)
        .flatMap((d) =>
          abstractHalves(d).map(({ k, text }) => ({ doc_id: d.id, chunk_index: k, text, tags: ['scifact'] })),
        ),
    );
  return batches;
};

/** SciFact claims outside the train judgments (any tuning used the train split's). */
export const heldOutQueries = (): string[] => {
  const train = loadQrels('train');
  return loadQueries()
    .filter((q) => !train.has(q.id))
    .map((q) => q.text);
};
