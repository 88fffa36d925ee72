// SPDX-License-Identifier: AGPL-3.0-or-later
import { tsWorker } from '@lectern/runtime';
import type { Worker } from 'node:worker_threads';

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * A worker thread hosting one inference engine, so a large batch never stalls the caller's event loop.
 * Requests are answered in order; many callers may call concurrently. TypeScript worker files start through
 * the shared tsx bootstrap (`tsWorker` of `@lectern/runtime`); compiled `.js` workers start plainly.
 */
export class WorkerClient {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failure: Error | undefined;

  constructor(file: URL, workerData: unknown) {
    this.worker = tsWorker(file, { workerData: workerData as object });
    this.worker.on('message', (msg: { id: number; ok: boolean; value?: unknown; error?: string; code?: string }) => {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.ok) p.resolve(msg.value);
      else p.reject(Object.assign(new Error(msg.error ?? 'inference failed'), { code: msg.code }));
    });
    this.worker.on('error', (err) => this.failAll(err));
    this.worker.on('exit', (code) => this.failAll(new Error(`inference worker exited (code ${code})`)));
  }

  private failAll(err: Error): void {
    this.failure ??= err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  call<T>(request: object, transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ id, ...request }, transfer);
    });
  }

  async close(): Promise<void> {
    this.failure ??= new Error('embedder closed');
    await this.worker.terminate();
  }
}

/** Several workers hosting the same model; each call goes to the least busy one. */
export class WorkerPool {
  private readonly workers: WorkerClient[];
  private readonly busy: number[];

  constructor(file: URL, workerData: unknown, size: number) {
    this.workers = Array.from({ length: Math.max(1, size) }, () => new WorkerClient(file, workerData));
    this.busy = this.workers.map(() => 0);
  }

  get size(): number {
    return this.workers.length;
  }

  async call<T>(request: object, transfer: ArrayBuffer[] = []): Promise<T> {
    const w = this.busy.indexOf(Math.min(...this.busy));
    this.busy[w] = (this.busy[w] as number) + 1;
    try {
      return await (this.workers[w] as WorkerClient).call<T>(request, transfer);
    } finally {
      this.busy[w] = (this.busy[w] as number) - 1;
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
  }
}
