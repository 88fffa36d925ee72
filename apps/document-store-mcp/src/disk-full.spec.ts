// SPDX-License-Identifier: AGPL-3.0-or-later
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { numberedPdfFile, testModelEnv } from '@lectern/testing';
import { startDocumentStore, type RunningDocumentStore } from './document-store.testkit.js';

// Issue 24: a real small filesystem filling mid-ingest. The vector store (CHROMA_PERSIST_DIR) lives on a tmpfs of
// its own, mounted here with mount(8): that needs root, which the tests have here and in CI (the CI job runs as root
// in its container, like this machine). Without it the test FAILS saying so — it never skips.

let mountDir = '';
let mounted = false;
let ds: RunningDocumentStore;

const freeBytes = (dir: string): number => {
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
};
const usedBytes = (dir: string): number => {
  const s = statfsSync(dir);
  return (s.blocks - s.bfree) * s.bsize;
};

beforeAll(async () => {
  mountDir = mkdtempSync(join(tmpdir(), 'lectern-disk-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', mountDir], { stdio: 'pipe' });
    mounted = true;
  } catch (error) {
    throw new Error(
      `disk-full test: could not mount a tmpfs at ${mountDir} (needs root, as in CI): ${(error as Error).message}`,
    );
  }
  ds = await startDocumentStore({ ...testModelEnv(), CHROMA_PERSIST_DIR: join(mountDir, 'vectors') });
}, 120_000);

afterAll(async () => {
  await ds?.stop();
  if (mounted) execFileSync('umount', [mountDir]);
  rmSync(mountDir, { recursive: true, force: true });
});

const search = async (query: string, applicationRef: string) =>
  (await ds.call('search_application_docs', { query, application_ref: applicationRef, max_results: 5 })).body as {
    results: unknown[];
  };

describe('a full disk while ingesting (insufficient_storage)', () => {
  it('answers insufficient_storage, leaves nothing searchable, keeps serving reads, and a retry after freeing space succeeds', async () => {
    // A first document stored normally (what reads must keep answering), then a second one to measure how much
    // the store grows per chunk once its collections exist.
    const small = await ds.call('ingest_document', {
      file_path: numberedPdfFile(5, 'disk-full-small.pdf'),
      application_ref: 'DISK/SMALL',
    });
    expect(small.body).toMatchObject({ status: 'success' });
    const before = usedBytes(mountDir);
    const measured = await ds.call('ingest_document', {
      file_path: numberedPdfFile(15, 'disk-full-measure.pdf'),
      application_ref: 'DISK/MEASURE',
    });
    expect(measured.body).toMatchObject({ status: 'success' });
    const perPage = Math.max(1024, (usedBytes(mountDir) - before) / 15);

    // The big document needs about 80 chunks (every attempt embeds them all with the bundled model: kept small);
    // leave room for about a third of it.
    const bigPages = 60;
    const needed = perPage * bigPages;
    const filler = join(mountDir, 'filler.bin');
    const fill = Math.max(0, freeBytes(mountDir) - Math.floor(needed * 0.35));
    writeFileSync(filler, Buffer.alloc(fill));
    expect(freeBytes(mountDir)).toBeLessThan(needed);

    const big = numberedPdfFile(bigPages, 'disk-full-big.pdf');
    const failed = await ds.call('ingest_document', { file_path: big, application_ref: 'DISK/BIG' });
    expect(failed.isError).toBe(true);
    expect(failed.body).toMatchObject({ status: 'error', error_type: 'insufficient_storage' });
    expect((failed.body as { message: string }).message).toContain('disk space');

    // The REST upload of the same document answers HTTP 507 with the same code.
    const body = new FormData();
    body.append('application_ref', 'DISK/REST');
    body.append('file', new Blob([readFileSync(big)], { type: 'application/pdf' }), 'disk-full-big.pdf');
    const rest = await fetch(`${ds.baseUrl}/api/documents`, { method: 'POST', body });
    expect(rest.status).toBe(507);
    expect(await rest.json()).toMatchObject({ error: { code: 'insufficient_storage' } });
    expect(await ds.deps.store.count('application_docs', { application_ref: 'DISK/REST' })).toBe(0);

    // Nothing half-written is searchable, and the registry does not know the document.
    expect((await search('quick brown fox page 55', 'DISK/BIG')).results).toEqual([]);
    expect(await ds.deps.store.count('application_docs', { application_ref: 'DISK/BIG' })).toBe(0);
    expect((await ds.call('list_ingested_documents', { application_ref: 'DISK/BIG' })).body).toMatchObject({
      document_count: 0,
    });
    // Reads keep working.
    expect((await search('quick brown fox page 4', 'DISK/SMALL')).results.length).toBeGreaterThan(0);
    expect((await ds.call('list_ingested_documents', { application_ref: 'DISK/SMALL' })).body).toMatchObject({
      document_count: 1,
    });

    // Space freed: the same call succeeds and the document is searchable.
    rmSync(filler);
    expect(freeBytes(mountDir)).toBeGreaterThan(needed);
    const retried = await ds.call('ingest_document', { file_path: big, application_ref: 'DISK/BIG' });
    expect(retried.body).toMatchObject({ status: 'success' });
    expect((await search('quick brown fox page 55', 'DISK/BIG')).results.length).toBeGreaterThan(0);
    expect(await ds.deps.store.count('application_docs', { application_ref: 'DISK/BIG' })).toBe(
      (retried.body as { chunks_created: number }).chunks_created,
    );
  }, 600_000);
});
