// SPDX-License-Identifier: AGPL-3.0-or-later
import type { ConversionResult } from '@lectern/contracts';
import { listenOnFreePort, silentLogger } from '@lectern/testing';
import type { FastifyInstance } from 'fastify';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { composeConverter, type ComposedConverter } from './compose.js';

/** A converter as `main.ts` composes it, listening on a free port, with its own DATA_DIR. For specs only. */
export interface TestConverter {
  baseUrl: string;
  app: FastifyInstance;
  services: ComposedConverter;
  dataDir: string;
  /** The BullMQ key prefix (with REDIS_URL). */
  redisPrefix: string | undefined;
  /** Conversions actually run (the real engine, counted). */
  conversions: () => number;
  close(): Promise<void>;
}

export const startConverter = async (
  env: Record<string, string> = {},
  options: { redisPrefix?: string; dataDir?: string } = {},
): Promise<TestConverter> => {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'lectern-converter-')));
  const config = loadConfig({ DATA_DIR: dataDir, ...env });
  const logger = silentLogger();
  let count = 0;
  const services = composeConverter(config, logger, {
    redisPrefix: options.redisPrefix,
    instrument: (engine) => ({
      ...engine,
      convert: (input, opts) => {
        count += 1;
        return engine.convert(input, opts);
      },
    }),
  });
  const app = buildApp({ config, logger, conversion: services.conversion });
  const baseUrl = await listenOnFreePort(app);
  return {
    baseUrl,
    app,
    services,
    dataDir,
    redisPrefix: options.redisPrefix,
    conversions: () => count,
    close: async () => {
      // Test teardown: every request is answered by now. Some keep-alive sockets left by fetch (after
      // the auth matrix aborts unread bodies) do not count as idle, and `app.close()` would wait for them.
      const closing = app.close();
      app.server.closeAllConnections();
      await closing;
      await services.platform.close();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
};

/** `POST path` with a multipart `file` (a real file from disk, or given bytes) and optional fields. */
export const postFile = async (
  baseUrl: string,
  path: string,
  file: { path: string } | { bytes: Uint8Array; filename: string },
  init: { headers?: Record<string, string>; fields?: Record<string, string> } = {},
): Promise<Response> => {
  const form = new FormData();
  for (const [name, value] of Object.entries(init.fields ?? {})) form.append(name, value);
  const bytes = 'path' in file ? await readFile(file.path) : file.bytes;
  const filename = 'path' in file ? basename(file.path) : file.filename;
  form.append('file', new Blob([bytes]), filename);
  return fetch(new URL(path, baseUrl), { method: 'POST', body: form, headers: init.headers });
};

/** Poll `GET /tasks/:id` until the task is finished; returns every status body seen. */
export const pollTask = async (
  baseUrl: string,
  taskId: string,
  headers: Record<string, string> = {},
): Promise<Array<Record<string, unknown>>> => {
  const seen: Array<Record<string, unknown>> = [];
  for (let i = 0; i < 3000; i += 1) {
    const response = await fetch(new URL(`/tasks/${taskId}`, baseUrl), { headers });
    const body = (await response.json()) as Record<string, unknown>;
    seen.push(body);
    if (body['status'] === 'succeeded' || body['status'] === 'failed') return seen;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`task ${taskId} did not finish`);
};

export type { ConversionResult };
