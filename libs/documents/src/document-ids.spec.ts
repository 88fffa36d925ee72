// SPDX-License-Identifier: AGPL-3.0-or-later
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '@lectern/contracts';
import { makeNumberedPdf } from '@lectern/testing';
import { chunkId, documentId, documentIdOfChunk, sanitizeRef, sha256File } from './document-ids.js';

const HASH = 'a1b2c3' + 'd'.repeat(58);

describe('document and chunk ids', () => {
  it('sanitizes an application reference one character for one', () => {
    expect(sanitizeRef('25/01178/REM')).toBe('25_01178_REM');
    expect(sanitizeRef(' 21/00456/OUT ')).toBe('21_00456_OUT');
    expect(sanitizeRef('PA 2024-1.b')).toBe('PA_2024_1_b');
    expect(sanitizeRef('Réf/1')).toBe('R_f_1');
    expect(sanitizeRef('😀/1')).toBe('__1');
  });

  it('rejects an empty reference', () => {
    expect(() => sanitizeRef('  ')).toThrow(AppError);
  });

  it('builds the spec 000 document id from the reference and the first six hash digits', () => {
    expect(documentId('25/01178/REM', HASH)).toBe('25_01178_REM_a1b2c3');
    expect(documentId('25/01178/REM', HASH.toUpperCase())).toBe('25_01178_REM_a1b2c3');
    expect(() => documentId('25/01178/REM', 'a1b2c3')).toThrow(/SHA-256/);
  });

  it('builds chunk ids with zero-padded page and chunk numbers', () => {
    expect(chunkId('25_01178_REM_a1b2c3', 14, 42)).toBe('25_01178_REM_a1b2c3_014_042');
    expect(chunkId('25_01178_REM_a1b2c3', 1, 0)).toBe('25_01178_REM_a1b2c3_001_000');
    expect(chunkId('25_01178_REM_a1b2c3', 1234, 1000)).toBe('25_01178_REM_a1b2c3_1234_1000');
    expect(() => chunkId('x', -1, 0)).toThrow(AppError);
    expect(() => chunkId('x', 1, 0.5)).toThrow(AppError);
  });

  it('recovers the document id from a chunk id', () => {
    expect(documentIdOfChunk('25_01178_REM_a1b2c3_014_042')).toBe('25_01178_REM_a1b2c3');
    expect(documentIdOfChunk(chunkId('A_1_000000', 1, 2))).toBe('A_1_000000');
    expect(documentIdOfChunk('X_123456_001_002')).toBe('X_123456');
    expect(() => documentIdOfChunk('25_01178_REM_a1b2c3')).toThrow(AppError);
    expect(() => documentIdOfChunk('no-chunk')).toThrow(AppError);
  });
});

describe('sha256File', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'lectern-hash-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('hashes files of every size around the 8192-byte block', async () => {
    for (const size of [0, 1, 8191, 8192, 8193, 100_000]) {
      const data = Buffer.alloc(size, 7);
      const path = join(dir, `f${size}`);
      writeFileSync(path, data);
      await expect(sha256File(path)).resolves.toBe(createHash('sha256').update(data).digest('hex'));
    }
  });

  it('hashes a multi-page PDF', async () => {
    const bytes = makeNumberedPdf(40);
    const path = join(dir, 'NPPF.pdf');
    writeFileSync(path, bytes);
    const hash = await sha256File(path);
    expect(hash).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(documentId('NPPF', hash)).toBe(`NPPF_${hash.slice(0, 6)}`);
  });

  it('fails for a missing file', async () => {
    await expect(sha256File(join(dir, 'missing.pdf'))).rejects.toThrow();
  });
});
