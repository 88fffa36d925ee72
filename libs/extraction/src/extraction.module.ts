// SPDX-License-Identifier: AGPL-3.0-or-later
import { join, resolve } from 'node:path';
import { extractionTaskQueue } from '@lectern/contracts';
import { docToolsModule, type DocToolsEnv, type DocToolsModule } from '@lectern/doc-tools';
import type { Platform } from '@lectern/platform';
import { TaskUploads, type TaskStore } from '@lectern/task-store';
import type { ExtractionTaskQueue } from './extraction-runner.js';
import type { ExtractionEnv } from './extraction.env.js';
import { sweepStaleIncoming } from './sweep-incoming.js';

/**
 * The `extraction-task` queue of this service (BullMQ when the platform has Redis, else in-process):
 * `AGENT_MAX_RETRIES` retries, the task store the durable record.
 */
export const extractionTaskQueueOf = (
  platform: Platform,
  env: Pick<ExtractionEnv, 'AGENT_MAX_RETRIES'>,
): ExtractionTaskQueue => platform.queue(extractionTaskQueue, { retry: { attempts: env.AGENT_MAX_RETRIES + 1 } });

/** Spec 003's extraction composed on a platform: what extraction-api's task API and its worker run on. */
export interface ExtractionModule {
  /** The document tools the extractors use (served at extraction-api's `/mcp`), indexing the task uploads too. */
  docTools: DocToolsModule;
  /** The durable record of every task (SQLite `DB_PATH`, default `<DATA_DIR>/tasks.db`; Redis with `REDIS_URL`). */
  taskStore: TaskStore;
  /** The task uploads: under `DATA_DIR/uploads/`, and in the blob store in distributed mode (any replica runs a task). */
  taskUploads: TaskUploads;
  /** The `extraction-task` queue the tasks run on. */
  taskQueue: ExtractionTaskQueue;
  /**
   * Recovery at start: the doc tools' interrupted index builds (`docTools.recover`), and uploads a killed process
   * left half received in `uploads/.incoming` (`sweepStaleIncoming`). Tasks left running are re-queued
   * or failed by the extraction runner's `recoverInterrupted` when it starts. Never throws.
   */
  recover(): Promise<void>;
}

/**
 * Extraction from its variables on `platform`: the doc tools (`docToolsModule`; the task uploads under
 * `DATA_DIR/uploads/` are inside their default root, DATA_DIR, and added to DOCUMENT_ROOTS when those are set),
 * the task store and the task queue. Their shutdown steps (task store, queue, conversion pools, embedders) are the
 * platform's; the worker on the queue is the app's `ExtractionRunner`, started when it listens.
 */
export const extractionModule = (platform: Platform, env: ExtractionEnv & DocToolsEnv): ExtractionModule => {
  const roots =
    env.DOCUMENT_ROOTS.length > 0 ? [...env.DOCUMENT_ROOTS, join(resolve(platform.dataDir), 'uploads')] : [];
  const docTools = docToolsModule(platform, { ...env, DOCUMENT_ROOTS: roots });
  return {
    docTools,
    recover: async () => {
      await docTools.recover();
      await sweepStaleIncoming(platform.dataDir);
    },
    taskStore: platform.taskStore({ path: env.DB_PATH }),
    taskUploads: new TaskUploads({
      dataDir: resolve(platform.dataDir),
      ...(platform.mode === 'distributed' ? { blobs: platform.blobStore() } : {}),
    }),
    taskQueue: extractionTaskQueueOf(platform, env),
  };
};
