// SPDX-License-Identifier: AGPL-3.0-or-later
import { setTimeout as sleep } from 'node:timers/promises';
import { numberedPdfFile } from '@lectern/testing';
import { storeDocumentChunks } from '@lectern/document-store';
import type { Filter } from '@lectern/vector-store';
import { startDocumentStore, type RunningDocumentStore } from './document-store.testkit.js';

// Issue 24: a client that cancels (MCP notifications/cancelled, sent by the SDK client when the signal given to
// callTool aborts) and a deadline that passes, during ingest_document, store_document_chunks and store_chunks: no
// write of the call lands after the answer, and the server's CPU returns to idle (the work stopped rather than
// running on unseen). The servers run in this process, so process.cpuUsage() is theirs (worker threads included).
// Clients use the legacy SSE transport: its session carries notifications/cancelled to the request's handler.

/** CPU seconds (all threads of this process) used over `ms` of wall time. */
const cpuSecondsOver = async (ms: number): Promise<number> => {
  const before = process.cpuUsage();
  await sleep(ms);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1e6;
};

/**
 * Whether the server comes back to idle (under a quarter of a core over a second) within `seconds`: a work that
 * went on unseen would keep a core busy for minutes (the payloads below take that long to embed).
 */
const returnsToIdle = async (seconds = 45): Promise<boolean> => {
  for (let i = 0; i < seconds; i++) if ((await cpuSecondsOver(1000)) < 0.25) return true;
  return false;
};

const WORDS = (
  'river bridge harbour meadow orchard quarry tunnel viaduct station chapel granary mill lock weir ' +
  'terrace crescent avenue market square garden spring valley ridge fen moor heath copse'
).split(' ');
/** A distinct text of about `chars` characters (nothing is cached between chunks). */
const textOf = (i: number, chars: number): string => {
  const out: string[] = [`Chunk ${i}.`];
  for (let k = 0; out.join(' ').length < chars; k++) out.push(WORDS[(i * 13 + k * 7) % WORDS.length] ?? 'word');
  return out.join(' ');
};
/** Minutes of embedding on a busy machine, tens of seconds on a fast one: longer than every deadline below. */
const CHUNKS = 3000;
const spec002Chunks = (file: string) =>
  Array.from({ length: CHUNKS }, (_, i) => ({ text: textOf(i, 1500), source_filename: file, chunk_index: i }));
const spec004Chunks = (docId: string) =>
  Array.from({ length: CHUNKS }, (_, i) => ({ doc_id: docId, text: textOf(i, 1500), chunk_index: i }));

const pointsIn = async (ds: RunningDocumentStore, collection: string, filter?: Filter): Promise<number> =>
  (await ds.deps.store.getCollection(collection)) ? ds.deps.store.count(collection, filter) : 0;

/** After the answer: the work stops, and the collection holds nothing of the call, then and a while later. */
const expectNothingLanded = async (count: () => Promise<number>, baseline: number) => {
  expect(await returnsToIdle()).toBe(true);
  const afterAnswer = await count();
  await sleep(1500);
  expect(await count()).toBe(afterAnswer);
  expect(afterAnswer).toBe(baseline);
};

const BIG_PDF_PAGES = 400;

