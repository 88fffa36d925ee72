// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectMcp } from './mcp-client.js';
import { startRedis, type TestRedis } from './redis-server.js';
import { spawnService, type SpawnedService } from './spawn-service.js';

/** What a `kill -9` test works with: its data directory, the services' environment, and how to start and connect. */
export interface KillScenario {
  /** Set in `beforeAll`. */
  readonly dataDir: string;
  /** Set in `beforeAll`; with `distributed`, it names the Redis and a one-second queue lock. */
  readonly env: Record<string, string>;
  /** Spawns `entry` (its port from `portVariable`), stopped after the suite. */
  start(entry: string, portVariable: string): Promise<SpawnedService>;
  /** A Streamable HTTP MCP client of `service`, closed after the suite. */
  connect(service: SpawnedService): Promise<Client>;
}

/**
 * The life cycle the `kill -9` suites share, registered on the calling `describe`: a fresh data directory; in
 * distributed mode a real redis-server, with a queue lock of one second so that a killed worker's job counts as
 * stalled a second after its last renewal and is re-queued; every service spawned and client connected during the
 * suite closed after it, then the Redis stopped and the directory removed.
 */
export const killScenario = (options: {
  /** Prefix of the temporary data directory. */
  prefix: string;
  distributed: boolean;
  /** The services' environment for a data directory (before the distributed settings are added). */
  env: (dataDir: string) => Record<string, string>;
}): KillScenario => {
  let dataDir = '';
  let env: Record<string, string> = {};
  let redis: TestRedis | undefined;
  const services: SpawnedService[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), options.prefix));
    env = options.env(dataDir);
    if (options.distributed) {
      redis = await startRedis();
      Object.assign(env, { REDIS_URL: redis.url, QUEUE_LOCK_MS: '1000', QUEUE_STALL_LIMIT: '3' });
    }
  });
  afterAll(async () => {
    for (const c of clients.splice(0)) await c.close().catch(() => undefined);
    for (const s of services.splice(0)) await s.stop();
    await redis?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  return {
    get dataDir() {
      return dataDir;
    },
    get env() {
      return env;
    },
    start: async (entry, portVariable) => {
      const s = await spawnService(entry, portVariable, env);
      services.push(s);
      return s;
    },
    connect: async (service) => {
      const client = await connectMcp(service.baseUrl, 'streamable-http');
      clients.push(client);
      return client;
    },
  };
};
