// SPDX-License-Identifier: AGPL-3.0-or-later
import { createHash } from 'node:crypto';
import {
  AppError,
  PROJECT_ID_MAX_LENGTH,
  isInternalCollectionName,
  ProjectIdSchema,
  StoreChunkSchema,
  type RetrieveDocumentChunksInput,
  type RetrieveDocumentChunksOutput,
  type StoreChunk,
  type StoreDocumentChunksOutput,
} from '@lectern/contracts';
import { runBounded, storeChunks, storedAmong, type IngestContext } from '@lectern/ingestion';
import type { CollectionInfo, Hit } from '@lectern/vector-store';
import type { z } from 'zod';
import type { DocumentStoreDeps, SearchDeps, StoreDeps } from './deps.js';
import { CLIENT_CHUNKING, ensureProject, listProjectRecords, resolveProject } from './projects.js';

/**
 * Spec 002's generic collection tools. A "collection" is a project collection of the vector store (created
 * on first store, as that spec expects); registry collections are internal and never listed.
 */

/** Every project: those with a record, and collections from before records (named after their project). */
export const listCollectionNames = async (deps: Pick<StoreDeps, 'store'>): Promise<string[]> => {
  const [records, physical] = await Promise.all([listProjectRecords(deps.store), deps.store.listCollections()]);
  const names = new Set([
    ...records.map((r) => r.project),
    ...physical.map((c) => c.name).filter((n) => !isInternalCollectionName(n)),
  ]);
  return [...names].sort();
};

/** Spec 002's exact validation messages ("Chunk 3 missing required field 'text'"). */
const validateChunks = (chunks: Record<string, unknown>[]): StoreChunk[] | string => {
  if (chunks.length === 0) return 'Validation error: chunks must be a non-empty list';
  const out: StoreChunk[] = [];
  for (const [i, raw] of chunks.entries()) {
    for (const field of ['text', 'source_filename', 'chunk_index']) {
      if (raw[field] === undefined || raw[field] === null)
        return `Validation error: Chunk ${i} missing required field '${field}'`;
    }
    if (typeof raw['text'] !== 'string' || raw['text'].trim() === '')
      return `Validation error: Chunk ${i} field 'text' must be a non-empty string`;
    if (typeof raw['source_filename'] !== 'string' || raw['source_filename'] === '') {
      return `Validation error: Chunk ${i} field 'source_filename' must be a non-empty string`;
    }
    if (!Number.isInteger(raw['chunk_index']) || (raw['chunk_index'] as number) < 0) {
      return `Validation error: Chunk ${i} field 'chunk_index' must be a non-negative integer`;
    }
    const parsed = StoreChunkSchema.safeParse(raw);
    if (!parsed.success) return `Validation error: Chunk ${i} field 'metadata' must be an object`;
    out.push(parsed.data);
  }
  return out;
};

const collectionChunkId = (collection: string, chunk: StoreChunk): string =>
  createHash('sha256')
    .update(`${collection}\u0000${chunk.source_filename}\u0000${chunk.chunk_index}`)
    .digest('hex')
    .slice(0, 32);

/**
 * Spec 002 store_document_chunks over the shared `storeChunks` step: validated as spec 002 words it, embedded and
 * upserted with deterministic ids, bounded by INGEST_TIMEOUT_S and the caller's signal; on any failure the points
 * this call added are removed (points it overwrote stay, as written).
 */
export const storeDocumentChunks = async (
  deps: SearchDeps & Pick<DocumentStoreDeps, 'ingestTimeoutMs' | 'log'>,
  input: { chunks: Record<string, unknown>[]; collection: string },
  ctx: IngestContext = {},
): Promise<z.infer<typeof StoreDocumentChunksOutput>> => {
  const fail = (message: string) => ({ success: false, chunks_stored: 0, collection: input.collection, message });
  if (!ProjectIdSchema.safeParse(input.collection).success) {
    return fail(
      `Validation error: invalid collection name '${input.collection}' (letters, digits, '_' and '-', at most ${PROJECT_ID_MAX_LENGTH})`,
    );
  }
  const chunks = validateChunks(input.chunks);
  if (typeof chunks === 'string') return fail(chunks);
  await runBounded(ctx, { ms: deps.ingestTimeoutMs, setting: 'INGEST_TIMEOUT_S', what: 'Storing' }, async (bound) => {
    const { info } = await ensureProject(deps, input.collection, { chunking: CLIENT_CHUNKING });
    const ingestionDate = (deps.now?.() ?? new Date()).getTime() / 1000;
    const points = chunks.map((c) => ({
      id: collectionChunkId(input.collection, c),
      text: c.text,
      payload: {
        source_filename: c.source_filename,
        chunk_index: c.chunk_index,
        metadata: { ...(c.metadata ?? {}), ingestion_date: ingestionDate },
      },
    }));
    const filenames = [...new Set(chunks.map((c) => c.source_filename))];
    await storeChunks(
      {
        store: deps.store,
        collection: info.name,
        fingerprint: info.fingerprint,
        embedder: await deps.embedders.for(info.fingerprint),
        chunks: points,
        existing: await storedAmong(
          deps.store,
          info.name,
          { source_filename: { $in: filenames } },
          points.map((p) => p.id),
        ),
        log: deps.log,
      },
      bound,
    );
  });
  return {
    success: true,
    chunks_stored: chunks.length,
    collection: input.collection,
    message: `Successfully stored ${chunks.length} chunks`,
  };
};

