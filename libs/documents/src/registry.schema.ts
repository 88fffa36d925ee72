// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { ExtractionMethodSchema } from '@lectern/contracts';

/**
 * One document in a project's registry: spec 000 FR-008's registry metadata (`file_path`, `file_hash`,
 * `application_ref`, `document_type`, `chunk_count`, `ingested_at`, `extraction_method`,
 * `contains_drawings`) plus its `document_id` and `source_file` (the file name shown in search results).
 */
export const RegistryEntrySchema = z.object({
  document_id: z.string().min(1),
  file_path: z.string().min(1),
  source_file: z.string().min(1),
  file_hash: z.string().regex(/^[0-9a-f]{64}$/, 'a lower-case SHA-256 hex digest'),
  application_ref: z.string().min(1),
  document_type: z.string().min(1),
  chunk_count: z.number().int().nonnegative(),
  ingested_at: z.iso.datetime({ offset: true }).describe('ISO-8601 with offset, e.g. "2026-02-14T10:30:00+00:00".'),
  extraction_method: ExtractionMethodSchema,
  contains_drawings: z.boolean(),
});
export type RegistryEntry = z.infer<typeof RegistryEntrySchema>;

/**
 * A project's document registry (spec 000 `document_registry`). Written **last** in an ingest, after the
 * chunks are stored, so an entry always means "all its chunks are in the store".
 */
export interface DocumentRegistry {
  /** The entry of a document id, if registered. */
  get(documentId: string): Promise<RegistryEntry | undefined>;
  /** Idempotency (spec 000 NFR-002): the entry for this file content under this application, if any. */
  findByHash(applicationRef: string, fileHash: string): Promise<RegistryEntry | undefined>;
  /** Every entry of an application (spec 000 FR-004), in ingestion order. */
  listByApplication(applicationRef: string): Promise<RegistryEntry[]>;
  /** Every entry (for the registry/store consistency check). */
  listAll(): Promise<RegistryEntry[]>;
  /** Insert or replace the entry with this `document_id`. */
  put(entry: RegistryEntry): Promise<void>;
  /** Remove an entry; false when there was none. */
  delete(documentId: string): Promise<boolean>;
}

/**
 * `ingested_at` as the spec writes it: UTC, whole seconds, `+00:00` offset
 * (Python's `datetime.now(timezone.utc).isoformat(timespec="seconds")`).
 */
export function formatIngestedAt(date: Date = new Date()): string {
  if (Number.isNaN(date.getTime())) throw new RangeError('invalid date');
  return `${date.toISOString().slice(0, 19)}+00:00`;
}
