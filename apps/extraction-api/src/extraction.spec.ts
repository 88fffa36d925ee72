// SPDX-License-Identifier: AGPL-3.0-or-later
import { ExtractionResultSchema, ExtractionTaskStatusSchema } from '@lectern/contracts';
import { anthropicScript, wellBehavedScript, startFakeLlm, type FakeLlmServer } from '@lectern/testing';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  startExtraction,
  submitTask,
  waitForTask,
  WIDGET_MD,
  WIDGET_SCHEMA,
  type RunningExtraction,
} from './extraction.testkit.js';

interface Result {
  task_id: string;
  data: {
    original_file: string;
    electrical: Record<string, unknown>;
    environment: Record<string, unknown>;
    thd: unknown;
  };
  evidence: Record<
    string,
    Record<string, { locator: string | null; snippet: string | null; grounded?: boolean; warning?: string }>
  >;
  warnings: string[];
  timing: { total_seconds: number; index_seconds: number; extraction_seconds: number };
  extractor: string;
}

const result = async (baseUrl: string, id: string): Promise<Result> =>
  (await (await fetch(`${baseUrl}/tasks/${id}/result`)).json()) as Result;

/** Spec 003 section 11's API smoke tests, on the real doc tools over MCP (the offline extractor, or a fake LLM). */
describe('extraction-api end to end (plain tier)', () => {
  let dataDir: string;
  let service: RunningExtraction | undefined;
  let llm: FakeLlmServer | undefined;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'extraction-e2e-'));
  });
  afterEach(async () => {
    await service?.close();
    await llm?.close();
    service = undefined;
    llm = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('extraction-api:§11 test_post_task, test_get_task_status: the offline extractor: 202 with task_id + a valid status + a result with every schema key, verified evidence, warnings and timing', async () => {
    // DOCUMENT_ROOTS set elsewhere: the task uploads stay indexable
    mkdirSync(join(dataDir, 'documents'));
    service = await startExtraction({
      DATA_DIR: dataDir,
      EXTRACTOR: 'auto',
      DOCUMENT_ROOTS: join(dataDir, 'documents'),
    });
    // test_post_task: multipart file + schema → 202 with exactly a task_id
    const form = new FormData();
    form.append('file', new Blob([WIDGET_MD]), 'widget.md');
    form.append('schema', JSON.stringify(WIDGET_SCHEMA));
    const created = await fetch(`${service.baseUrl}/tasks`, { method: 'POST', body: form });
    expect(created.status).toBe(202);
    const createdBody = (await created.json()) as { task_id: string };
    expect(createdBody).toEqual({ task_id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/) });
    const id = createdBody.task_id;
    // test_get_task_status: the status response is valid (the contract's shape, the spec's fields)
    const statusResponse = await fetch(`${service.baseUrl}/tasks/${id}`);
    expect(statusResponse.status).toBe(200);
    const status = (await statusResponse.json()) as Record<string, unknown>;
    expect(ExtractionTaskStatusSchema.safeParse(status).success).toBe(true);
    expect(Date.parse(String(status['updated_at']))).toBeGreaterThanOrEqual(Date.parse(String(status['created_at'])));
    expect(status).toMatchObject({
      task_id: id,
      status: expect.stringMatching(/^(queued|running|succeeded)$/),
      extractor: 'local',
      error: null,
    });
    expect(Date.parse(String(status['created_at']))).not.toBeNaN();
    const done = await waitForTask(service.baseUrl, id);
    expect(done).toMatchObject({ status: 'succeeded', attempts: 1, progress: { stage: 'done' } });
    const r = await result(service.baseUrl, id);
    expect(r.task_id).toBe(id);
    expect(r.extractor).toBe('local');
    expect(r.data).toEqual({
      original_file: 'widget.md',
      electrical: { rated_voltage: '230V', rated_current: '1.6A', rated_power: '200W' },
      environment: { protection_class: 'IP65', operating_temperature: expect.stringMatching(/^0 to 40 ?°C/) },
      thd: null,
    });
    for (const key of ['rated_voltage', 'rated_current', 'rated_power']) {
      expect(r.evidence['electrical']![key]).toMatchObject({
        grounded: true,
        locator: expect.stringMatching(/^h\d+-t1$/),
        snippet: expect.stringContaining('| Rated'),
      });
    }
    expect(r.evidence['environment']!['protection_class']).toMatchObject({
      grounded: true,
      locator: expect.stringMatching(/^h\d+-c\d+$/),
    });
    expect(r.evidence['thd']).toEqual({ locator: null, snippet: null, warning: 'Not found in document' });
    expect(r.warnings).toEqual(["Field 'thd' not found in document"]);
    expect(r.timing.total_seconds).toBeGreaterThan(0);
    expect(r.timing.total_seconds).toBeGreaterThanOrEqual(r.timing.index_seconds);
  });

  it('the offline extractor turns per-model columns into a dict, and a model named in the schema picks its column', async () => {
    service = await startExtraction({ DATA_DIR: dataDir, EXTRACTOR: 'local' });
    const doc =
      '# Widget family\n\n## Ratings\n\n| Model | W-100 | W-200 |\n| --- | --- | --- |\n| Rated power | 200 W | 400 W |\n| Rated current | 1.6 A | 3.1 A |\n';
    const id = await submitTask(service.baseUrl, 'family.md', doc, {
      part_number: 'W-200',
      rated_power_per_model: {},
      rated_current: '',
    });
    expect(await waitForTask(service.baseUrl, id)).toMatchObject({ status: 'succeeded' });
    const r = (await (await fetch(`${service.baseUrl}/tasks/${id}/result`)).json()) as {
      data: Record<string, unknown>;
      evidence: Record<string, unknown>;
    };
    expect(r.data['rated_power_per_model']).toEqual({ 'W-100': '200W', 'W-200': '400W' });
    expect(r.data['rated_current']).toBe('3.1A');
    expect(r.evidence['rated_current']).toMatchObject({ grounded: true, snippet: '| Rated current | 1.6 A | 3.1 A |' });
    expect(r.evidence['rated_power_per_model']).toMatchObject({ grounded: true });
  });

  it('extraction-api:§11 test_result_structure: a scripted agent (fake Anthropic server) answers known JSON; the result has data, evidence, warnings and timing', async () => {
    const replies = anthropicScript(() =>
      wellBehavedScript([
        { key: 'electrical.rated_voltage', query: 'rated voltage', line: /^\| Rated voltage \| V \| ([\d.]+) \|/ },
        { key: 'electrical.rated_current', query: 'rated current', line: /^\| Rated current \| A \| ([\d.]+) \|/ },
        { key: 'electrical.rated_power', query: 'rated power', line: /^\| Rated power \| W \| ([\d.]+) \|/ },
        { key: 'environment.protection_class', query: 'protection class', line: /Protection class: (IP\d\d)/ },
        {
          key: 'environment.operating_temperature',
          query: 'operating temperature',
          line: /Operating temperature: (0 to 40 °C)/,
        },
        { key: 'thd', query: 'total harmonic distortion', line: /THD: (\S+)/ },
      ]),
    );
    llm = await startFakeLlm((body) => replies(body));
    service = await startExtraction({
      DATA_DIR: dataDir,
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: llm.url,
      LLM_MAX_RETRIES: '0',
    });
    const id = await submitTask(service.baseUrl, 'widget.md', WIDGET_MD, WIDGET_SCHEMA);
    const settled = await waitForTask(service.baseUrl, id);
    expect(llm.errors).toEqual([]);
    expect(settled).toMatchObject({ status: 'succeeded', error: null });
    const response = await fetch(`${service.baseUrl}/tasks/${id}/result`);
    expect(response.status).toBe(200);
    const body: unknown = await response.json();
    expect(ExtractionResultSchema.safeParse(body).success).toBe(true);
    const r = body as Result;
    expect(r).toMatchObject({ task_id: id, extractor: 'anthropic' });
    expect(r.data).toEqual({
      original_file: 'widget.md',
      electrical: { rated_voltage: '230', rated_current: '1.6', rated_power: '200' },
      environment: { protection_class: 'IP65', operating_temperature: expect.stringMatching(/^0 to 40 ?°C$/) },
      thd: null,
    });
    for (const [group, key, snippet] of [
      ['electrical', 'rated_voltage', '| Rated voltage | V | 230 |'],
      ['electrical', 'rated_current', '| Rated current | A | 1.6 |'],
      ['electrical', 'rated_power', '| Rated power | W | 200 |'],
      ['environment', 'protection_class', 'Protection class: IP65 for the housing and all connectors of the widget.'],
    ] as const)
      expect(r.evidence[group]![key]).toMatchObject({
        grounded: true,
        locator: expect.stringMatching(/^h\d+-[ct]\d+$/),
        snippet,
      });
    expect(r.evidence['thd']).toEqual({ locator: null, snippet: null, warning: 'Not found in document' });
    expect(r.warnings).toEqual(["Field 'thd' not found in document"]);
    expect(r.timing.total_seconds).toBeGreaterThan(0);
    expect(r.timing.total_seconds).toBeGreaterThanOrEqual(r.timing.extraction_seconds);
  });

  it('extraction-api:§11 test_all_schema_keys_present: an LLM agent (fake Anthropic server) reaches the doc tools over MCP; partial answers still carry every schema key', async () => {
    const script = () =>
      wellBehavedScript([
        { key: 'electrical.rated_current', query: 'rated current', line: /^\| Rated current \| A \| ([\d.]+) \|/ },
        { key: 'protection_class', query: 'protection class', line: /Protection class: (IP\d\d)/ },
      ]);
    const replies = anthropicScript(script);
    llm = await startFakeLlm((body) => replies(body));
    service = await startExtraction({
      DATA_DIR: dataDir,
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: llm.url,
      LLM_MAX_RETRIES: '0',
    });
    const id = await submitTask(service.baseUrl, 'widget.md', WIDGET_MD, WIDGET_SCHEMA);
    expect(await waitForTask(service.baseUrl, id)).toMatchObject({ status: 'succeeded', error: null });
    const r = await result(service.baseUrl, id);
    expect(r.extractor).toBe('anthropic');
    // the agent answered one schema field and one top-level key the schema does not have: the result has exactly
    // the schema's keys, the answered one kept, the others null
    expect(r.data).toEqual({
      original_file: 'widget.md',
      electrical: { rated_voltage: null, rated_current: '1.6', rated_power: null },
      environment: { protection_class: null, operating_temperature: null },
      thd: null,
    });
    expect(r.warnings).toEqual(
      expect.arrayContaining([
        "Field 'electrical.rated_voltage' not found in document",
        "Field 'thd' not found in document",
      ]),
    );
    expect(llm.requests.length).toBe(4);
  });

  it('a provider that does not answer within API_TIMEOUT_MS fails the task with a clear error', async () => {
    llm = await startFakeLlm(() => ({ delayMs: 30_000, json: {} }));
    service = await startExtraction({
      DATA_DIR: dataDir,
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: llm.url,
      API_TIMEOUT_MS: '300',
      LLM_MAX_RETRIES: '0',
      AGENT_MAX_RETRIES: '1',
    });
    const id = await submitTask(service.baseUrl, 'widget.md', WIDGET_MD, WIDGET_SCHEMA);
    const task = await waitForTask(service.baseUrl, id);
    expect(task).toMatchObject({
      status: 'failed',
      attempts: 2,
      error: {
        code: 'llm_timeout',
        message: 'The Anthropic API did not answer within 300 ms (API_TIMEOUT_MS).',
        details: [],
      },
    });
    expect(llm.requests).toHaveLength(2); // one per attempt: AGENT_MAX_RETRIES=1
    const failed = await fetch(`${service.baseUrl}/tasks/${id}/result`);
    expect(failed.status).toBe(422);
    expect(await failed.json()).toEqual({ task_id: id, status: 'failed', error: task.error });
  });

  it.each([
    [
      'AGENT_TIMEOUT bounds an attempt',
      { AGENT_TIMEOUT: '1', API_TIMEOUT_MS: '60000' },
      () => () => ({ delayMs: 20_000, json: {} }),
      { code: 'agent_timeout', message: 'The extraction did not finish within 1 s (AGENT_TIMEOUT).' },
    ],
    [
      'AGENT_MAX_TURNS caps the conversation',
      { AGENT_MAX_TURNS: '3' },
      () =>
        anthropicScript(() => (_results, turn) => ({
          tools: [
            {
              name: turn === 1 ? 'doc_index_build' : 'doc_read',
              input: { file_path: 'x', index_id: 'x', locator: 'h1' },
            },
          ],
        })),
      { code: 'agent_turn_limit', message: 'The agent did not finish within 3 turns.' },
    ],
    [
      'a final answer still malformed after the corrective turn fails the task',
      {},
      () => anthropicScript(() => () => ({ text: 'I found: {"data": {"rated_current": "1.6"' })),
      {
        code: 'agent_bad_answer',
        message: expect.stringMatching(
          /could not be read after a corrective turn: an object opened at character \d+ is never closed/,
        ),
      },
    ],
  ])('%s', async (_name, env, makeReplies, error) => {
    const replies = makeReplies();
    llm = await startFakeLlm((body) => replies(body));
    service = await startExtraction({
      DATA_DIR: dataDir,
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: llm.url,
      LLM_MAX_RETRIES: '0',
      AGENT_MAX_RETRIES: '0',
      ...env,
    });
    const id = await submitTask(service.baseUrl, 'widget.md', WIDGET_MD, WIDGET_SCHEMA);
    expect(await waitForTask(service.baseUrl, id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: { ...error, details: [] },
    });
  });
});
