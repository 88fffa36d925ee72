// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPlatform, type Platform } from '@lectern/platform';
import { policyIngestService, policyKbDeps, policyKbSettings, type PolicyKbDeps } from '@lectern/policy-kb';
import { queueWorkerSettings } from '@lectern/runtime';
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
import { loadConfig, type PolicyKbConfig } from './config.js';

export interface RunningPolicyKb {
  app: FastifyInstance;
  baseUrl: string;
  dataDir: string;
  config: PolicyKbConfig;
  platform: Platform;
  deps: PolicyKbDeps;
  client: Client;
  /** Call a tool through the real MCP client; `body` is the JSON text content (success or the spec's error shape). */
  call(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; body: Record<string, unknown> }>;
  stop(): Promise<void>;
}

/** A real policy-kb-mcp composed by the platform (temp DATA_DIR) and a real MCP client over HTTP. */
export const startPolicyKb = async (
  env: Record<string, string> = {},
  transport: McpTransportKind = 'streamable-http',
  options: { redisPrefix?: string; redisKeyPrefix?: string; convertHere?: boolean; enqueueOnly?: boolean } = {},
): Promise<RunningPolicyKb> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lectern-policy-kb-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    DOCUMENT_ROOTS: [dataDir, fixturesDir(), ...(corpusTier() ? [corporaDir()] : [])].join(','),
    ...env,
  });
  const log = silentLogger();
  const platform = createPlatform({
    dataDir,
    log,
    redisUrl: config.REDIS_URL,
    redisPrefix: options.redisPrefix,
    queue: queueWorkerSettings(config),
  });
  // Distributed mode converts on converter workers; a test without one converts in this process.
  if (options.convertHere) platform.conversion({ workers: { embedded: 2, distributed: 1 } });
  const deps = policyKbDeps(platform, {
    ...policyKbSettings(config),
    registry: { redisKeyPrefix: options.redisKeyPrefix },
  });
  // enqueueOnly (distributed mode): this process runs no policy-ingest worker, another replica would.
  const { queue: ingestQueue } = policyIngestService(platform, options.enqueueOnly ? undefined : deps);
  const app = buildApp({ config, logger: log, policyKb: deps, ingestQueue });
  const baseUrl = await listenOnFreePort(app);
  const client = await connectMcp(baseUrl, transport, config.MCP_API_KEY ? { token: config.MCP_API_KEY } : {});
  return {
    app,
    baseUrl,
    dataDir,
    config,
    platform,
    deps,
    client,
    call: async (name, args) => {
      const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
      return { isError: Boolean(result.isError), body: toolText(result) as Record<string, unknown> };
    },
    stop: async () => {
      await client.close();
      await app.close();
      await platform.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};
