// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError, type ExtractionTiming, type ExtractorKind } from '@lectern/contracts';
import type { Logger } from '@lectern/runtime';
import type { PdfPages } from '@lectern/conversion';
import { chunkReader, docValidate, type ChunkReader } from '../doc-tool-calls.js';
import type { DocToolsClient } from '../doc-tools-client.js';
import { fieldName, getAt, setAt, schemaFields } from '../schema-fields.js';
import { verifyEvidence, type VerifiedEvidence } from './verify-evidence.js';

/** What a field whose evidence check threw says (the error itself is in the server log). */
export const VERIFY_FAILED =
  'could not be verified: an internal error occurred while checking its evidence (the server log has the details); it is returned as null';

export interface ExtractionOutcome {
  data: Record<string, unknown>;
  evidence: Record<string, unknown>;
  warnings: string[];
  timing: ExtractionTiming;
  extractor: ExtractorKind;
  counts: { values: number; grounded: number };
}

export interface FinalizeInput {
  tools: DocToolsClient;
  indexId: string;
  schema: Record<string, unknown>;
  data: Record<string, unknown>;
  claimedEvidence: Record<string, unknown>;
  originalFile: string;
  extractor: ExtractorKind;
  /** Seconds measured by the caller. */
  indexSeconds: number;
  startedAt: bigint;
  signal?: AbortSignal | undefined;
  /** Reads the evidence chunks (default: a reader of its own); the extractor's, so a chunk it read is not read again. */
  read?: ChunkReader | undefined;
  /** Warnings the extractor itself raised. */
  warnings?: string[];
  /** The task's document when it is a PDF: evidence is located on its pages (page, quads). */
  pages?: PdfPages | undefined;
  /** Where a field's failed evidence check is logged (its error is never sent to the client). */
  log?: Pick<Logger, 'error'> | undefined;
}

/**
 * Section 12's guarantees for every result, whichever extractor ran: the data normalised by
 * `json_validate_and_normalize` and cut to exactly the schema's keys (null where missing), every non-null value's
 * evidence verified in the document, null evidence for nulls, all warnings, `data.original_file`, measured timing.
 */
export const finalizeResult = async (input: FinalizeInput): Promise<ExtractionOutcome> => {
  const fields = schemaFields(input.schema);
  const validation = await docValidate(input.tools, input.data, input.schema, input.signal);
  const data: Record<string, unknown> = { original_file: input.originalFile };
  for (const field of fields) setAt(data, field.path, getAt(validation.normalized, field.path) ?? null);
  const read = input.read ?? chunkReader(input.tools, input.indexId, input.signal);
  // field by field: a check that throws on one field's evidence (a bug, the page search) costs that field, not the
  // task; a cancelled task and a doc tool's error still fail it (per-field isolation, round 8)
  const verified: VerifiedEvidence = { evidence: {}, warnings: [], counts: { values: 0, grounded: 0 } };
  for (const field of fields) {
    let one: VerifiedEvidence;
    try {
      one = await verifyEvidence([field], data, input.claimedEvidence, read, { pages: input.pages });
    } catch (error) {
      if (input.signal?.aborted || error instanceof AppError) throw error;
      input.log?.error({ err: error, field: fieldName(field.path) }, 'the evidence check of a field failed');
      setAt(data, field.path, null);
      setAt(verified.evidence, field.path, { locator: null, snippet: null, warning: VERIFY_FAILED });
      verified.warnings.push(`Field '${fieldName(field.path)}' ${VERIFY_FAILED}`);
      continue;
    }
    setAt(verified.evidence, field.path, getAt(one.evidence, field.path));
    verified.warnings.push(...one.warnings);
    verified.counts.values += one.counts.values;
    verified.counts.grounded += one.counts.grounded;
  }
  const validationWarnings = validation.warnings.filter((w) => !/\bis null\b|\bmissing\b/i.test(w));
  const errors = validation.errors.map((e) => (typeof e === 'string' ? e : JSON.stringify(e)));
  const warnings = [...new Set([...(input.warnings ?? []), ...errors, ...validationWarnings, ...verified.warnings])];
  const total = Number(process.hrtime.bigint() - input.startedAt) / 1e9;
  const round = (s: number) => Math.round(s * 1000) / 1000;
  return {
    data,
    evidence: verified.evidence,
    warnings,
    timing: {
      total_seconds: round(total),
      index_seconds: round(input.indexSeconds),
      extraction_seconds: round(Math.max(0, total - input.indexSeconds)),
    },
    extractor: input.extractor,
    counts: verified.counts,
  };
};