const toRetrieved = (hit: Hit, rank: number) => {
  const p = hit.payload;
  const metadata =
    typeof p['metadata'] === 'object' && p['metadata'] !== null
      ? (p['metadata'] as Record<string, unknown>)
      : Object.fromEntries(Object.entries(p).filter(([k]) => !['source_filename', 'chunk_index'].includes(k)));
  return {
    text: hit.text,
    source_filename: String(p['source_filename'] ?? p['source_file'] ?? ''),
    chunk_index: Number(p['chunk_index'] ?? 0),
    score: Math.round(hit.score * 10_000) / 10_000,
    rank_score: Math.round(rank * 10_000) / 10_000,
    metadata,
  };
};

/** How spec 002's retrieve ranks: hybrid (default) or dense only (RETRIEVE_SEARCH_MODE=dense). */
export type RetrieveMode = 'hybrid' | 'dense';

/**
 * Spec 002 retrieve: in one collection (two store calls: the collection, one search) or across all (each
 * collection searched with the model it was built with). Hybrid by default — BM25 and dense fused, the
 * ranking spec 000's search uses — with `score` still the spec's similarity (the chunk's cosine) and the list
 * ordered by `rank_score`, the fused score each result reports; dense only when the server is configured so. Across collections, hits are merged by the ranking score (fused scores
 * are z-score based, so comparable across lists). An unknown collection is an error (spec 002 raises).
 */
export const retrieveDocumentChunks = async (
  deps: SearchDeps & { retrieveMode?: RetrieveMode },
  input: z.input<typeof RetrieveDocumentChunksInput>,
): Promise<z.infer<typeof RetrieveDocumentChunksOutput>> => {
  if (input.query.trim() === '') throw new AppError('invalid_arguments', 'query must not be empty or whitespace');
  const topK = input.top_k ?? 5;
  const name = input.collection ?? null;
  const hybrid = deps.retrieveMode !== 'dense';
  const ranked: Array<{ rank: number; hit: Hit }> = [];
  // Hybrid hits are ranked by the fused score; spec 002's `score` stays the chunk's cosine.
  const asCosine = (hit: Hit, fused: boolean) => ({
    rank: hit.score,
    hit: fused ? { ...hit, score: hit.denseScore ?? 0 } : hit,
  });
  if (name !== null) {
    // One collection: two store calls (the collection, one search).
    const target = ProjectIdSchema.safeParse(name).success ? (await resolveProject(deps, name))?.info : undefined;
    if (!target) throw new AppError('collection_not_found', `Collection not found: ${name}`, { httpStatus: 404 });
    const vector = await (await deps.embedders.for(target.fingerprint)).embed(input.query);
    const opts = { fingerprint: target.fingerprint, limit: topK };
    const fused = hybrid && target.hybrid;
    const found = fused
      ? await deps.store.searchHybrid(target.name, { vector, text: input.query }, opts)
      : await deps.store.searchDense(target.name, vector, opts);
    ranked.push(...found.map((hit) => asCosine(hit, fused)));
  } else {
    // Every project's current collection — from the records (a rebuilt project's collection is not its name) and
    // collections from before records — then one multi-collection search: three store calls, however many projects.
    const [records, physical] = await Promise.all([listProjectRecords(deps.store), deps.store.listCollections()]);
    const byName = new Map(physical.map((c) => [c.name, c]));
    const recorded = new Set(records.map((r) => r.project));
    const targets: CollectionInfo[] = [
      ...records.flatMap((r) => byName.get(r.collection) ?? []),
      ...physical.filter((c) => !isInternalCollectionName(c.name) && !recorded.has(c.name)),
    ];
    const vectors = new Map<string, Float32Array>(); // one query embedding per model
    for (const t of targets) {
      const key = `${t.fingerprint.model_id}@${t.fingerprint.revision}`;
      if (!vectors.has(key)) vectors.set(key, await (await deps.embedders.for(t.fingerprint)).embed(input.query));
    }
    const found = await deps.store.searchMany(
      targets.map((t) => ({
        name: t.name,
        fingerprint: t.fingerprint,
        vector: vectors.get(`${t.fingerprint.model_id}@${t.fingerprint.revision}`) ?? [],
        ...(hybrid && t.hybrid ? { text: input.query } : {}),
      })),
      { limit: topK },
    );
    const fusedNames = new Set(targets.filter((t) => hybrid && t.hybrid).map((t) => t.name));
    ranked.push(...found.map((hit) => asCosine(hit, fusedNames.has(hit.collection))));
  }
  ranked.sort((a, b) => b.rank - a.rank);
  return { result: ranked.slice(0, topK).map((r) => toRetrieved(r.hit, r.rank)) };
};
