// SPDX-License-Identifier: AGPL-3.0-or-later
// The entry of every TypeScript worker thread (see ts-worker.ts): a Worker's execArgv `--import tsx` is not applied
// before the worker's entry module on Node 20, so this registers tsx and imports the real entry, `workerData.__entry`,
// with the repository's tsconfig (its `@lectern/*` paths resolve whatever the working directory). Plain JavaScript:
// it must run untranspiled.
import { fileURLToPath } from 'node:url';
import { workerData } from 'node:worker_threads';

const { tsImport } = await import('tsx/esm/api');
await tsImport(workerData.__entry, {
  parentURL: import.meta.url,
  tsconfig: fileURLToPath(new URL('../../../tsconfig.json', import.meta.url)),
});
