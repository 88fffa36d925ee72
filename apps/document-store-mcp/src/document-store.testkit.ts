// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DocumentStoreDeps } from '@lectern/document-store';
import {
  connectMcp,
  corporaDir,
  corpusTier,
  fixturesDir,
  listenOnFreePort,
  silentLogger,
  toolText,
  type McpTransportKind,
} from '@lectern/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { composeDocumentStore } from './compose.js';
import { loadConfig } from './config.js';

export interface RunningDocumentStore {
  app: FastifyInstance;
  baseUrl: string;
  dataDir: string;
  deps: DocumentStoreDeps;
  client: Client;
  call(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; body: unknown; structured: unknown }>;
  stop(): Promise<void>;
}

/** A real document-store-mcp (embedded store under a temp DATA_DIR) and a real MCP client connected to it. */
export const startDocumentStore = async (
  env: Record<string, string> = {},
  transport: McpTransportKind = 'streamable-http',
): Promise<RunningDocumentStore> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lectern-docstore-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    DOCUMENT_ROOTS: [dataDir, fixturesDir(), ...(corpusTier() ? [corporaDir()] : [])].join(','),
    ...env,
  });
  const log = silentLogger();
  const {
    documentStore: { deps },
    platform,
  } = composeDocumentStore(config, log);
  const app = buildApp({ config, logger: log, documentStore: deps });
  const baseUrl = await listenOnFreePort(app);
  const client = await connectMcp(baseUrl, transport, env['MCP_API_KEY'] ? { token: env['MCP_API_KEY'] } : {});
  return {
    app,
    baseUrl,
    dataDir,
    deps,
    client,
    call: async (name, args) => {
      const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
      return { isError: Boolean(result.isError), body: toolText(result), structured: result.structuredContent };
    },
    stop: async () => {
      await client.close();
      await app.close();
      await platform.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

/**
 * A project made by a spec 000 write (it must exist before `store_chunks`), then spec 004 chunks: `chunks` and twelve
 * filler documents about office parking, so that the words of the evidence specs' queries are rare in it.
 */
export const storeAmongFiller = async (
  ds: RunningDocumentStore,
  project: string,
  chunks: { doc_id: string; chunk_index: number; text: string }[],
): Promise<void> => {
  const made = await ds.call('store_document_chunks', {
    collection: project,
    chunks: [{ text: 'Opening hours of the planning desk.', source_filename: 'desk.txt', chunk_index: 0 }],
  });
  expect(made.structured).toMatchObject({ success: true });
  const filler = Array.from({ length: 12 }, (_, i) => ({
    doc_id: `doc_filler_${i}`,
    chunk_index: 0,
    text: `Parking standards for offices, zone ${i}.`,
  }));
  const stored = await ds.call('store_chunks', { project, chunks: [...chunks, ...filler] });
  expect(stored.isError).toBe(false);
};
