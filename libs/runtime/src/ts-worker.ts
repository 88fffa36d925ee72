// SPDX-License-Identifier: AGPL-3.0-or-later
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

/** Set by the production build's bundles (tools/build.mjs): this process runs compiled code from `dist/`. */
const COMPILED = Symbol.for('lectern.compiled');

/** The installation root (the repository, or the installed package): this module is `libs/runtime/src/` under it. */
const ROOT = new URL('../../../', import.meta.url);

/**
 * The production build's compiled worker for a TypeScript entry under the root: `dist/<its path>.js`
 * (tools/build.mjs builds every worker entry there). Exported for its test.
 */
export const compiledWorker = (file: URL, root: URL = ROOT): URL | null =>
  file.href.startsWith(root.href) && file.href.endsWith('.ts')
    ? new URL(`dist/${file.href.slice(root.href.length, -'.ts'.length)}.js`, root)
    : null;

/**
 * Starts a worker thread running `file`. A TypeScript module (`.ts`, as the sources name their workers): in a process
 * running the production build (`dist/`), its compiled worker there, built with it (nothing is compiled at run time);
 * in a process running the sources (tests, development), its bundle beside it (`workerBundle`), or through the tsx
 * bootstrap when no bundle can be had. Anything else (compiled `.js`) directly. The worker reads its `workerData` as
 * usual; options (resource limits, transfer list...) are the Worker's.
 */
export function tsWorker(file: URL, options: TsWorkerOptions = {}): Worker {
  // node:worker_threads when a worker starts (~1 ms a one-shot process that runs none need not spend)
  const threads = createRequire(import.meta.url)('node:worker_threads') as typeof WorkerThreads;
  if (!file.pathname.endsWith('.ts')) return new threads.Worker(file, options);
  const compiled = (globalThis as { [COMPILED]?: boolean })[COMPILED] === true ? compiledWorker(file) : null;
  if (compiled) return new threads.Worker(compiled, options);
  const bundle = workerBundle(fileURLToPath(file));
  const workerData = { ...options.workerData, [TS_WORKER_ENTRY_KEY]: file.href };
  if (bundle) return new threads.Worker(pathToFileURL(bundle), { ...options, workerData });
  return new threads.Worker(TS_WORKER_BOOTSTRAP, { ...options, workerData });
}
