import { createHash } from 'node:crypto';
import { AppError, StoreChunkSchema, type StoreChunk } from '@lectern/contracts';
import type { CollectionInfo, Hit } from '@lectern/vector-store';
import type { DocumentStoreDeps } from './deps.js';
import { isRegistryCollection } from './registry.js';

/**
 * Spec 002's generic collection tools. A "collection" is a project collection of the vector store (created
 * on first store, as that spec expects); registry collections are internal and never listed.
 */

const COLLECTION_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,49}$/;

export const listCollectionNames = async (deps: DocumentStoreDeps): Promise<string[]> =>
  (await deps.store.listCollections())
    .map((c) => c.name)
    .filter((n) => !isRegistryCollection(n))
    .sort();

/** Spec 002's exact validation messages ("Chunk 3 missing required field 'text'"). */
const validateChunks = (chunks: Record<string, unknown>[]): StoreChunk[] | string => {
  if (chunks.length === 0) return 'Validation error: chunks must be a non-empty list';
  const out: StoreChunk[] = [];
  for (const [i, raw] of chunks.entries()) {
    for (const field of ['text', 'source_filename', 'chunk_index']) {
      if (raw[field] === undefined || raw[field] === null) return `Validation error: Chunk ${i} missing required field '${field}'`;
    }
    if (typeof raw['text'] !== 'string' || raw['text'].trim() === '') return `Validation error: Chunk ${i} field 'text' must be a non-empty string`;
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
  createHash('sha256').update(`${collection}\u0000${chunk.source_filename}\u0000${chunk.chunk_index}`).digest('hex').slice(0, 32);

export const storeDocumentChunks = async (
  deps: DocumentStoreDeps,
  input: { chunks: Record<string, unknown>[]; collection: string },
) => {
  const fail = (message: string) => ({ success: false, chunks_stored: 0, collection: input.collection, message });
  if (!COLLECTION_NAME.test(input.collection) || isRegistryCollection(input.collection)) {
    return fail(`Validation error: invalid collection name '${input.collection}' (letters, digits, '_' and '-', at most 50)`);
  }
  const chunks = validateChunks(input.chunks);
  if (typeof chunks === 'string') return fail(chunks);
  let info = await deps.store.getCollection(input.collection);
  if (!info) {
    const embedder = await deps.embedders.configured();
    info = await deps.store.ensureCollection(input.collection, { fingerprint: embedder.fingerprint, hybrid: true });
  }
  const embedder = await deps.embedders.for(info.fingerprint);
  const vectors = await embedder.embedBatch(chunks.map((c) => c.text));
  const ingestionDate = (deps.now?.() ?? new Date()).getTime() / 1000;
  await deps.store.upsert(
    input.collection,
    chunks.map((c, i) => ({
      id: collectionChunkId(input.collection, c),
      vector: vectors[i] as Float32Array,
      text: c.text,
      payload: {
        source_filename: c.source_filename,
        chunk_index: c.chunk_index,
        metadata: { ...(c.metadata ?? {}), ingestion_date: ingestionDate },
      },
    })),
    { fingerprint: info.fingerprint },
  );
  return {
    success: true,
    chunks_stored: chunks.length,
    collection: input.collection,
    message: `Successfully stored ${chunks.length} chunks`,
  };
};

const toRetrieved = (hit: Hit) => {
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
    metadata,
  };
};

/**
 * Spec 002 retrieve: dense search in one collection, or across all (each collection with the model it was
 * built with; results merged by score). An unknown collection is an error (spec 002 raises on errors).
 */
export const retrieveDocumentChunks = async (
  deps: DocumentStoreDeps,
  input: { query: string; top_k: number; collection: string | null },
) => {
  if (input.query.trim() === '') throw new AppError('invalid_arguments', 'query must not be empty or whitespace');
  let targets: CollectionInfo[];
  if (input.collection !== null) {
    const info = await deps.store.getCollection(input.collection);
    if (!info || isRegistryCollection(input.collection)) {
      throw new AppError('collection_not_found', `Collection not found: ${input.collection}`, { httpStatus: 404 });
    }
    targets = [info];
  } else {
    targets = (await deps.store.listCollections()).filter((c) => !isRegistryCollection(c.name));
  }
  const hits: Hit[] = [];
  for (const target of targets) {
    const embedder = await deps.embedders.for(target.fingerprint);
    const vector = await embedder.embed(input.query);
    hits.push(...(await deps.store.searchDense(target.name, vector, { fingerprint: target.fingerprint, limit: input.top_k })));
  }
  hits.sort((a, b) => b.score - a.score);
  return { result: hits.slice(0, input.top_k).map(toRetrieved) };
};
