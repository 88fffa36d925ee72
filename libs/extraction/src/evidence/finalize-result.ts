// SPDX-License-Identifier: AGPL-3.0-or-later
import type { ExtractionTiming, ExtractorKind } from '@lectern/contracts';
import type { PdfPages } from '@lectern/conversion';
import { chunkReader, docValidate, type ChunkReader } from '../doc-tool-calls.js';
import type { DocToolsClient } from '../doc-tools-client.js';
import { getAt, setAt, schemaFields } from '../schema-fields.js';
import { verifyEvidence } from './verify-evidence.js';

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
  const verified = await verifyEvidence(
    fields,
    data,
    input.claimedEvidence,
    input.read ?? chunkReader(input.tools, input.indexId, input.signal),
    { pages: input.pages },
  );
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
