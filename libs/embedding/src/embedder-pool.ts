// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError, type EmbeddingFingerprint } from '@lectern/contracts';
import type { Embedder } from './embedder.js';
import { resolveEmbedder, resolveEmbedderFor, type ResolveEmbedderOptions } from './resolve-embedder.js';

/**
 * One embedder per model, loaded on first use and shared. New projects get the configured model
 * (`EMBEDDING_MODEL`, default auto); an existing project always gets the model it was built with
 * (its fingerprint), never silently another — if that model is unavailable the error says how to get it.
 */
/** What use cases need of embedders: the configured model for new projects, a project's own model otherwise. */
export interface EmbedderProvider {
  configured(): Promise<Embedder>;
  for(fingerprint: EmbeddingFingerprint): Promise<Embedder>;
}

export class EmbedderPool implements EmbedderProvider {
  private readonly byKey = new Map<string, Promise<Embedder>>();
  /** The embedders that finished loading (a pending or failed load is not "in use"). */
  private readonly loaded = new Set<Embedder>();
  private closed = false;

  constructor(private readonly options: ResolveEmbedderOptions) {}

  configured(): Promise<Embedder> {
    return this.memo(`configured:${this.options.model}`, () => resolveEmbedder(this.options));
  }

  for(fingerprint: EmbeddingFingerprint): Promise<Embedder> {
    const key = `${fingerprint.model_id}@${fingerprint.revision}`;
    return this.memo(key, async () => {
      const configured = await this.configured();
      const f = configured.fingerprint;
      if (
        f.model_id === fingerprint.model_id &&
        f.revision === fingerprint.revision &&
        f.dimension === fingerprint.dimension
      ) {
        return configured;
      }
      const { model: _model, ...rest } = this.options;
      return resolveEmbedderFor(fingerprint, rest);
    });
  }

  /** The model ids of the embedders loaded so far, sorted, each once (read-only; loads nothing). */
  loadedModels(): string[] {
    return [...new Set([...this.loaded].map((e) => e.fingerprint.model_id))].sort();
  }

  /** Closes every embedder built; afterwards none is built (work still running at shutdown gets an error). */
  async close(): Promise<void> {
    this.closed = true;
    const all = await Promise.allSettled([...this.byKey.values()]);
    const unique = new Set(all.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : [])));
    await Promise.allSettled([...unique].map((e) => e.close()));
    this.byKey.clear();
    this.loaded.clear();
  }

  private memo(key: string, make: () => Promise<Embedder>): Promise<Embedder> {
    // An embedder built after close would start worker threads nobody closes, keeping the process alive.
    if (this.closed) {
      return Promise.reject(
        new AppError('model_unavailable', 'The embedders are closed: the service is shutting down.', {
          httpStatus: 503,
        }),
      );
    }
    let pending = this.byKey.get(key);
    if (!pending) {
      pending = make();
      pending.then(
        (embedder) => {
          if (!this.closed) this.loaded.add(embedder);
        },
        () => undefined,
      );
      // A failed load is not cached: the next call retries (e.g. after `lectern models pull`).
      pending.catch(() => this.byKey.delete(key));
      this.byKey.set(key, pending);
    }
    return pending;
  }
}
