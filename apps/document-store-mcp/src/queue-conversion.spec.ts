// SPDX-License-Identifier: AGPL-3.0-or-later
import { conversionJobId } from '@lectern/contracts';
import { createPlatform, type ConversionService, type Platform } from '@lectern/platform';
import { numberedPdfFile, silentLogger, startRedis, testModelEnv, type TestRedis } from '@lectern/testing';
import { sha256File } from '@lectern/documents';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDocumentStore, type RunningDocumentStore } from './document-store.testkit.js';

/** A generated 3-page text-layer PDF (this suite runs without ../shared). */
const REPORT = numberedPdfFile(3, 'SASEA_Adoption_Statement_Dec_2017.pdf');

/**
 * Distributed mode: with REDIS_URL set, document-store-mcp does not convert in-process; it stages the file
 * in the blob store (Redis) and a converter worker with its own DATA_DIR converts it from the `conversion` queue
 * (real redis-server, real BullMQ worker running the converter's processor).
 */
describe('ingest_document with REDIS_URL (conversion through the queue)', () => {
  let redis: TestRedis;
  let converterPlatform: Platform;
  let worker: ConversionService;
  let ds: RunningDocumentStore;
  let converterDir: string;

  beforeAll(async () => {
    redis = await startRedis();
    ds = await startDocumentStore({ ...testModelEnv(), REDIS_URL: redis.url });
    // A converter worker as the converter app composes it: same Redis, a DATA_DIR of its own.
    converterDir = mkdtempSync(join(tmpdir(), 'lectern-converter-'));
    converterPlatform = createPlatform({ dataDir: converterDir, log: silentLogger(), redisUrl: redis.url });
    worker = converterPlatform.conversion({ workers: { embedded: 1, distributed: 1 } });
  }, 60_000);
  afterAll(async () => {
    await ds.stop();
    await converterPlatform.close();
    rmSync(converterDir, { recursive: true, force: true });
    await redis.stop();
  });

  it('ingests through a converter worker, and the same file converts once', async () => {
    const first = await ds.call('ingest_document', { file_path: REPORT, application_ref: 'QUEUE/1' });
    expect(first.body).toMatchObject({ status: 'success', extraction_method: 'text_layer' });
    const sha = await sha256File(REPORT);
    // The document store's settings are the defaults, so its job is the converter's own `POST /tasks` job.
    const job = await worker.submitter.getJob(conversionJobId(sha));
    expect(job).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(job?.payload).toMatchObject({ file: { kind: 'blob', key: expect.stringContaining(sha) }, sha256: sha });
    // the upload is deleted from the blob store once converted
    expect(await converterPlatform.blobStore().usedBytes()).toBe(0);

    // Another application ingesting the same bytes reuses the finished conversion job.
    const second = await ds.call('ingest_document', { file_path: REPORT, application_ref: 'QUEUE/2' });
    expect(second.body).toMatchObject({ status: 'success' });
    expect((await worker.submitter.getJob(conversionJobId(sha)))?.attempts).toBe(1);
  }, 120_000);
});
