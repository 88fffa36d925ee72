// SPDX-License-Identifier: AGPL-3.0-or-later
import { ChunkMetadataSchema } from '@lectern/contracts';
import { chunkPages, reassembleChunks } from '@lectern/chunking';
import { buildChunkRecords } from './chunk-records.js';
import { documentId } from './document-ids.js';

describe('buildChunkRecords', () => {
  const pages = [
    { page_number: 14, text: 'The development provides 200 covered cycle parking spaces. '.repeat(20) },
    { page_number: 15, text: 'Visitor parking is provided at 44 spaces.' },
  ];
  const doc = {
    document_id: documentId('25/01178/REM', 'a1b2c3'.padEnd(64, '0')),
    application_ref: '25/01178/REM',
    source_file: 'Transport_Assessment.pdf',
    document_type: 'transport_assessment',
    extraction_method: 'text_layer' as const,
  };

  it('gives every chunk its spec 000 id and metadata', () => {
    const chunks = chunkPages(pages);
    const records = buildChunkRecords(doc, chunks);
    expect(records.length).toBe(chunks.length);
    expect(records[0]!.id).toBe('25_01178_REM_a1b2c3_014_000');
    records.forEach((r, i) => {
      expect(ChunkMetadataSchema.parse(r.metadata)).toEqual(r.metadata);
      expect(r.metadata.chunk_index).toBe(i);
      expect(r.metadata.total_chunks).toBe(records.length);
      expect(r.id).toBe(
        `25_01178_REM_a1b2c3_${String(chunks[i]!.first_page).padStart(3, '0')}_${String(i).padStart(3, '0')}`,
      );
    });
    const last = records[records.length - 1]!;
    expect(last.metadata.page_numbers).toMatch(/15$/);
    expect(new Set(records.map((r) => r.id)).size).toBe(records.length);
  });

  it('keeps the offsets that make reassembly exact', () => {
    const records = buildChunkRecords(doc, chunkPages(pages));
    const text = reassembleChunks(records.map((r) => ({ ...r, chunk_index: r.metadata.chunk_index })));
    expect(text.match(/cycle parking spaces/g)).toHaveLength(20);
    expect(text.endsWith('Visitor parking is provided at 44 spaces.')).toBe(true);
  });
});
