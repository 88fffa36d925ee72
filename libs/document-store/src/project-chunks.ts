// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  AppError,
  isInternalCollectionName,
  CitationMetaSchema,
  type FindChunksInput,
  type FindChunksOutput,
  type InspectCollectionInput,
  type InspectCollectionOutput,
  type ListProjectsOutput,
  type ProjectRecord,
  type QueryHybridInput,
  type RetrievalResultSchema,
  type StoreChunksInput,
  type StoreChunksOutput,
} from '@lectern/contracts';
import { projectChunkId } from '@lectern/chunking';
import { runBounded, storeChunks as storeChunksStep, storedAmong, type IngestContext } from '@lectern/ingestion';
import type { Filter, Hit } from '@lectern/vector-store';
import type { z } from 'zod';
import type { DocumentStoreDeps, SearchDeps, StoreDeps } from './deps.js';
import {
  embeddingMismatch,
  listProjectRecords,
  requireProject,
  writeProjectRecord,
  type ResolvedProject,
} from './projects.js';
import { distinctText } from './search-documents.js';

type RetrievalResult = z.infer<typeof RetrievalResultSchema>;
type FindOutput = z.infer<typeof FindChunksOutput>;

/** Spec 004 FR-010's retrieval policy: the most characters a result's text keeps (a client may lower it, never raise it). */
export const DEFAULT_MAX_RESULT_CHARS = 1500;
export const ELLIPSIS = '...';

/** Spec 004's retrieval settings a server runs with. */
export interface RetrievalPolicy {
  maxResultChars: number;
}

export type ProjectChunkDeps = SearchDeps & { retrieval?: RetrievalPolicy };

/**
 * FR-010 and the "text exceeds maximum" edge case: text longer than `max` characters is cut at the last word
 * boundary that leaves room for "..." (one convention, the contract's), which is appended; shorter text is
 * returned as it is. A single word longer than the limit is cut inside the word.
 */
export const trimAtWord = (text: string, max: number): string => {
  if (text.length <= max) return text;
  const room = Math.max(1, max - ELLIPSIS.length);
  const head = text.slice(0, room + 1);
  const cut = head.search(/\s+\S*$/);
  const kept = (cut > 0 ? head.slice(0, cut) : text.slice(0, room)).trimEnd();
  return `${kept}${ELLIPSIS}`;
};

/** `(citekey, p. 3)`, `(citekey, pp. 3–5)` (en dash), or `(citekey)` without pages. */
export const citationText = (key: string, pageStart: number | null, pageEnd: number | null): string => {
  if (pageStart === null) return `(${key})`;
  if (pageEnd === null || pageEnd === pageStart) return `(${key}, p. ${pageStart})`;
  return `(${key}, pp. ${pageStart}\u2013${pageEnd})`;
};

const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : null);

/** Page span of any stored chunk: spec 004's page_start/page_end, else spec 000's page_numbers ("3,4"). */
const pageSpan = (p: Record<string, unknown>): { start: number | null; end: number | null } => {
  const start = int(p['page_start']);
  if (start !== null) return { start, end: int(p['page_end']) ?? start };
  if (typeof p['page_numbers'] === 'string' && p['page_numbers'] !== '') {
    const pages = p['page_numbers']
      .split(',')
      .map(Number)
      .filter((n) => Number.isInteger(n) && n > 0);
    if (pages.length > 0) return { start: Math.min(...pages), end: Math.max(...pages) };
  }
  return { start: null, end: null };
};

/** The document id of any stored chunk: spec 004/000's `document_id`, else spec 002's `source_filename`. */
const docIdOf = (p: Record<string, unknown>): string =>
  String(p['document_id'] ?? p['source_filename'] ?? p['source_file'] ?? '');

/** A stored chunk's payload as spec 004's RetrievalResult. Chunks of spec 000/002 writes get what they have. */
export const toRetrievalResult = (hit: Hit, maxChars: number, score: number): RetrievalResult => {
  const p = hit.payload;
  // Most chunks carry no citation: skip the parse that would fail (a failed zod parse builds an error, per hit).
  const citation =
    p['citation'] === undefined || p['citation'] === null
      ? { success: false as const }
      : CitationMetaSchema.safeParse(p['citation']);
  const meta: z.infer<typeof CitationMetaSchema> | null =
    citation.success && Object.keys(citation.data).length > 0 ? citation.data : null;
  const docId = docIdOf(p);
  const { start, end } = pageSpan(p);
  const key = meta?.citekey ?? (typeof p['source_file'] === 'string' ? p['source_file'] : docId);
  const path = Array.isArray(p['section_path'])
    ? p['section_path'].filter((s): s is string => typeof s === 'string')
    : [];
  const heading = typeof p['section_heading'] === 'string' && p['section_heading'] !== '' ? p['section_heading'] : null;
  return {
    chunk_id: hit.id,
    doc_id: docId,
    text: trimAtWord(hit.text, maxChars),
    score: Math.round(score * 10_000) / 10_000,
    page_start: start,
    page_end: end,
    section_heading: heading,
    section_path: path,
    citation: meta,
    citation_text: citationText(key, start, end),
    ...(hit.denseRank !== undefined || hit.keywordRank !== undefined
      ? { dense_rank: hit.denseRank ?? null, keyword_rank: hit.keywordRank ?? null }
      : {}),
  };
};

