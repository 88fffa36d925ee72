// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * A fixed-size pool of reusable, expensive resources (worker threads holding a WASM engine).
 * Hand-written because the two engines (mupdf workers, tesseract.js workers) need the same three things no
 * generic pool package gives together: lazy creation up to `size`, FIFO waiting, and *abandoning* a resource
 * whose task was aborted (timeout): it is destroyed (its thread terminated) and replaced on demand, so a
 * hung or pathological document never blocks the pool.
 */
import { raceAbort } from '@lectern/runtime/core';

export interface PoolOptions<R> {
  size: number;
  create: () => Promise<R>;
  destroy: (resource: R) => Promise<void>;
  /** A resource that reports itself broken (its thread died) is destroyed instead of being reused. */
  isBroken?: (resource: R) => boolean;
  /**
   * A resource left idle this long is destroyed (its thread and memory given back) and created again when next
   * needed; absent: idle resources are kept until `close`.
   */
  idleMs?: number;
}

export class ResourcePool<R> {
  private readonly idle: R[] = [];
  private readonly waiters: Array<{ resolve: (r: R | null) => void }> = [];
  /** The idle-release timer of each idle resource (options.idleMs). */
  private readonly idleTimers = new Map<R, NodeJS.Timeout>();
  private live = 0;
  private closed = false;

  constructor(private readonly options: PoolOptions<R>) {}

  get size(): number {
    return this.options.size;
  }

  /** Resources created and not destroyed (busy or idle). */
  get liveCount(): number {
    return this.live;
  }

  /** Runs `task` with a resource; if `signal` aborts first, the resource is destroyed and the call rejects. */
  async use<T>(task: (resource: R) => Promise<T>, signal?: AbortSignal): Promise<T> {
    signal?.throwIfAborted();
    const resource = await this.acquire(signal);
    let settled = false;
    let abandoned = false;
    try {
      if (!signal) return await task(resource);
      const work = task(resource).finally(() => {
        settled = true;
      });
      // observed here: when the signal has aborted by the time the race starts, raceAbort rejects without listening
      // to `work`, and its later failure (the worker terminated under it) would be an unhandled rejection
      work.catch(() => undefined);
      try {
        return await raceAbort(work, signal);
      } finally {
        // Abandoned only when the abort came before the task settled: its resource may be stuck mid-task.
        abandoned = signal.aborted && !settled;
      }
    } finally {
      if (abandoned || this.closed || this.options.isBroken?.(resource)) void this.discard(resource);
      else this.release(resource);
    }
  }

  /** Creates every resource now (service start-up) instead of on first use. */
  async warm(): Promise<void> {
    const size = this.options.size;
    let arrived = 0;
    let release = (): void => undefined;
    const all = new Promise<void>((r) => (release = r));
    // each call holds its resource until all have arrived, so none is reused and all `size` get created
    await Promise.all(
      Array.from({ length: size }, () =>
        this.use(async () => {
          arrived += 1;
          if (arrived === size) release();
          await all;
        }),
      ),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiters.splice(0)) w.resolve(null);
    for (const timer of this.idleTimers.values()) clearTimeout(timer);
    this.idleTimers.clear();
    const all = this.idle.splice(0);
    await Promise.all(all.map((r) => this.discard(r)));
  }

  private async acquire(signal?: AbortSignal): Promise<R> {
    if (this.closed) throw new Error('pool closed');
    let ready = this.takeIdle();
    // a resource can break while idle (its thread exited after the last reply): replace it
    while (ready !== undefined && this.options.isBroken?.(ready)) {
      void this.discard(ready);
      ready = this.takeIdle();
    }
    if (ready !== undefined) return ready;
    if (this.live < this.options.size) {
      this.live += 1;
      try {
        return await this.options.create();
      } catch (e) {
        this.live -= 1;
        throw e;
      }
    }
    const r = await new Promise<R | null>((resolve, reject) => {
      const waiter = { resolve };
      this.waiters.push(waiter);
      signal?.addEventListener(
        'abort',
        () => {
          const i = this.waiters.indexOf(waiter);
          if (i >= 0) this.waiters.splice(i, 1);
          reject(signal.reason);
        },
        { once: true },
      );
    });
    if (r === null) return this.acquire(signal); // a slot was freed (or the pool closed: acquire throws)
    return r;
  }

  private release(resource: R): void {
    const w = this.waiters.shift();
    if (w) return w.resolve(resource);
    this.idle.push(resource);
    const { idleMs } = this.options;
    if (idleMs === undefined) return;
    const timer = setTimeout(() => {
      this.idleTimers.delete(resource);
      const i = this.idle.indexOf(resource);
      if (i < 0) return;
      this.idle.splice(i, 1);
      void this.discard(resource);
    }, idleMs);
    // an idle pool never keeps the process alive
    timer.unref();
    this.idleTimers.set(resource, timer);
  }

  /** The most recently used idle resource (its idle-release timer stopped), if any. */
  private takeIdle(): R | undefined {
    const r = this.idle.pop();
    if (r !== undefined) {
      clearTimeout(this.idleTimers.get(r));
      this.idleTimers.delete(r);
    }
    return r;
  }

  private async discard(resource: R): Promise<void> {
    this.live -= 1;
    // a waiter may now create a fresh resource in the freed slot
    const w = this.waiters.shift();
    if (w) w.resolve(null);
    try {
      await this.options.destroy(resource);
    } catch {
      // a resource that fails to shut down is gone either way
    }
  }
}
