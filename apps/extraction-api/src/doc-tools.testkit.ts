// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectMcp, listenOnFreePort, silentLogger, toolText, type McpTransportKind } from '@lectern/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { docToolsModule } from '@lectern/doc-tools';
import { createPlatform, platformOptions } from '@lectern/platform';
import { loadConfig } from './config.js';

export interface ToolCallResult {
  isError: boolean;
  body: unknown;
  structured: unknown;
  progress: { progress: number; total?: number | undefined; message?: string | undefined }[];
}

export interface RunningExtractionApi {
  app: FastifyInstance;
  baseUrl: string;
  dataDir: string;
  client: Client;
  call(name: string, args: Record<string, unknown>): Promise<ToolCallResult>;
  stop(): Promise<void>;
}

/** A real extraction-api (platform under a temp DATA_DIR, embedded conversion) and a real MCP client on its `/mcp`. */
export const startExtractionApi = async (
  env: Record<string, string> = {},
  transport: McpTransportKind = 'streamable-http',
): Promise<RunningExtractionApi> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lectern-extraction-'));
  const config = loadConfig({ DATA_DIR: dataDir, EMBEDDING_MODEL: 'universal-sentence-encoder-lite', ...env });
  const log = silentLogger();
  // The doc tools alone on the platform, as extraction-api serves them at /mcp (no task store, no task queue).
  const platform = createPlatform(platformOptions(config, log));
  const app = buildApp({ config, logger: log, docTools: docToolsModule(platform, config).tools });
  const baseUrl = await listenOnFreePort(app);
  const token = env['EXTRACTION_API_KEY'] ?? env['MCP_API_KEY'];
  const client = await connectMcp(baseUrl, transport, token ? { token } : {});
  return {
    app,
    baseUrl,
    dataDir,
    client,
    call: async (name, args) => {
      const progress: ToolCallResult['progress'] = [];
      const result = await client.callTool({ name, arguments: args }, undefined, {
        timeout: 600_000,
        onprogress: (p) => progress.push({ progress: p.progress, total: p.total, message: p.message }),
      });
      return {
        isError: Boolean(result.isError),
        body: toolText(result),
        structured: result.structuredContent,
        progress,
      };
    },
    stop: async () => {
      await client.close();
      await app.close();
      await platform.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};
