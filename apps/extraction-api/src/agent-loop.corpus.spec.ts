// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  anthropicScript,
  openAiScript,
  type ScriptStep,
  corporaDir,
  spawnService,
  startFakeLlm,
  type FakeLlmServer,
  type SpawnedService,
} from '@lectern/testing';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

const OMRON = () =>
  join(corporaDir(), 'datasheets', 'datasheetminer-benchmark', 'datasheets', 'omron-g-series-servo-motors.pdf');
const SCHEMA = { product_name: '', rated_torque: '', peak_current: '', ip_rating: '', thd: '' };
const INVENTED = '77.7 A';

interface Result {
  data: Record<string, unknown>;
  evidence: Record<string, Record<string, unknown>>;
  warnings: string[];
  timing: { total_seconds: number; index_seconds: number; extraction_seconds: number };
  extractor: string;
}

/**
 * The Omron conversation: index; a doc_read before any search (refused by the loop); a search for the ratings
 * table; read every hit; validate; a malformed final reply, then (after the corrective turn) the answer. The
 * values come from the table the real tools returned; `peak_current` is invented and must come back ungrounded.
 */
const omronScript = (): ScriptStep => {
  let indexId = '';
  let hits: string[] = [];
  let answer = '';
  return (results, turn) => {
    switch (turn) {
      case 1:
        return { tools: [{ name: 'doc_index_build', input: { file_path: '/somewhere/else.pdf' } }] };
      case 2:
        indexId = (JSON.parse(results[0]!.content) as { index_id: string }).index_id;
        return {
          tools: [
            { name: 'doc_read', input: { index_id: indexId, locator: 'h1' } },
            {
              name: 'doc_search',
              input: {
                index_id: indexId,
                query: 'rated torque instantaneous max current enclosure',
                top_k: 5,
                scope: 'tables',
              },
            },
          ],
        };
      case 3:
        if (!results[0]!.isError || !/doc_search first/.test(results[0]!.content))
          throw new Error(`the unsearched doc_read was not refused: ${results[0]!.content}`);
        hits = (JSON.parse(results[1]!.content) as Array<{ locator: string }>).map((h) => h.locator);
        return {
          tools: hits.map((locator) => ({ name: 'doc_read', input: { index_id: indexId, locator, max_chars: 20000 } })),
        };
      case 4: {
        const i = results.findIndex((r) => /\| Rated torque \|/.test(r.content) && /IP65/.test(r.content));
        if (i < 0) throw new Error('no read chunk holds the ratings table');
        const content = (JSON.parse(results[i]!.content) as { content: string }).content;
        const row = (label: RegExp) =>
          content
            .split('\n')
            .find((l) => label.test(l))!
            .trim();
        const locator = hits[i]!;
        const data = {
          product_name: null,
          rated_torque: '0.64 N·m',
          peak_current: INVENTED,
          ip_rating: 'IP65',
          thd: null,
        };
        const evidence = {
          product_name: { locator: null, snippet: null, warning: 'Not found in document' },
          rated_torque: { locator, snippet: row(/^\| Rated torque \|/) },
          peak_current: { locator, snippet: row(/^\| Instantaneous max\. current \|/) },
          ip_rating: { locator, snippet: 'Totally-enclosed, self-cooling, IP65' },
          thd: { locator: null, snippet: null, warning: 'Not found in document' },
        };
        answer = JSON.stringify({ data, evidence }, null, 2);
        return { tools: [{ name: 'json_validate_and_normalize', input: { data, schema: SCHEMA } }] };
      }
      case 5:
        return { text: `Here is the result:\n${answer.slice(0, -3)}` }; // malformed: cut short
      default:
        return { text: `\`\`\`json\n${answer}\n\`\`\`` };
    }
  };
};

