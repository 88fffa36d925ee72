// SPDX-License-Identifier: AGPL-3.0-or-later
import { formatIngestedAt, RegistryEntrySchema } from './registry.schema.js';

const entry = {
  document_id: '25_01178_REM_a1b2c3',
  file_path: '/data/raw/25_01178_REM/Transport_Assessment.pdf',
  source_file: 'Transport_Assessment.pdf',
  file_hash: 'a1b2c3' + '0'.repeat(58),
  application_ref: '25/01178/REM',
  document_type: 'transport_assessment',
  chunk_count: 68,
  ingested_at: '2026-02-14T10:30:00+00:00',
  extraction_method: 'text_layer',
  contains_drawings: false,
};

describe('RegistryEntrySchema', () => {
  it('accepts a spec 000 registry entry', () => {
    expect(RegistryEntrySchema.parse(entry)).toEqual(entry);
  });

  it.each([
    ['ingested_at without offset', { ingested_at: '2026-02-14T10:30:00' }],
    ['ingested_at not a date', { ingested_at: 'yesterday' }],
    ['upper-case hash', { file_hash: 'A'.repeat(64) }],
    ['short hash', { file_hash: 'a1b2c3' }],
    ['negative chunk count', { chunk_count: -1 }],
    ['unknown extraction method', { extraction_method: 'magic' }],
    ['missing source_file', { source_file: undefined }],
  ])('rejects %s', (_name, change) => {
    expect(RegistryEntrySchema.safeParse({ ...entry, ...change }).success).toBe(false);
  });

  it('accepts other offsets and fractional seconds', () => {
    expect(RegistryEntrySchema.safeParse({ ...entry, ingested_at: '2026-02-14T11:30:00.123+01:00' }).success).toBe(
      true,
    );
  });
});

describe('formatIngestedAt', () => {
  it('writes UTC with whole seconds and a +00:00 offset, as the spec example', () => {
    expect(formatIngestedAt(new Date(Date.UTC(2026, 1, 14, 10, 30, 0, 999)))).toBe('2026-02-14T10:30:00+00:00');
    expect(RegistryEntrySchema.shape.ingested_at.safeParse(formatIngestedAt()).success).toBe(true);
    expect(() => formatIngestedAt(new Date('nope'))).toThrow(RangeError);
  });
});
