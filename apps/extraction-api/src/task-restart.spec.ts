// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  anthropicScript,
  wellBehavedScript,
  spawnService,
  startFakeLlm,
  type FakeLlmServer,
  type SpawnedService,
} from '@lectern/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { submitTask, waitForTask, WIDGET_MD, WIDGET_SCHEMA } from './extraction.testkit.js';

const ENTRY = 'apps/extraction-api/src/main.ts';

/**
 * Tasks survive the death of the process (SIGKILL: nothing runs on the way down): a task left running is queued
 * again at start-up while it has attempts left, else failed clearly; queued tasks run after the restart.
 */
describe('extraction tasks across a process restart', () => {
  let dataDir: string;
  let hanging: FakeLlmServer;
  let answering: FakeLlmServer;
  const services: SpawnedService[] = [];

  const start = (llm: FakeLlmServer, extra: Record<string, string> = {}) =>
    spawnService(ENTRY, 'EXTRACTION_API_PORT', {
      DATA_DIR: dataDir,
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: llm.url,
      LLM_MAX_RETRIES: '0',
      MAX_CONCURRENT_TASKS: '1',
      ...extra,
    }).then((s) => {
      services.push(s);
      return s;
    });
  const kill = async (service: SpawnedService) => {
    services.splice(services.indexOf(service), 1);
    const exited = new Promise((r) => service.child.once('exit', r));
    service.child.kill('SIGKILL');
    await exited;
  };

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'extraction-restart-'));
    // the first process's LLM never answers in time: its task is mid-flight when the process dies
    hanging = await startFakeLlm(() => ({ delayMs: 120_000, json: {} }));
    const replies = anthropicScript(() =>
      wellBehavedScript([
        { key: 'rated_current', query: 'rated current', line: /^\| Rated current \| A \| ([\d.]+) \|/ },
      ]),
    );
    answering = await startFakeLlm((body) => replies(body));
  });
  afterEach(async () => {
    for (const s of services.splice(0)) await s.stop();
    await hanging.close();
    await answering.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('re-queues the running task and runs the queued one after a crash', async () => {
    const first = await start(hanging);
    const running = await submitTask(first.baseUrl, 'widget.md', WIDGET_MD, { rated_current: '' });
    const queued = await submitTask(first.baseUrl, 'widget.md', WIDGET_MD, { rated_current: '', rated_power: '' });
    await waitForTask(first.baseUrl, running, ['running']);
    while (hanging.requests.length === 0) await new Promise((r) => setTimeout(r, 50));
    expect((await waitForTask(first.baseUrl, queued, ['queued'])).status).toBe('queued');
    await kill(first);

    const second = await start(answering);
    const resumed = await waitForTask(second.baseUrl, running);
    expect(resumed).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(await waitForTask(second.baseUrl, queued)).toMatchObject({ status: 'succeeded', attempts: 1 });
    const body = (await (await fetch(`${second.baseUrl}/tasks/${running}/result`)).json()) as {
      data: Record<string, unknown>;
      evidence: Record<string, unknown>;
    };
    expect(body.data).toEqual({ original_file: 'widget.md', rated_current: '1.6' });
    expect(body.evidence['rated_current']).toMatchObject({ grounded: true });
    expect(answering.errors).toEqual([]);
  }, 120_000);

  it('fails a task interrupted once more than AGENT_MAX_RETRIES allows, saying why', async () => {
    const first = await start(hanging, { AGENT_MAX_RETRIES: '0' });
    const id = await submitTask(first.baseUrl, 'widget.md', WIDGET_MD, WIDGET_SCHEMA);
    await waitForTask(first.baseUrl, id, ['running']);
    await kill(first);
    const second = await start(answering, { AGENT_MAX_RETRIES: '0' });
    expect(await waitForTask(second.baseUrl, id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: {
        code: 'task_interrupted',
        message: expect.stringMatching(/interrupted by a restart.*AGENT_MAX_RETRIES=0/),
      },
    });
    expect(answering.requests).toHaveLength(0);
  }, 120_000);
});