describe.each([
  ['Anthropic Messages', 'anthropic'],
  ['OpenAI chat completions', 'openai'],
] as const)('the agent loop against a loopback server speaking %s, on the Omron datasheet', (_name, kind) => {
  let llm: FakeLlmServer;
  let service: SpawnedService;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), `extraction-agent-${kind}-`));
    const script = kind === 'anthropic' ? anthropicScript(omronScript) : openAiScript(omronScript);
    // the provider's first answer is a 429, its second a 500: both retried
    llm = await startFakeLlm((body, index) =>
      index === 0
        ? { status: 429, headers: { 'retry-after': '0' }, json: {} }
        : index === 1
          ? { status: 500, json: {} }
          : script(body),
    );
    const provider: Record<string, string> =
      kind === 'anthropic'
        ? { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: llm.url, ANTHROPIC_DEFAULT_SONNET_MODEL: 'fake-sonnet' }
        : { OPENAI_BASE_URL: `${llm.url}/v1`, OPENAI_API_KEY: 'test-key', OPENAI_MODEL: 'fake-model' };
    service = await spawnService('apps/extraction-api/src/main.ts', 'EXTRACTION_API_PORT', {
      DATA_DIR: dataDir,
      LLM_MAX_RETRIES: '3',
      API_TIMEOUT_MS: '60000',
      ...provider,
    });
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
    await llm?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('returns normalised data with verified evidence, flags the invented value, retries 429/500 and corrects a malformed answer', async () => {
    const form = new FormData();
    form.append('file', new Blob([readFileSync(OMRON())]), basename(OMRON()));
    form.append('schema', JSON.stringify(SCHEMA));
    const created = await fetch(`${service.baseUrl}/tasks`, { method: 'POST', body: form });
    expect(created.status).toBe(202);
    const { task_id } = (await created.json()) as { task_id: string };
    let status: { status: string; error: unknown };
    do {
      await new Promise((r) => setTimeout(r, 250));
      status = (await (await fetch(`${service.baseUrl}/tasks/${task_id}`)).json()) as typeof status;
    } while (status.status === 'queued' || status.status === 'running');
    expect(status).toMatchObject({ status: 'succeeded', error: null });
    const result = (await (await fetch(`${service.baseUrl}/tasks/${task_id}/result`)).json()) as Result;

    expect(result.extractor).toBe(kind);
    // normalised by json_validate_and_normalize: "0.64 N·m" → "0.64N·m" (spec 003: "1000V", not "1000 V")
    expect(result.data).toEqual({
      original_file: 'omron-g-series-servo-motors.pdf',
      product_name: null,
      rated_torque: '0.64N·m',
      peak_current: '77.7A',
      ip_rating: 'IP65',
      thd: null,
    });
    expect(result.evidence['rated_torque']).toMatchObject({
      grounded: true,
      snippet_match: 'exact',
      match: 'agent',
      page: expect.any(Number),
      locator: expect.stringMatching(/^h\d+-t\d+$/),
      snippet: expect.stringMatching(/^\| Rated torque \| N·m \|/),
    });
    expect(result.evidence['ip_rating']).toMatchObject({ grounded: true });
    expect(result.evidence['peak_current']).toMatchObject({
      grounded: false,
      warning: expect.stringMatching(/the value 77\.7A does not occur in the snippet/),
    });
    expect(result.evidence['thd']).toEqual({ locator: null, snippet: null, warning: 'Not found in document' });
    expect(result.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Field 'peak_current' is not grounded/),
        "Field 'product_name' not found in document",
        "Field 'thd' not found in document",
        expect.stringMatching(/search-then-read protocol 1 time/),
      ]),
    );
    expect(result.timing.total_seconds).toBeGreaterThan(0);
    expect(result.timing.index_seconds).toBeGreaterThan(0);
    expect(result.timing.total_seconds).toBeGreaterThanOrEqual(result.timing.index_seconds);

    // 2 refused attempts + 6 scripted turns; the 7th request (index 7) carries the corrective prompt
    expect(llm.requests).toHaveLength(8);
    expect(JSON.stringify(llm.requests[7]!.body)).toMatch(/could not be read/);
    expect(JSON.stringify(llm.requests[2]!.body)).toMatch(/Extract data from: .*uploads/);
    expect(llm.requests[2]!.body['model']).toBe(kind === 'anthropic' ? 'fake-sonnet' : 'fake-model');
  }, 180_000);
});
