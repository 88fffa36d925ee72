// SPDX-License-Identifier: AGPL-3.0-or-later
import { isAppError, type StoreChunksInput, type StoreChunksOutput } from '@lectern/contracts';
import type { IngestContext } from '@lectern/ingestion';
import type { z } from 'zod';
import type { AuditDocumentSchema } from './audit.js';
import type { DocumentStoreDeps } from './deps.js';
import { storeChunks, type ProjectChunkDeps } from './project-chunks.js';
import { modelName } from './project-runs.js';
import { readProjectRecord } from './projects.js';

type Deps = ProjectChunkDeps & Pick<DocumentStoreDeps, 'log'>;
type Input = z.input<typeof StoreChunksInput>;
type Output = z.infer<typeof StoreChunksOutput>;

/** One audit document per `doc_id` of the call (the client made the chunks: no file, nothing removed). */
const auditDocuments = (input: Input, durationMs: number): Array<z.input<typeof AuditDocumentSchema>> => {
  const byDoc = new Map<string, { chunks: number; citekey: string | null }>();
  for (const c of input.chunks) {
    const d = byDoc.get(c.doc_id) ?? { chunks: 0, citekey: c.citation?.citekey ?? null };
    d.chunks += 1;
    byDoc.set(c.doc_id, d);
  }
  // One embedding batch and one upsert for the whole call: each document's duration is the call's.
  return [...byDoc].map(([docId, d]) => ({
    doc_id: docId,
    chunks: d.chunks,
    written: d.chunks,
    removed: 0,
    citekey: d.citekey,
    duration_ms: durationMs,
  }));
};

/**
 * Spec 004 FR-013 for `store_chunks`, the MCP write path: one audit record per call that wrote (chunk counts per
 * document id, the model written with, the duration), as the CLI's runs have. A call with `migrate: true` that
 * switched the project to a new collection records the migration in `steps` — also when storing then failed, since
 * the switch was written. A call refused before anything was written (unknown project, EMBEDDING_MISMATCH without
 * `migrate`) leaves no record. It wraps the use case, so the store step itself stays free of auditing.
 */
export const storeChunksAudited = async (deps: Deps, input: Input, ctx: IngestContext = {}): Promise<Output> => {
  const audit = deps.audit;
  if (!audit) return storeChunks(deps, input, ctx);
  const started = Date.now();
  const before = await readProjectRecord(deps.store, input.project);
  let out: Output | undefined;
  let failure: unknown;
  try {
    out = await storeChunks(deps, input, ctx);
  } catch (error) {
    failure = error;
  }
  const after =
    before && (failure !== undefined || out?.embedding_model !== modelName(before.fingerprint))
      ? await readProjectRecord(deps.store, input.project)
      : before;
  const migrated = before !== null && after !== null && after.collection !== before.collection;
  if (failure !== undefined && !migrated) throw failure;
  const duration = Date.now() - started;
  const steps: string[] = [];
  if (migrated) {
    steps.push(
      `migrated ${input.project} from ${before.collection} (${modelName(before.fingerprint)}) to ${after.collection} ` +
        `(${modelName(after.fingerprint)}); ${before.collection} kept`,
    );
  }
  const documents = out ? auditDocuments(input, duration) : [];
  if (out) steps.push(`stored ${out.chunks_stored} chunks of ${documents.length} documents`);
  else steps.push(`storing failed: ${isAppError(failure) ? `${failure.code}: ${failure.message}` : 'internal error'}`);
  try {
    await audit.write({
      kind: 'ingest',
      tool: 'store_chunks',
      project: input.project,
      at: new Date(started).toISOString(),
      duration_ms: duration,
      model: out?.embedding_model ?? (after ? modelName(after.fingerprint) : undefined),
      documents,
      totals: {
        documents: documents.length,
        chunks: out?.chunks_stored ?? 0,
        written: out?.chunks_stored ?? 0,
        removed: 0,
        errors: out ? 0 : 1,
      },
      steps,
      ...(after ? { collection: after.collection } : {}),
    });
  } catch (error) {
    // The chunks are stored: a failed audit write is logged, never turned into a failed store_chunks.
    deps.log.error({ err: error, project: input.project }, 'store_chunks: the audit record could not be written');
  }
  if (failure !== undefined) throw failure;
  return out as Output;
};