/** FR-008's filters: tags (any of) and document ids (any of), both at once when given. */
export const retrievalFilter = (
  filters: { tags?: string[] | undefined; doc_ids?: string[] | undefined } | undefined,
): Filter | undefined => {
  const parts: Filter[] = [];
  if (filters?.tags?.length) parts.push({ tags: { $in: filters.tags } });
  if (filters?.doc_ids?.length) parts.push({ document_id: { $in: filters.doc_ids } });
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : { $and: parts };
};

const maxCharsFor = (deps: ProjectChunkDeps, asked: number | undefined): number => {
  const policy = deps.retrieval?.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS;
  return Math.min(policy, asked ?? policy);
};

const answer = (project: string, query: string, results: RetrievalResult[]): FindOutput => ({
  status: 'success',
  project,
  query,
  results_count: results.length,
  results,
  ...(results.length === 0 ? { message: 'No chunk of this project matches the query (and filters).' } : {}),
});

const nonEmpty = (query: string): void => {
  if (query.trim() === '') throw new AppError('invalid_arguments', 'query must not be empty or whitespace');
};

/** Spec 004 find_chunks: semantic search in one project (two store calls: the collection, one search). */
/** FR-013: one record per retrieval (query, project, returned chunk ids, time), queued so the search pays no round trip. */
const auditRetrieval = (
  deps: ProjectChunkDeps,
  tool: string,
  started: number,
  input: { project: string; query: string } & Record<string, unknown>,
  collection: string,
  model: string,
  out: FindOutput,
): FindOutput => {
  const { project, query, ...parameters } = input;
  deps.audit?.queue({
    kind: 'retrieval',
    project,
    at: new Date(started).toISOString(),
    duration_ms: Date.now() - started,
    tool,
    query,
    parameters,
    collection,
    model,
    returned_chunk_ids: out.results.map((r) => r.chunk_id),
  });
  return out;
};

export const findChunks = async (
  deps: ProjectChunkDeps,
  input: z.input<typeof FindChunksInput>,
): Promise<FindOutput> => {
  const started = Date.now();
  nonEmpty(input.query);
  const { info } = await requireProject(deps, input.project);
  const embedder = await deps.embedders.for(info.fingerprint);
  const vector = await embedder.embed(input.query);
  const filter = retrievalFilter(input.filters);
  const hits = await deps.store.searchDense(info.name, vector, {
    fingerprint: info.fingerprint,
    limit: input.top_k ?? 6,
    ...(filter ? { filter } : {}),
  });
  const max = maxCharsFor(deps, input.max_chars);
  const out = answer(
    input.project,
    input.query,
    hits.map((h) => toRetrievalResult(h, max, h.score)),
  );
  return auditRetrieval(
    deps,
    'find_chunks',
    started,
    input,
    info.name,
    `${info.fingerprint.model_id}@${info.fingerprint.revision}`,
    out,
  );
};

/**
 * The keyword side's document evidence for `query_hybrid` (FusionOptions.documentEvidence, lexical.ts
 * DOCUMENT_EVIDENCE): a keyword candidate gains 0.05 x the best score of its document's other candidates, so a lone
 * section of a document about something else gives way to a document that matches in more than one section. Spec
 * 004's heading chunks are sections; chosen on planning-dev (query_hybrid nDCG@10 / hit@1 / answer@5 / MRR 0.803 /
 * 0.779 / 0.838 / 0.653 -> 0.804 / 0.809 / 0.868 / 0.662; SciFact, one chunk per abstract, unchanged by
 * construction), 0.1 lost two hit@1 questions on a seen held-out set (docs/benchmarks/retrieval.md, round 10).
 * Spec 000's search does not use it (its overlapping 800-character chunks: planning-dev hit@1 fell). Read at every
 * search (the bench overrides it; 0 turns it off).
 */
export const QUERY_HYBRID_DOCUMENT_EVIDENCE: { readonly weight: number } = { weight: 0.05 };

