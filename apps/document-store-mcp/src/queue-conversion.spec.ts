import { conversionQueue, type ConversionJobPayload, type ConversionJobResult } from '@lectern/contracts';
import { closeConversionPool, convertDocument } from '@lectern/conversion';
import { closeRedis, connectRedis, createBullmqQueue, createConversionProcessor, type JobQueue, type RedisConnection } from '@lectern/queue';
import { corpusFile, silentLogger, startRedis, type TestRedis } from '@lectern/testing';
import { sha256File } from '@lectern/documents';
import { startDocumentStore, type RunningDocumentStore } from './document-store.testkit.js';

const REPORT = corpusFile(
  'uk-planning-policy',
  'dataset',
  'Coventry',
  '4. Adopted City Centre Area Action Plan (2011 to 2031)',
  'SASEA_Adoption_Statement_Dec_2017.pdf',
);

/**
 * Distributed mode: with REDIS_URL set, document-store-mcp does not convert in-process; it stages the file
 * in the shared DATA_DIR and a converter worker converts it from the `conversion` queue (real redis-server,
 * real BullMQ worker running the converter's processor).
 */
describe('ingest_document with REDIS_URL (conversion through the queue)', () => {
  let redis: TestRedis;
  let connection: RedisConnection;
  let worker: JobQueue<ConversionJobPayload, ConversionJobResult>;
  let ds: RunningDocumentStore;

  beforeAll(async () => {
    redis = await startRedis();
    ds = await startDocumentStore({ REDIS_URL: redis.url });
    connection = connectRedis(redis.url);
    worker = createBullmqQueue({ definition: conversionQueue, connection, logger: silentLogger() });
    worker.process(createConversionProcessor({ dataDir: ds.dataDir, convert: convertDocument }));
  }, 60_000);
  afterAll(async () => {
    await ds.stop();
    await worker.close();
    await closeRedis(connection);
    await redis.stop();
    // The worker above converted in this process: end its mupdf worker threads too.
    await closeConversionPool();
  });

  it('ingests through a converter worker, and the same file converts once', async () => {
    const first = await ds.call('ingest_document', { file_path: REPORT, application_ref: 'QUEUE/1' });
    expect(first.body).toMatchObject({ status: 'success', extraction_method: 'text_layer' });
    const sha = await sha256File(REPORT);
    const job = await worker.getJob(`convert-${sha}-text`);
    expect(job).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(job?.payload).toMatchObject({ file: { kind: 'data_dir' }, sha256: sha });

    // Another application ingesting the same bytes reuses the finished conversion job.
    const second = await ds.call('ingest_document', { file_path: REPORT, application_ref: 'QUEUE/2' });
    expect(second.body).toMatchObject({ status: 'success' });
    expect((await worker.getJob(`convert-${sha}-text`))?.attempts).toBe(1);
  }, 120_000);
});
