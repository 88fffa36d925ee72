// Starts a TypeScript worker module through tsx (a Worker's execArgv `--import tsx` is not applied before the
// worker's entry module on Node 20, so the loader is registered here). Plain JavaScript: it must run untranspiled.
import { workerData } from 'node:worker_threads';

const { tsImport } = await import('tsx/esm/api');
await tsImport(workerData.__entry, import.meta.url);
