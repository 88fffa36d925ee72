import { Worker } from 'node:worker_threads';

export interface MarkupOutput {
  markdown: string;
  title: string | null;
  warnings: string[];
}

/** Heap cap of the markup worker: far above any real document, far below the host's memory. */
const MAX_HEAP_MB = 1024;

/** Runs `markup.worker.mjs` on one document; the abort signal (timeout) terminates the thread. */
export function runMarkupWorker(op: 'docx' | 'html', bytes: Uint8Array, signal: AbortSignal): Promise<MarkupOutput> {
  return new Promise<MarkupOutput>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const worker = new Worker(new URL('./markup.worker.mjs', import.meta.url), {
      workerData: { op, bytes },
      resourceLimits: { maxOldGenerationSizeMb: MAX_HEAP_MB },
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
    worker.on('message', (m: { ok: boolean; result?: MarkupOutput; error?: string }) =>
      finish(() => (m.ok && m.result ? resolve(m.result) : reject(new Error(m.error ?? 'markup conversion failed')))),
    );
    worker.on('error', (e) => finish(() => reject(e)));
    worker.on('exit', (code) => finish(() => reject(new Error(`markup worker exited (${code})`))));
  });
}
