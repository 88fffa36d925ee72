import { pathToFileURL, fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import type * as WorkerThreads from 'node:worker_threads';
import type { Worker, WorkerOptions } from 'node:worker_threads';
import { workerBundle } from './worker-bundle.js';

/**
 * The few-line JavaScript entry that starts a TypeScript worker module through tsx (on Node 20 a Worker's
 * `execArgv: ['--import', 'tsx']` is not applied before its entry module). It imports `workerData.__entry`.
 */
export const TS_WORKER_BOOTSTRAP: URL = new URL('./ts-worker-bootstrap.mjs', import.meta.url);

/** Where the bootstrap finds the module to run; the worker module itself may ignore the key. */
export const TS_WORKER_ENTRY_KEY = '__entry';

export interface TsWorkerOptions extends Omit<WorkerOptions, 'workerData' | 'eval'> {
  /** Passed to the worker as `workerData` (with the entry's URL added under `__entry` for a `.ts` module). */
  workerData?: object;
}

/**
 * Starts a worker thread running `file`: a TypeScript module (`.ts`, as the repository runs from source) from
 * its compiled bundle (`workerBundle`), or through the tsx bootstrap when no bundle can be had; anything else
 * (compiled `.js`) directly. The worker reads its `workerData` as
 * usual; options (resource limits, transfer list...) are the Worker's.
 */
export function tsWorker(file: URL, options: TsWorkerOptions = {}): Worker {
  // node:worker_threads when a worker starts (~1 ms a one-shot process that runs none need not spend)
  const threads = createRequire(import.meta.url)('node:worker_threads') as typeof WorkerThreads;
  if (!file.pathname.endsWith('.ts')) return new threads.Worker(file, options);
  const bundle = workerBundle(fileURLToPath(file));
  const workerData = { ...options.workerData, [TS_WORKER_ENTRY_KEY]: file.href };
  if (bundle) return new threads.Worker(pathToFileURL(bundle), { ...options, workerData });
  return new threads.Worker(TS_WORKER_BOOTSTRAP, { ...options, workerData });
}