/**
 * Spec 004 query_hybrid: the store's fusion of BM25 and dense rankings (z-score convex combination by default),
 * ordered by the fused score, each result with both component ranks. HYBRID_NOT_SUPPORTED for a project
 * without a full-text index. A chunk whose text repeats a better-ranked one (sibling documents' boilerplate) is left
 * out, as in spec 000's search (`distinctText`): the store is asked for twice `top_k`, at most `top_k` answered.
 */
export const queryHybrid = async (
  deps: ProjectChunkDeps,
  input: z.input<typeof QueryHybridInput>,
): Promise<FindOutput> => {
  const started = Date.now();
  nonEmpty(input.query);
  const { info } = await requireProject(deps, input.project);
  if (!info.hybrid) {
    throw new AppError(
      'HYBRID_NOT_SUPPORTED',
      `Project "${input.project}" has no full-text index; use find_chunks (semantic).`,
    );
  }
  const embedder = await deps.embedders.for(info.fingerprint);
  const vector = await embedder.embed(input.query);
  const filter = retrievalFilter(input.filters);
  const topK = input.top_k ?? 6;
  const hits = await deps.store.searchHybrid(
    info.name,
    { vector, text: input.query },
    {
      fingerprint: info.fingerprint,
      limit: 2 * topK,
      documentEvidence: QUERY_HYBRID_DOCUMENT_EVIDENCE.weight,
      ...(filter ? { filter } : {}),
      ...(input.dense_weight !== undefined ? { denseWeight: input.dense_weight } : {}),
      ...(input.keyword_weight !== undefined ? { keywordWeight: input.keyword_weight } : {}),
    },
  );
  const max = maxCharsFor(deps, input.max_chars);
  const out = answer(
    input.project,
    input.query,
    distinctText(hits)
      .slice(0, topK)
      .map((h) => toRetrievalResult(h, max, h.score)),
  );
  return auditRetrieval(
    deps,
    'query_hybrid',
    started,
    input,
    info.name,
    `${info.fingerprint.model_id}@${info.fingerprint.revision}`,
    out,
  );
};

const sameModel = (a: ProjectRecord['fingerprint'], b: ProjectRecord['fingerprint']): boolean =>
  a.model_id === b.model_id && a.revision === b.revision && a.dimension === b.dimension;

/**
 * FR-020 migration without emptying anything: a new collection `<project>__v<N>` built with the new model, the
 * record switched to it, the old collection kept (listed in `previous_collections`) until `lectern rebuild --drop-old`.
 */
export const migrateProject = async (
  deps: SearchDeps,
  found: ResolvedProject,
  fingerprint: ProjectRecord['fingerprint'],
): Promise<ResolvedProject> => {
  const { record } = found;
  const used = new Set([record.collection, ...record.previous_collections]);
  let n = 2;
  while (used.has(`${record.project}__v${n}`) || (await deps.store.getCollection(`${record.project}__v${n}`))) n++;
  const collection = `${record.project}__v${n}`;
  const info = await deps.store.ensureCollection(collection, { fingerprint, hybrid: record.hybrid });
  const next: ProjectRecord = {
    ...record,
    collection,
    fingerprint: info.fingerprint,
    previous_collections: [...record.previous_collections, record.collection],
    updated_at: new Date().toISOString(),
  };
  await writeProjectRecord(deps, next);
  return { record: next, info };
};

/**
 * Spec 004 store_chunks: embed and store caller-made chunks in an existing project, with deterministic ids
 * (FR-003). The model this server writes with is compared with the project's first (FR-005): another model is
 * EMBEDDING_MISMATCH unless `migrate` — which builds a new collection and switches to it, never emptying one.
 */
