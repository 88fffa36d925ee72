// SPDX-License-Identifier: AGPL-3.0-or-later
import { extractionTaskJobId, extractionTaskQueue } from '@lectern/contracts';
import { startFakeLlm, startRedis, type FakeLlmServer, type TestRedis } from '@lectern/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  startExtraction,
  submitTask,
  waitForTask,
  WIDGET_MD,
  WIDGET_SCHEMA,
  type RunningExtraction,
} from './extraction.testkit.js';

/**
 * Tasks run on the `extraction-task` queue, defined like every queue and built by the platform (in-process, or
 * BullMQ with REDIS_URL): MAX_CONCURRENT_TASKS is its worker's concurrency, AGENT_MAX_RETRIES + 1 its attempts,
 * and the task store keeps the durable record.
 */
describe('extraction tasks on the extraction-task queue', () => {
  let dataDir: string;
  let service: RunningExtraction | undefined;
  let llm: FakeLlmServer | undefined;
  let redis: TestRedis | undefined;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'extraction-queue-'));
  });
  afterEach(async () => {
    await service?.close();
    await llm?.close();
    await redis?.stop();
    service = undefined;
    llm = undefined;
    redis = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  const llmEnv = (url: string) => ({ DATA_DIR: dataDir, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: url });

  it('MAX_CONCURRENT_TASKS tasks run at once; the next one waits queued', async () => {
    llm = await startFakeLlm(() => ({ delayMs: 120_000, json: {} }));
    service = await startExtraction({ ...llmEnv(llm.url), MAX_CONCURRENT_TASKS: '2', LLM_MAX_RETRIES: '0' });
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push(await submitTask(service.baseUrl, 'widget.md', WIDGET_MD, WIDGET_SCHEMA));
    while (llm.requests.length < 2) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300)); // a third worker, if there were one, would have started by now
    const statuses = await Promise.all(
      ids.map(
        async (id) => ((await (await fetch(`${service!.baseUrl}/tasks/${id}`)).json()) as { status: string }).status,
      ),
    );
    expect(statuses.filter((s) => s === 'running')).toHaveLength(2);
    expect(statuses.filter((s) => s === 'queued')).toHaveLength(1);
    expect(llm.requests).toHaveLength(2);
    const queue = service.platform.queue(extractionTaskQueue);
    expect((await queue.getJob(extractionTaskJobId(ids[0]!, 0)))?.status).toBe('running');
  });

  it('AGENT_MAX_RETRIES + 1 attempts, run by the queue; the task store records them and the failure', async () => {
    llm = await startFakeLlm(() => ({ status: 500, json: { type: 'error', error: { message: 'down' } } }));
    service = await startExtraction({ ...llmEnv(llm.url), AGENT_MAX_RETRIES: '2', LLM_MAX_RETRIES: '0' });
    const id = await submitTask(service.baseUrl, 'widget.md', WIDGET_MD, WIDGET_SCHEMA);
    const task = await waitForTask(service.baseUrl, id);
    expect(task).toMatchObject({ status: 'failed', attempts: 3 });
    expect(llm.requests).toHaveLength(3);
    const job = await service.platform.queue(extractionTaskQueue).getJob(extractionTaskJobId(id, 0));
    expect(job).toMatchObject({ status: 'succeeded', attempts: 3, result: { version: 1, outcome: 'failed' } });
  }, 30_000);

  it('with REDIS_URL the tasks run on BullMQ (a real redis-server)', async () => {
    redis = await startRedis();
    service = await startExtraction({ DATA_DIR: dataDir, EXTRACTOR: 'local', REDIS_URL: redis.url });
    expect(service.platform.mode).toBe('distributed');
    const id = await submitTask(service.baseUrl, 'deck.pptx', 'PK fake', { title: '' });
    expect(await waitForTask(service.baseUrl, id)).toMatchObject({
      status: 'failed',
      error: { code: 'unsupported_format', message: 'Unsupported file format: .pptx' },
    });
    const job = await service.platform.queue(extractionTaskQueue).getJob(extractionTaskJobId(id, 0));
    // the snapshot names the BullMQ worker that ran it (the in-process adapter leaves it unset)
    expect(job).toMatchObject({
      status: 'succeeded',
      result: { outcome: 'failed' },
      worker: `${hostname()}:${process.pid}`,
    });
  }, 30_000);
});
