// SPDX-License-Identifier: AGPL-3.0-or-later
// A worker thread that owns one mupdf engine (`pdf-page.engine.ts`) and does the CPU-heavy PDF work off the
// event loop, one message at a time, in order. Started by `pdf-worker-pool.ts` through the TypeScript worker
// bootstrap (@lectern/runtime); the messages both sides exchange are typed in `pdf-page.protocol.ts`.
import process from 'node:process';
import { setImmediate } from 'node:timers';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { createPdfPageEngine } from './pdf-page.engine.js';
import type { PdfRequest, PdfWorkerData } from './pdf-page.protocol.js';

function workerPort(): MessagePort {
  if (!parentPort) throw new Error('pdf-page.worker.ts runs in a worker thread (see pdf-worker-pool.ts)');
  return parentPort;
}
const port = workerPort();
const data = workerData as PdfWorkerData | undefined;

const engine = await createPdfPageEngine(data?.engine || 'auto', data?.abort ? new Int32Array(data.abort) : undefined);

// one message at a time, in order (loading the WASM module is asynchronous)
let queue = Promise.resolve();
port.on('message', (msg: PdfRequest) => {
  queue = queue.then(async () => {
    const { reply, transfer, fatal } = await engine.handle(msg);
    port.postMessage(reply, transfer);
    // a trapped WASM instance is not safe to reuse: end this thread, the pool starts a fresh one
    if (fatal) setImmediate(() => process.exit(1));
  });
});

// the pool waits for this before using the worker
port.postMessage(engine.start);