export const storeChunks = async (
  deps: ProjectChunkDeps & Pick<DocumentStoreDeps, 'log'>,
  input: z.input<typeof StoreChunksInput>,
  ctx: IngestContext = {},
): Promise<z.infer<typeof StoreChunksOutput>> => {
  let found = await requireProject(deps, input.project);
  const writer = await deps.embedders.configured();
  if (!sameModel(found.record.fingerprint, writer.fingerprint)) {
    if (!input.migrate) {
      deps.log.warn(
        { project: input.project, have: found.record.fingerprint, want: writer.fingerprint },
        'store_chunks refused: embedding model mismatch',
      );
      throw embeddingMismatch(input.project, found.record.fingerprint, writer.fingerprint);
    }
    found = await migrateProject(deps, found, writer.fingerprint);
    deps.log.info(
      { project: input.project, collection: found.info.name, model: writer.fingerprint.model_id },
      'store_chunks migrated the project to a new collection',
    );
  }
  const { info } = found;
  const fp = info.fingerprint;
  const points = input.chunks.map((c) => {
    const pageStart = c.page_start ?? null;
    const pageEnd = c.page_end ?? c.page_start ?? null;
    const path = c.section_path ?? (c.section_heading ? [c.section_heading] : []);
    const id = projectChunkId({
      docId: c.doc_id,
      pageStart: pageStart ?? 0,
      pageEnd: pageEnd ?? 0,
      sectionPath: path,
      modelId: fp.model_id,
      modelRevision: fp.revision,
      chunkIndex: c.chunk_index,
    });
    return {
      id,
      text: c.text,
      payload: {
        document_id: c.doc_id,
        project: input.project,
        chunk_index: c.chunk_index,
        ...(pageStart !== null ? { page_start: pageStart } : {}),
        ...(pageEnd !== null ? { page_end: pageEnd } : {}),
        section_heading: c.section_heading ?? path[path.length - 1] ?? '',
        section_path: path,
        tags: c.tags ?? c.citation?.tags ?? [],
        origin: 'store_chunks',
        ...(c.citation ? { citation: c.citation } : {}),
      },
    };
  });
  // The tool's deadline (withDeadline) and the client's cancel arrive as ctx.signal; storeChunks stops at its next
  // boundary and removes the points this call added (chunks stored before, rewritten here, stay as written).
  await runBounded(ctx, undefined, async (bound) =>
    storeChunksStep(
      {
        store: deps.store,
        collection: info.name,
        fingerprint: fp,
        embedder: writer,
        chunks: points,
        existing: await storedAmong(
          deps.store,
          info.name,
          { document_id: { $in: [...new Set(input.chunks.map((c) => c.doc_id))] } },
          points.map((p) => p.id),
        ),
        log: deps.log,
      },
      bound,
    ),
  );
  return {
    status: 'success',
    project: input.project,
    chunks_stored: points.length,
    chunk_ids: points.map((p) => p.id),
    embedding_model: `${fp.model_id}@${fp.revision}`,
  };
};

const ABSOLUTE_PATH = /^(\/|[A-Za-z]:[\\/]|\\\\|file:)/;
/** Keys whose values are local details, never shown by inspect_collection. */
const LOCAL_KEYS = new Set(['file_path', 'references_path', 'start_offset', 'end_offset']);

/** Sample payloads without absolute paths or other local details (FR-017: nothing sensitive). */
export const redactPayload = (value: unknown): unknown => {
  if (typeof value === 'string') return ABSOLUTE_PATH.test(value) ? '[redacted]' : value;
  if (Array.isArray(value)) return value.map(redactPayload);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([k]) => !LOCAL_KEYS.has(k) && !k.startsWith('__'))
        .map(([k, v]) => [k, redactPayload(v)]),
    );
  }
  return value;
};

/** Spec 004 inspect_collection (FR-017): size, model, indexes and redacted sample payloads of a project's collection. */
export const inspectProject = async (
  deps: StoreDeps,
  input: z.input<typeof InspectCollectionInput>,
): Promise<z.infer<typeof InspectCollectionOutput>> => {
  const { info } = await requireProject(deps, input.project);
  const inspection = await deps.store.inspect(info.name, input.sample_size ?? 1);
  return {
    status: 'success',
    project: input.project,
    collection: info.name,
    points_count: inspection.pointsCount,
    documents_count: inspection.documentsCount,
    embedding_model: inspection.fingerprint,
    hybrid_enabled: inspection.hybrid,
    indexes: inspection.indexes,
    sample_payloads: inspection.samplePayloads.map((p) => redactPayload(p) as Record<string, unknown>),
  };
};

/** Spec 004 list_projects: every project (recorded, or from before records) with its collection, model and size. */
export const listProjects = async (deps: StoreDeps): Promise<z.infer<typeof ListProjectsOutput>> => {
  const [records, collections] = await Promise.all([listProjectRecords(deps.store), deps.store.listCollections()]);
  const byName = new Map(collections.map((c) => [c.name, c]));
  const names = new Set([
    ...records.map((r) => r.project),
    ...collections.map((c) => c.name).filter((n) => !isInternalCollectionName(n)),
  ]);
  const projects = [...names].sort().map((project) => {
    const record = records.find((r) => r.project === project);
    const info = byName.get(record?.collection ?? project);
    const fp = info?.fingerprint ?? record?.fingerprint;
    return {
      project,
      collection: record?.collection ?? project,
      embedding_model: fp ? `${fp.model_id}@${fp.revision}` : 'unknown',
      hybrid_enabled: info?.hybrid ?? record?.hybrid ?? false,
      points_count: info?.pointsCount ?? 0,
    };
  });
  return { status: 'success', project_count: projects.length, projects };
};
