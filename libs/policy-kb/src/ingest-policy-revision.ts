import { basename } from 'node:path';
import {
  AppError,
  type IngestPolicyRevisionInput,
  type IngestPolicyRevisionOutput,
  type PolicyRevision,
} from '@lectern/contracts';
import { jobOptions } from '@lectern/conversion-job';
import { readDocumentFile, resolveInsideRoots } from '@lectern/documents';
import { COUNTING_STATUSES, dateInt } from '@lectern/policy-registry';
import type { z } from 'zod';
import type { PolicyKbDeps, ProgressFn } from './deps.js';
import { chunkPolicy } from './policy-chunks.js';
import { deleteRevisionChunks, syncRevisionDates } from './revision-chunks.js';

export type IngestPolicyRevisionResult = z.infer<typeof IngestPolicyRevisionOutput>;

const revisionNotFound = (source: string, revisionId: string): AppError =>
  new AppError('revision_not_found', `Revision not found: ${revisionId} for policy ${source}`, { httpStatus: 404 });

/** `active` unless a later counting revision exists (then it was superseded before it was ingested). */
const statusAfterIngest = (revision: PolicyRevision, all: readonly PolicyRevision[]): PolicyRevision['status'] =>
  revision.effective_to !== null &&
  all.some(
    (r) =>
      r.revision_id !== revision.revision_id &&
      COUNTING_STATUSES.has(r.status) &&
      r.effective_from > revision.effective_from,
  )
    ? 'superseded'
    : 'active';

/**
 * Spec 001 FR-005: a registered revision's file is converted (the `conversion` job, OCR as configured), split by
 * section, embedded in one batch and stored with the revision's dates; the registry moves `processing` →
 * `active` (or `superseded` when a later revision exists) with `chunk_count`, `page_count` and `ingested_at`,
 * or → `failed` with the error (its chunks removed: NFR-003, the registry never claims chunks that are not
 * there). Re-ingesting replaces the revision's chunks; `reindex` removes them before converting.
 */
export const ingestPolicyRevision = async (
  deps: PolicyKbDeps,
  input: z.input<typeof IngestPolicyRevisionInput>,
  progress: ProgressFn = () => undefined,
): Promise<IngestPolicyRevisionResult> => {
  const { source, revision_id: revisionId } = input;
  const revision = await deps.registry.getRevision(source, revisionId);
  if (!revision) throw revisionNotFound(source, revisionId);
  const file = await resolveInsideRoots(input.file_path, deps.roots);
  if (file.kind !== 'file') throw new AppError('file_not_found', `Not a file: ${input.file_path}`);
  const { bytes, sha256 } = await readDocumentFile(file.path, deps.roots, deps.maxDocumentBytes);

  return deps.locks.run(`${source}:${revisionId}`, async () => {
    await deps.registry.updateRevision(source, revisionId, {
      status: 'processing',
      error: null,
      file_size_bytes: bytes.length,
    });
    try {
      if (input.reindex) await deleteRevisionChunks(deps, source, revisionId);
      const signal = AbortSignal.timeout(deps.ingestTimeoutMs);
      await progress(0, undefined, 'converting');
      const converted = await deps.conversion.convert(
        { kind: 'read', path: file.path, filename: basename(file.path), bytes, sha256 },
        jobOptions({ enableOcr: deps.enableOcr }),
        {
          signal,
          onProgress: (p) =>
            void progress(p.page ?? 0, p.pages, `${p.stage} page ${p.page ?? '?'} of ${p.pages ?? '?'}`),
        },
      );
      const pages = converted.pages.map((p) => ({ page_number: p.page_number, text: p.text }));
      if (pages.every((p) => p.text.trim() === '')) {
        throw new AppError('no_content', `No text could be extracted from ${basename(file.path)}`);
      }
      const chunks = chunkPolicy(source, revisionId, pages);
      // The policy collection is internal (no project record): created on first ingest with the configured model.
      const collection =
        (await deps.store.getCollection(deps.collection)) ??
        (await deps.store.ensureCollection(deps.collection, {
          fingerprint: (await deps.embedders.configured()).fingerprint,
          hybrid: true,
        }));
      const embedder = await deps.embedders.for(collection.fingerprint);
      const vectors = await embedder.embedBatch(
        chunks.map((c) => c.text),
        { onProgress: (done, total) => void progress(done, total, `embedded ${done} of ${total} chunks`) },
      );
      if (signal.aborted)
        throw new AppError(
          'timeout',
          `Ingestion did not finish within ${Math.round(deps.ingestTimeoutMs / 1000)} s (INGEST_TIMEOUT_S)`,
        );
      const [policy, current] = await Promise.all([
        deps.registry.getPolicy(source),
        deps.registry.getRevision(source, revisionId),
      ]);
      if (!current) throw revisionNotFound(source, revisionId); // deleted meanwhile
      await deleteRevisionChunks(deps, source, revisionId); // a previous ingest's chunks (other sections) go
      await progress(chunks.length, chunks.length, 'storing chunks');
      await deps.store.upsert(
        deps.collection,
        chunks.map((c, i) => ({
          id: c.id,
          vector: vectors[i] as Float32Array,
          text: c.text,
          payload: {
            source,
            source_title: policy?.title ?? source,
            revision_id: revisionId,
            version_label: current.version_label,
            effective_from: dateInt(current.effective_from),
            effective_to: dateInt(current.effective_to),
            section_ref: c.section_ref,
            section_refs: c.section_refs,
            page_number: c.page_number,
            pages: c.pages,
            chunk_index: c.chunk_index,
            section_index: c.section_index,
            start_offset: c.start_offset,
            end_offset: c.end_offset,
          },
        })),
        { fingerprint: collection.fingerprint },
      );
      // A revision created meanwhile may have closed this one: its chunks carry the registry's dates.
      const after = await deps.registry.getRevision(source, revisionId);
      if (after && after.effective_to !== current.effective_to) await syncRevisionDates(deps, after);
      const all = await deps.registry.listRevisions(source);
      await deps.registry.updateRevision(source, revisionId, {
        status: statusAfterIngest(after ?? current, all),
        chunk_count: chunks.length,
        page_count: converted.page_count,
        ingested_at: (deps.now?.() ?? new Date()).toISOString(),
        error: null,
      });
      deps.log.info(
        { source, revision_id: revisionId, chunks: chunks.length, pages: converted.page_count },
        'policy revision ingested',
      );
      return {
        status: 'success',
        source,
        revision_id: revisionId,
        chunks_created: chunks.length,
        page_count: converted.page_count,
        extraction_method: converted.method,
      };
    } catch (error) {
      await markFailed(deps, source, revisionId, error);
      throw error;
    }
  });
};

/** The revision is `failed` with the error, and holds no chunks (best effort: the registry may be the failure). */
const markFailed = async (deps: PolicyKbDeps, source: string, revisionId: string, error: unknown): Promise<void> => {
  const message = error instanceof AppError ? `${error.code}: ${error.message}` : 'internal error';
  try {
    await deleteRevisionChunks(deps, source, revisionId);
    await deps.registry.updateRevision(source, revisionId, {
      status: 'failed',
      error: message.slice(0, 2000),
      chunk_count: 0,
    });
  } catch (cleanup) {
    deps.log.warn({ err: cleanup, source, revision_id: revisionId }, 'could not mark the policy revision failed');
  }
};
