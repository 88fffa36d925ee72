// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  AppError,
  type IngestPolicyRevisionInput,
  type IngestPolicyRevisionOutput,
  type PolicyRevision,
} from '@lectern/contracts';
import {
  conversionJob,
  prepareDocument,
  readSource,
  requireText,
  runBounded,
  storeChunks,
  type IngestContext,
} from '@lectern/ingestion';
import { COUNTING_STATUSES, dateInt } from '@lectern/policy-registry';
import type { z } from 'zod';
import type { PolicyKbDeps } from './deps.js';
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
 * Spec 001 FR-005 over the shared pipeline: a registered revision's file is converted (the `conversion` job, OCR as
 * configured), split by section, embedded and stored with the revision's dates; the registry moves `processing` →
 * `active` (or `superseded` when a later revision exists) with `chunk_count`, `page_count` and `ingested_at` —
 * written last — or → `failed` with the error (its chunks removed: NFR-003, the registry never claims chunks that
 * are not there). Re-ingesting replaces the revision's chunks; `reindex` removes them before converting.
 */
export const ingestPolicyRevision = async (
  deps: PolicyKbDeps,
  input: z.input<typeof IngestPolicyRevisionInput>,
  ctx: IngestContext = {},
): Promise<IngestPolicyRevisionResult> => {
  const { source, revision_id: revisionId } = input;
  const revision = await deps.registry.getRevision(source, revisionId);
  if (!revision) throw revisionNotFound(source, revisionId);
  const file = await readSource({ path: input.file_path, roots: deps.roots, maxBytes: deps.maxDocumentBytes });

  return deps.locks.run(`${source}:${revisionId}`, async () => {
    await deps.registry.updateRevision(source, revisionId, {
      status: 'processing',
      error: null,
      file_size_bytes: file.bytes.length,
    });
    try {
      if (input.reindex) await deleteRevisionChunks(deps, source, revisionId);
      return await runBounded(ctx, { ms: deps.ingestTimeoutMs, setting: 'INGEST_TIMEOUT_S' }, async (bound) => {
        const { converted, chunks } = await prepareDocument(
          file,
          {
            convert: conversionJob(deps.conversion, { enableOcr: deps.enableOcr }),
            chunk: (result, { filename }) => {
              requireText(result, filename);
              return chunkPolicy(
                source,
                revisionId,
                result.pages.map((p) => ({ page_number: p.page_number, text: p.text })),
              );
            },
          },
          bound,
        );
        // The policy collection is internal (no project record): created on first ingest with the configured model.
        const collection =
          (await deps.store.getCollection(deps.collection)) ??
          (await deps.store.ensureCollection(deps.collection, {
            fingerprint: (await deps.embedders.configured()).fingerprint,
            hybrid: true,
          }));
        const [policy, current] = await Promise.all([
          deps.registry.getPolicy(source),
          deps.registry.getRevision(source, revisionId),
        ]);
        if (!current) throw revisionNotFound(source, revisionId); // deleted meanwhile
        await storeChunks(
          {
            store: deps.store,
            collection: deps.collection,
            fingerprint: collection.fingerprint,
            embedder: await deps.embedders.for(collection.fingerprint),
            chunks: chunks.map((c) => ({
              id: c.id,
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
            // A previous ingest's chunks of this revision (other sections) go before the new ones are written.
            beforeWrite: () => deleteRevisionChunks(deps, source, revisionId).then(() => undefined),
            record: async () => {
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
            },
            reportStoring: true,
            log: deps.log,
          },
          bound,
        );
        deps.log.info(
          { source, revision_id: revisionId, chunks: chunks.length, pages: converted.page_count },
          'policy revision ingested',
        );
        return {
          status: 'success' as const,
          source,
          revision_id: revisionId,
          chunks_created: chunks.length,
          page_count: converted.page_count,
          extraction_method: converted.method,
        };
      });
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
