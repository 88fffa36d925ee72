import { createReadStream, mkdirSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { conversionQueue, type ConversionJobPayload, type ConversionJobResult } from '@lectern/contracts';
import { closeConversionPool, convertDocument } from '@lectern/conversion';
import { closeRedis, connectRedis, createBullmqQueue, loadConversionResult, stageConversionFile, type JobQueue } from '@lectern/queue';
import type { Logger } from '@lectern/runtime';
import { createVectorStore } from '@lectern/vector-store';
import type { ConvertPort, DocumentStoreDeps } from './deps.js';
import { EmbedderPool } from './embedder-pool.js';
import { KeyedMutex } from './keyed-mutex.js';

/** Embedded mode: conversion runs in this process (OCR in its worker pool). */
export const inProcessConvert: ConvertPort = (request) =>
  convertDocument(
    { path: request.path },
    {
      enableOcr: request.enableOcr,
      imageRatioThreshold: request.imageRatioThreshold,
      ...(request.signal ? { signal: request.signal } : {}),
      ...(request.onProgress ? { onProgress: request.onProgress } : {}),
    },
  );

/**
 * Distributed mode: the file is staged in the shared data directory and converted by a converter worker
 * through the `conversion` queue (the job id is derived from the content and the options, so the same
 * file converts once per option set however many replicas ask).
 */
export const queueConvert =
  (queue: JobQueue<ConversionJobPayload, ConversionJobResult>, dataDir: string, maxBytes: number): ConvertPort =>
  async (request) => {
    const staged = await stageConversionFile(dataDir, createReadStream(request.path), basename(request.path), { maxBytes });
    const handle = await queue.add(
      {
        version: 1,
        file: staged.file,
        filename: staged.filename,
        sha256: staged.sha256,
        byte_size: staged.byteSize,
        options: { enableOcr: request.enableOcr, imageRatioThreshold: request.imageRatioThreshold },
      },
      { jobId: `convert-${staged.sha256}-${request.enableOcr ? 'ocr' : 'text'}` },
    );
    const stop = handle.onProgress(({ detail }) => {
      const page = Number(detail?.['page']);
      const pages = Number(detail?.['pages']);
      request.onProgress?.({
        stage: String(detail?.['stage'] ?? 'converting'),
        ...(Number.isFinite(page) ? { page } : {}),
        ...(Number.isFinite(pages) ? { pages } : {}),
      });
    });
    try {
      return await loadConversionResult(dataDir, await handle.result());
    } finally {
      stop();
    }
  };

export interface ComposeOptions {
  dataDir: string;
  /** Directory of the embedded vector database (default `<dataDir>/vectors`). */
  vectorDir?: string | undefined;
  qdrantUrl?: string | undefined;
  qdrantApiKey?: string | undefined;
  /** Set: conversion goes through the `conversion` queue (BullMQ on Redis). */
  redisUrl?: string | undefined;
  embedding: { model: string; modelDir?: string | undefined; quantized?: boolean; threads?: number | undefined };
  roots: readonly string[];
  defaultProject: string;
  enableOcr: boolean;
  imageRatioThreshold: number;
  ingestTimeoutMs: number;
  maxDocumentBytes: number;
  log: Logger;
}

export interface ComposedDocumentStore {
  deps: DocumentStoreDeps;
  /** Ordered: queue and Redis (or OCR workers), embedders, the store. Run after HTTP has closed. */
  steps: Array<{ name: string; close: () => Promise<void> }>;
}

/**
 * Adapters chosen by configuration alone: Qdrant when `qdrantUrl` is set (else the embedded SQLite store),
 * conversion through the `conversion` queue when `redisUrl` is set (else in-process). Shared by the MCP
 * server and the CLI, so both see the same store the same way.
 */
export const composeDocumentStore = (o: ComposeOptions): ComposedDocumentStore => {
  const dataDir = resolve(o.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const steps: ComposedDocumentStore['steps'] = [];
  const store = createVectorStore({
    dataDir: o.vectorDir ? resolve(o.vectorDir) : resolve(dataDir, 'vectors'),
    ...(o.qdrantUrl ? { qdrantUrl: o.qdrantUrl } : {}),
    ...(o.qdrantApiKey ? { qdrantApiKey: o.qdrantApiKey } : {}),
    log: o.log,
  });
  const embedders = new EmbedderPool({
    model: o.embedding.model,
    modelDir: o.embedding.modelDir,
    cacheDir: resolve(dataDir, 'models'),
    quantized: o.embedding.quantized ?? false,
    ...(o.embedding.threads ? { threads: o.embedding.threads } : {}),
    log: o.log,
  });
  let convert = inProcessConvert;
  if (o.redisUrl) {
    const connection = connectRedis(o.redisUrl);
    const queue: JobQueue<ConversionJobPayload, ConversionJobResult> = createBullmqQueue({
      definition: conversionQueue,
      connection,
      logger: o.log,
    });
    convert = queueConvert(queue, dataDir, o.maxDocumentBytes);
    steps.push({ name: 'conversion-queue', close: () => queue.close() }, { name: 'redis', close: () => closeRedis(connection) });
  } else {
    steps.push({ name: 'ocr-workers', close: () => closeConversionPool() });
  }
  steps.push({ name: 'embedders', close: () => embedders.close() }, { name: 'vector-store', close: () => store.close() });
  return {
    deps: {
      store,
      embedders,
      convert,
      roots: o.roots.length > 0 ? o.roots.map((r) => resolve(r)) : [dataDir],
      defaultProject: o.defaultProject,
      enableOcr: o.enableOcr,
      imageRatioThreshold: o.imageRatioThreshold,
      ingestTimeoutMs: o.ingestTimeoutMs,
      locks: new KeyedMutex(),
      log: o.log,
    },
    steps,
  };
};
