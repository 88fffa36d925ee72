// SPDX-License-Identifier: AGPL-3.0-or-later
import { tsWorker } from '@lectern/runtime/core';
import { conversionError } from '../errors.js';
import type { MarkupOp, MarkupOutput, MarkupReply, MarkupWorkerData } from './markup.protocol.js';

export type { MarkupOutput } from './markup.protocol.js';

/**
 * Heap cap of the markup worker: far above any real document, far below the host's memory. A worker is started
 * per document, so whatever it grew to is returned when it ends (or is terminated by the timeout).
 */
const MAX_HEAP_MB = 512;
const MAX_YOUNG_MB = 32;

/** Runs `markup.worker.ts` on one document; the abort signal (timeout) terminates the thread. */
export function runMarkupWorker(op: MarkupOp, bytes: Uint8Array, signal: AbortSignal): Promise<MarkupOutput> {
  return new Promise<MarkupOutput>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const workerData: MarkupWorkerData = { op, bytes };
    const worker = tsWorker(new URL('./markup.worker.ts', import.meta.url), {
      workerData,
      resourceLimits: { maxOldGenerationSizeMb: MAX_HEAP_MB, maxYoungGenerationSizeMb: MAX_YOUNG_MB },
    });
    let settled = false;
    const finish = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      fn();
    };
    const onAbort = (): void => finish(() => reject(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (m: MarkupReply) =>
      finish(() => (m.ok ? resolve(m.result) : reject(m.code ? conversionError(m.code, m.error) : new Error(m.error)))),
    );
    worker.on('error', (e) => finish(() => reject(e)));
    worker.on('exit', (code) => finish(() => reject(new Error(`markup worker exited (${code})`))));
  });
}
