// SPDX-License-Identifier: AGPL-3.0-or-later
import { ConversionTaskCreatedSchema, conversionJobId } from '@lectern/contracts';
import { ingestDocument, type DocumentStoreDeps } from '@lectern/document-store';
import { documentStoreDeps } from '@lectern/document-store';
import { createPlatform, type Platform } from '@lectern/platform';
import { corporaDir, silentLogger, smallReportPdf, startRedis, type TestRedis } from '@lectern/testing';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { pollTask, postFile, startConverter, type TestConverter } from './converter.testkit.js';

const REPORT = smallReportPdf();

/** The document store's use-case deps with its default settings, on the given platform. */
const documentStore = (platform: Platform): DocumentStoreDeps =>
  documentStoreDeps(platform, {
    embedding: { model: 'auto' },
    roots: [corporaDir()],
    defaultProject: 'application_docs',
    enableOcr: true,
    imageRatioThreshold: 0.7,
    maxDocumentBytes: 200 * 1024 * 1024,
    ingestTimeoutMs: 300_000,
  });

const postTask = async (converter: TestConverter): Promise<string> => {
  const response = await postFile(converter.baseUrl, '/tasks', { path: REPORT });
  expect(response.status).toBe(202);
  const { task_id } = ConversionTaskCreatedSchema.parse(await response.json());
  expect((await pollTask(converter.baseUrl, task_id)).at(-1)).toMatchObject({ status: 'succeeded' });
  return task_id;
};

/**
 * One conversion job path: the converter's `POST /tasks` and the document store's ingest submit the same
 * job (`conversionJobId` of the content), so the same file converts once whichever asks first.
 */
describe('the same file through POST /tasks and ingest_document converts once', () => {
  let sha: string;
  beforeAll(async () => {
    sha = createHash('sha256')
      .update(await readFile(REPORT))
      .digest('hex');
  });

  describe('embedded mode (one process, in-process queue)', () => {
    let converter: TestConverter;
    beforeEach(async () => {
      converter = await startConverter();
    });
    afterEach(async () => {
      await converter.close();
    });

    it('task first, then the ingest reuses its result', async () => {
      const taskId = await postTask(converter);
      expect(taskId).toBe(conversionJobId(sha));
      const ingested = await ingestDocument(documentStore(converter.services.platform), {
        file_path: REPORT,
        application_ref: 'ONCE/1',
      });
      expect(ingested).toMatchObject({ status: 'success', extraction_method: 'text_layer' });
      expect(converter.conversions()).toBe(1);
    }, 300_000);

    it('ingest first (bytes handed over in memory), then the task is the finished job', async () => {
      const ingested = await ingestDocument(documentStore(converter.services.platform), {
        file_path: REPORT,
        application_ref: 'ONCE/2',
      });
      expect(ingested).toMatchObject({ status: 'success' });
      const response = await postFile(converter.baseUrl, '/tasks', { path: REPORT });
      expect(ConversionTaskCreatedSchema.parse(await response.json())).toEqual({
        task_id: conversionJobId(sha),
        status: 'succeeded',
        deduplicated: true,
      });
      expect(converter.conversions()).toBe(1);
    }, 300_000);
  });

  describe('distributed mode (real redis-server; the document store only produces, a converter worker converts)', () => {
    let redis: TestRedis;
    let converter: TestConverter;
    let storePlatform: Platform;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(async () => {
      await redis.stop();
    });
    beforeEach(async () => {
      converter = await startConverter({ REDIS_URL: redis.url }, { redisPrefix: `once-${Date.now()}` });
    });
    afterEach(async () => {
      await storePlatform.close();
      await converter.close();
    });

    it('task first, then an ingest by a document store sharing Redis and DATA_DIR converts nothing', async () => {
      storePlatform = createPlatform({
        dataDir: converter.dataDir,
        log: silentLogger(),
        redisUrl: redis.url,
        redisPrefix: converter.redisPrefix,
      });
      await postTask(converter);
      const ingested = await ingestDocument(documentStore(storePlatform), {
        file_path: REPORT,
        application_ref: 'ONCE/3',
      });
      expect(ingested).toMatchObject({ status: 'success', extraction_method: 'text_layer' });
      expect(converter.conversions()).toBe(1);
      expect(await converter.services.conversion.submitter.getJob(conversionJobId(sha))).toMatchObject({
        status: 'succeeded',
        attempts: 1,
      });
    }, 300_000);
  });
});
