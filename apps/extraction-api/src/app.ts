import multipart from '@fastify/multipart';
import { EXTRACTION_SCHEMA_LIMITS } from '@lectern/contracts';
import type { DocTools } from '@lectern/doc-tools';
import { connectDocTools, createLlmProvider, ExtractionRunner, resolveExtractor } from '@lectern/extraction';
import { LECTERN_VERSION, type Logger } from '@lectern/runtime';
import type { TaskStore } from '@lectern/task-store';
import { createHttpApp } from '@lectern/transport';
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { llmSettings, restApiKey, type ExtractionConfig } from './config.js';
import { mountDocTools } from './mcp.js';
import { registerTaskRoutes } from './tasks.route.js';

export interface ExtractionDeps {
  config: ExtractionConfig;
  logger: Logger;
  /** The document tools served at `/mcp` (unset: they answer `not_implemented`). */
  docTools?: DocTools | undefined;
  /** The task store (from the platform); without one the app serves only `/health`, `/metrics` and `/docs`. */
  store?: TaskStore;
}

/** The doc tools' MCP endpoint: `MCP_TOOLS_URL`, else this server's own `/mcp` on the address it listens on. */
const ownMcpUrl = (app: FastifyInstance): string => {
  const address = app.server.address() as AddressInfo | null;
  if (!address) throw new Error('extraction-api is not listening yet');
  const host =
    address.address === '0.0.0.0' || address.address === '::'
      ? '127.0.0.1'
      : address.family === 'IPv6'
        ? `[${address.address}]`
        : address.address;
  return `http://${host}:${address.port}/mcp`;
};

/**
 * Compose extraction-api without listening: the task API over the task store and the extraction runner (which
 * starts, recovering interrupted tasks, once the server listens, and stops when it closes).
 */
export const buildApp = (deps: ExtractionDeps): FastifyInstance => {
  const { config } = deps;
  const app = createHttpApp({
    service: 'extraction-api',
    logger: deps.logger,
    apiKey: restApiKey(config),
    openapi: {
      version: LECTERN_VERSION,
      description: 'Schema-driven extraction with verified evidence (spec 003): tasks, and the doc tools at /mcp.',
    },
  });
  mountDocTools(app, config, deps.docTools);
  if (!deps.store) return app;
  const store = deps.store;
  const settings = llmSettings(config);
  const extractor = resolveExtractor(settings);
  const runner = new ExtractionRunner({
    store,
    extractor,
    provider: extractor === 'local' ? undefined : createLlmProvider(settings, extractor, deps.logger),
    connectTools: () => connectDocTools({ url: config.MCP_TOOLS_URL ?? ownMcpUrl(app), token: restApiKey(config) }),
    maxConcurrent: config.MAX_CONCURRENT_TASKS,
    timeoutMs: config.AGENT_TIMEOUT * 1000,
    maxRetries: config.AGENT_MAX_RETRIES,
    maxTurns: config.AGENT_MAX_TURNS,
    log: deps.logger,
  });
  app.addHook('onListen', async () => runner.start());
  app.addHook('preClose', async () => runner.close());
  // Our own byte counter answers `too_large` first; busboy's limit is the backstop one byte later.
  app.register(multipart, {
    limits: {
      fileSize: config.MAX_UPLOAD_BYTES + 1,
      files: 1,
      fields: 4,
      fieldSize: EXTRACTION_SCHEMA_LIMITS.maxBytes + 1,
    },
  });
  app.register(async (scope) =>
    registerTaskRoutes(scope, {
      store,
      runner,
      dataDir: resolve(config.DATA_DIR),
      maxUploadBytes: config.MAX_UPLOAD_BYTES,
    }),
  );
  return app;
};
