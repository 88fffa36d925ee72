// SPDX-License-Identifier: AGPL-3.0-or-later
import type { ChunkMetadata, ExtractionMethod } from '@lectern/contracts';
import type { PageChunk } from '@lectern/chunking';
import { chunkId } from './document-ids.js';

/** What every chunk of one document shares (spec 000 FR-008 chunk metadata). */
export interface ChunkedDocument {
  document_id: string;
  application_ref: string;
  source_file: string;
  document_type: string;
  extraction_method: ExtractionMethod;
}

/** A chunk ready to embed and store: spec 000's id, text and metadata, plus its offsets for reassembly. */
export interface ChunkRecord {
  /** `{document_id}_{first_page:03d}_{chunk_index:03d}`. */
  id: string;
  text: string;
  metadata: ChunkMetadata;
  /** Offsets in the document text (see `chunkPages`); store them so `reassembleChunks` is exact. */
  start_offset: number;
  end_offset: number;
}

/** The FR-008 records of a document's chunks (ids from each chunk's first page and its index). */
export function buildChunkRecords(doc: ChunkedDocument, chunks: readonly PageChunk[]): ChunkRecord[] {
  return chunks.map((c) => ({
    id: chunkId(doc.document_id, c.first_page, c.chunk_index),
    text: c.text,
    metadata: {
      application_ref: doc.application_ref,
      document_id: doc.document_id,
      source_file: doc.source_file,
      document_type: doc.document_type,
      page_numbers: c.page_numbers,
      chunk_index: c.chunk_index,
      total_chunks: chunks.length,
      extraction_method: doc.extraction_method,
      char_count: c.char_count,
      word_count: c.word_count,
    },
    start_offset: c.start_offset,
    end_offset: c.end_offset,
  }));
}