describe('cancellation: a client that cancels (notifications/cancelled)', () => {
  let ds: RunningDocumentStore;
  beforeAll(async () => {
    ds = await startDocumentStore({}, 'sse');
    // The project store_chunks writes to (it must exist): one chunk, the baseline of its count.
    const made = await ds.call('store_document_chunks', {
      collection: 'cancel_project',
      chunks: [{ text: 'A chunk stored before the cancelled call.', source_filename: 'before.txt', chunk_index: 0 }],
    });
    expect(made.structured).toMatchObject({ success: true });
  }, 120_000);
  afterAll(() => ds.stop());

  it('ingest_document cancelled while embedding: no chunk and no registry entry, the server idle', async () => {
    const file = numberedPdfFile(BIG_PDF_PAGES, 'cancel-ingest.pdf');
    const controller = new AbortController();
    const call = ds.client.callTool(
      { name: 'ingest_document', arguments: { file_path: file, application_ref: 'CANCEL/1' } },
      undefined,
      {
        signal: controller.signal,
        timeout: 600_000,
        // Cancelled once embedding has begun (conversion done): the pipeline must stop between batches.
        onprogress: (p) => {
          if (p.message?.includes('embedded')) controller.abort();
        },
      },
    );
    await expect(call).rejects.toThrow();
    expect(controller.signal.aborted).toBe(true);
    await expectNothingLanded(() => pointsIn(ds, 'application_docs', { application_ref: 'CANCEL/1' }), 0);
    const listed = await ds.call('list_ingested_documents', { application_ref: 'CANCEL/1' });
    expect(listed.body).toMatchObject({ document_count: 0 });
  }, 300_000);

  /** The call, cancelled by its client 3 s after it was sent (well within its minutes of work). */
  const cancelledAfter3s = async (name: string, args: Record<string, unknown>) => {
    const controller = new AbortController();
    const call = ds.client.callTool({ name, arguments: args }, undefined, {
      signal: controller.signal,
      timeout: 600_000,
    });
    await sleep(3000);
    controller.abort();
    await expect(call).rejects.toThrow();
  };

  it('store_document_chunks cancelled: no chunk of the call is stored, the server idle', async () => {
    await cancelledAfter3s('store_document_chunks', { collection: 'cancel_spec002', chunks: spec002Chunks('big.txt') });
    await expectNothingLanded(() => pointsIn(ds, 'cancel_spec002'), 0);
  }, 300_000);

  it('store_chunks cancelled: the project keeps only what it had, the server idle', async () => {
    await cancelledAfter3s('store_chunks', { project: 'cancel_project', chunks: spec004Chunks('doc_cancelled') });
    await expectNothingLanded(() => pointsIn(ds, 'cancel_project'), 1);
  }, 300_000);
});

describe('cancellation: a deadline that passes', () => {
  let ds: RunningDocumentStore;
  beforeAll(async () => {
    // INGEST_TIMEOUT_S bounds ingest_document and store_document_chunks; TOOL_TIMEOUT_S (8-15 s) the spec 004 tools.
    ds = await startDocumentStore({ INGEST_TIMEOUT_S: '1', TOOL_TIMEOUT_S: '8' }, 'sse');
    // The project store_chunks writes to, made by the use case itself without the 1 s deadline (loading the model
    // alone may take longer on a busy machine).
    const made = await storeDocumentChunks(
      { ...ds.deps, ingestTimeoutMs: 600_000 },
      {
        collection: 'deadline_project',
        chunks: [
          { text: 'A chunk stored before the call that timed out.', source_filename: 'before.txt', chunk_index: 0 },
        ],
      },
    );
    expect(made).toMatchObject({ success: true });
  }, 120_000);
  afterAll(() => ds.stop());

  it('ingest_document past INGEST_TIMEOUT_S answers timeout; nothing of it stays, the server idle', async () => {
    const file = numberedPdfFile(BIG_PDF_PAGES, 'deadline-ingest.pdf');
    const answer = await ds.call('ingest_document', { file_path: file, application_ref: 'DEADLINE/1' });
    expect(answer.isError).toBe(true);
    expect(answer.body).toMatchObject({ status: 'error', error_type: 'timeout' });
    await expectNothingLanded(() => pointsIn(ds, 'application_docs', { application_ref: 'DEADLINE/1' }), 0);
    const listed = await ds.call('list_ingested_documents', { application_ref: 'DEADLINE/1' });
    expect(listed.body).toMatchObject({ document_count: 0 });
  }, 300_000);

  it('store_document_chunks past INGEST_TIMEOUT_S answers success false naming the timeout; nothing stored', async () => {
    const answer = await ds.call('store_document_chunks', {
      collection: 'deadline_spec002',
      chunks: spec002Chunks('big.txt'),
    });
    expect(answer.structured).toMatchObject({ success: false, chunks_stored: 0 });
    expect(String((answer.structured as { message: string }).message)).toContain('timeout');
    await expectNothingLanded(() => pointsIn(ds, 'deadline_spec002'), 0);
  }, 300_000);

  it('store_chunks past TOOL_TIMEOUT_S answers TIMEOUT; the project keeps only what it had', async () => {
    const answer = await ds.call('store_chunks', { project: 'deadline_project', chunks: spec004Chunks('doc_late') });
    expect(answer.isError).toBe(true);
    expect(answer.body).toMatchObject({ status: 'error', error_type: 'TIMEOUT' });
    await expectNothingLanded(() => pointsIn(ds, 'deadline_project'), 1);
  }, 300_000);
});
