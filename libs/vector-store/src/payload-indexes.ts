// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Payload fields the platform filters on (specs 000/001/004), indexed when a collection is created:
 * keyword fields for equality/$in, integer fields for ranges (dates are stored as integers, e.g. 20240131)
 * and ordered scrolls. The embedded adapter filters any field by scanning; Qdrant needs these indexes.
 */
export const KEYWORD_FIELDS = [
  'project',
  'tags',
  'application_ref',
  'document_id',
  'document_type',
  'source',
  'revision_id',
] as const;
export const INTEGER_FIELDS = [
  'chunk_index',
  'page_start',
  'page_end',
  'effective_from',
  'effective_to',
  'ingested_at',
] as const;
