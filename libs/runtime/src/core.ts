// SPDX-License-Identifier: AGPL-3.0-or-later
// `@lectern/runtime/core`: the part of the runtime that loads no npm package and no contract schema (the barrel,
// `@lectern/runtime`, also brings the environment parsers, with zod and every contract schema, and pino). For a
// library whose loading a fresh process pays before its first result (the conversion: 0.1-0.2 CPU-s less).
export { ConfigError } from './config-error.js';
export type { Logger } from 'pino';
export { raceAbort } from './race-abort.js';
export { TS_WORKER_BOOTSTRAP, TS_WORKER_ENTRY_KEY, tsWorker } from './ts-worker.js';
export type { TsWorkerOptions } from './ts-worker.js';
export { readFileHandle } from './read-file-handle.js';
export { isSpaceCode } from './white-space.js';
