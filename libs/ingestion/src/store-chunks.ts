// SPDX-License-Identifier: AGPL-3.0-or-later
import type { EmbeddingFingerprint } from '@lectern/contracts';
import type { Embedder } from '@lectern/embedding';
import type { Logger } from '@lectern/runtime';
import type { Filter, StoredPoint, VectorStore } from '@lectern/vector-store';
import { afterAbort, checkpoint, type BoundContext } from './ingest-context.js';
import { asStorageError } from './storage-errors.js';

/** A chunk to embed and store: its point id, its text, the text embedded (default: the text) and its payload. */
export interface ChunkToStore {
  id: string;
  text: string;
  embedText?: string;
  payload: Record<string, unknown>;
}

/** What one `storeChunks` call writes, and what is per service (the record, the writes before the chunks). */
export interface StorePlan {
  store: VectorStore;
  collection: string;
  fingerprint: EmbeddingFingerprint;
  embedder: Pick<Embedder, 'embedBatch'>;
  chunks: readonly ChunkToStore[];
  /**
   * Ids whose points existed before this call: on failure they are left as written (a later run repairs them)
   * rather than removed, so a failed call never takes away what an earlier one stored.
   */
  existing?: ReadonlySet<string>;
  /** Run after embedding, before the first write (e.g. the policy ingest removes the revision's old chunks). */
  beforeWrite?: (signal: AbortSignal) => Promise<void>;
  /** The registry / revision record, written LAST: it never names chunks that are not all stored. */
  record?: (signal: AbortSignal) => Promise<void>;
  /** Prefix of the progress messages. */
  label?: string;
  /** Whether to report "storing chunks" progress (spec 000/001's ingests do). */
  reportStoring?: boolean;
  log?: Pick<Logger, 'warn'>;
}

/** Texts per embedding call: the signal is checked between calls (the embedder checks it inside one, too). */
export const EMBED_SLICE = 16;
/** Points per store write: each write is one transaction (SQLite) or one request batch (Qdrant). */
export const WRITE_SLICE = 500;

/**
 * Step two of every ingest and store: embed the chunks (in slices), write them (in slices), write the record last.
 * The signal is checked between embedding slices, before and between writes and before the record; on ANY
 * failure (error, abort, full disk) the points this call wrote are removed — and nothing else: not points that
 * existed before it (`existing`) — before the error is rethrown, a full disk as `insufficient_storage`.
 */
export const storeChunks = async (plan: StorePlan, ctx: BoundContext): Promise<void> => {
  const { signal, progress } = ctx;
  const label = plan.label ? `${plan.label}: ` : '';
  const total = plan.chunks.length;
  const written: string[] = [];
  try {
    const vectors: Float32Array[] = [];
    for (let from = 0; from < total; from += EMBED_SLICE) {
      checkpoint(signal);
      const slice = plan.chunks.slice(from, from + EMBED_SLICE);
      vectors.push(
        ...(await plan.embedder.embedBatch(
          slice.map((c) => c.embedText ?? c.text),
          {
            signal,
            onProgress: (done) =>
              void progress(from + done, total, `${label}embedded ${from + done} of ${total} chunks`),
          },
        )),
      );
    }
    checkpoint(signal);
    await plan.beforeWrite?.(signal);
    if (plan.reportStoring) await progress(total, total, `${label}storing chunks`);
    for (let from = 0; from < total; from += WRITE_SLICE) {
      checkpoint(signal);
      const slice = plan.chunks.slice(from, from + WRITE_SLICE);
      const ids = slice.map((c) => c.id);
      // Counted as written before the call: a write that fails may have stored part of its batch (Qdrant).
      written.push(...ids.filter((id) => !plan.existing?.has(id)));
      await plan.store.upsert(
        plan.collection,
        slice.map((c, i) => ({
          id: c.id,
          vector: vectors[from + i] as Float32Array,
          text: c.text,
          payload: c.payload,
        })),
        { fingerprint: plan.fingerprint, signal },
      );
    }
    checkpoint(signal);
    await plan.record?.(signal);
  } catch (error) {
    await removeWritten(plan, written);
    throw asStorageError(afterAbort(error, signal));
  }
};

/** Best effort (the store may be the failure): what could not be removed is logged; the next run replaces it. */
const removeWritten = async (plan: StorePlan, ids: readonly string[]): Promise<void> => {
  if (ids.length === 0) return;
  try {
    await plan.store.deleteByIds(plan.collection, [...ids]);
  } catch (cleanup) {
    plan.log?.warn(
      { err: cleanup, collection: plan.collection, points: ids.length },
      'could not remove the points of a failed store',
    );
  }
};

/**
 * Which of `ids` are stored already, among the points `filter` selects (e.g. the documents or files of the call):
 * a store of caller-made chunks passes them as `existing`, so a failure never removes what an earlier call stored.
 */
export const storedAmong = async (
  store: VectorStore,
  collection: string,
  filter: Filter,
  ids: Iterable<string>,
): Promise<Set<string>> => {
  const wanted = new Set(ids);
  const out = new Set<string>();
  let cursor: string | null = null;
  do {
    const page: { points: StoredPoint[]; next: string | null } = await store.scroll(collection, {
      filter,
      limit: 1000,
      cursor,
    });
    for (const p of page.points) if (wanted.has(p.id)) out.add(p.id);
    cursor = page.next;
  } while (cursor);
  return out;
};
