// SPDX-License-Identifier: AGPL-3.0-or-later
import type { EmbeddingFingerprint } from '@lectern/contracts';

/** Query vectors an embedder keeps by default (64-d: ~0.3 KB each; 384-d: ~1.6 KB, plus the text). */
export const QUERY_CACHE_ENTRIES = 256;
/** A longer query text is embedded every time and never kept: the cache's memory stays bounded. */
export const QUERY_CACHE_MAX_CHARS = 1024;

/**
 * The most recently used query vectors, keyed by the model's fingerprint and the exact text: an agent repeating a
 * query (or several asking the same) skips the tokenizer and the model. A vector depends only on the model and the
 * text (identical input -> bit-identical output), so a kept vector is the one the model would give; a changed model
 * has another fingerprint (and its own embedder, whose cache starts empty). Callers get a copy, so nothing they do
 * to a vector reaches the next caller. Hand-written over a Map's insertion order (~20 lines): the only LRU package
 * in node_modules is an old transitive lru-cache 5, not a dependency of this project.
 */
export class QueryVectorCache {
  private readonly entries = new Map<string, Float32Array>();
  private readonly model: string;

  constructor(
    fingerprint: EmbeddingFingerprint,
    private readonly maxEntries = QUERY_CACHE_ENTRIES,
    private readonly maxChars = QUERY_CACHE_MAX_CHARS,
  ) {
    this.model = `${fingerprint.model_id}@${fingerprint.revision}/${fingerprint.dimension}/${fingerprint.normalized ? 'n' : 'r'}\n`;
  }

  /** A copy of the kept vector for `text`, now the most recently used; undefined when none is kept. */
  get(text: string): Float32Array | undefined {
    const key = this.model + text;
    const v = this.entries.get(key);
    if (v === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, v);
    return v.slice();
  }

  /** Keeps a copy of `vector` for `text` (not for a text over `maxChars`); the least recently used goes past the bound. */
  set(text: string, vector: Float32Array): void {
    if (text.length > this.maxChars || this.maxEntries < 1) return;
    const key = this.model + text;
    this.entries.delete(key);
    this.entries.set(key, vector.slice());
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }
}
