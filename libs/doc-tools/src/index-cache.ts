// SPDX-License-Identifier: AGPL-3.0-or-later
import { loadIndex, type LoadedIndex } from './doc-index.js';

/**
 * The indexes of one service: loaded ones kept in memory (the most recently used `capacity`), and builds in
 * flight by index_id (a second `doc_index_build` of the same document waits for the first instead of converting
 * it again). One per DocTools instance, never module state.
 */
export class IndexCache {
  private readonly loaded = new Map<string, Promise<LoadedIndex>>();
  private readonly building = new Map<string, Promise<unknown>>();

  constructor(
    private readonly cacheDir: string,
    private readonly capacity = 16,
  ) {}

  get(indexId: string): Promise<LoadedIndex> {
    let entry = this.loaded.get(indexId);
    if (entry) this.loaded.delete(indexId);
    else {
      entry = loadIndex(this.cacheDir, indexId);
      entry.catch(() => this.loaded.delete(indexId));
    }
    this.loaded.set(indexId, entry);
    while (this.loaded.size > this.capacity) this.loaded.delete(this.loaded.keys().next().value as string);
    return entry;
  }

  /** Forget a loaded index (it was rebuilt). */
  drop(indexId: string): void {
    this.loaded.delete(indexId);
  }

  /** Run `build` once per index_id at a time; concurrent callers share its result. */
  once<T>(indexId: string, build: () => Promise<T>): Promise<T> {
    const running = this.building.get(indexId) as Promise<T> | undefined;
    if (running) return running;
    const started = build().finally(() => this.building.delete(indexId));
    this.building.set(indexId, started);
    return started;
  }
}
