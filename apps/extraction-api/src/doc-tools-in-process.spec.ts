// SPDX-License-Identifier: AGPL-3.0-or-later
import { anthropicScript, startFakeLlm, wellBehavedScript, type FakeLlmServer } from '@lectern/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startExtractionApi, type RunningExtractionApi } from './doc-tools.testkit.js';
import { startExtraction, submitTask, waitForTask, WIDGET_MD, type RunningExtraction } from './extraction.testkit.js';

/** Sum of a Prometheus counter's samples whose labels include every `labels` pair. */
const counter = async (baseUrl: string, name: string, labels: Record<string, string>): Promise<number> => {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    const sample = new RegExp(`^${name}\\{([^}]*)\\} (\\S+)$`).exec(line);
    if (!sample) continue;
    if (Object.entries(labels).every(([k, v]) => sample[1]!.includes(`${k}="${v}"`))) sum += Number(sample[2]);
  }
  return sum;
};

const mcpHttpRequests = (baseUrl: string) => counter(baseUrl, 'http_requests_total', { route: '/mcp' });
const toolCalls = (baseUrl: string, tool: string) => counter(baseUrl, 'mcp_tool_calls_total', { tool });

const SCRIPT = () =>
  wellBehavedScript([
    { key: 'rated_current', query: 'rated current', line: /^\| Rated current \| A \| ([\d.]+) \|/ },
    { key: 'protection_class', query: 'protection class', line: /Protection class: (IP\d\d)/ },
  ]);
const SCHEMA = { rated_current: '', protection_class: '' };

/** The extractors reach the doc tools in-process (the server of /mcp, over the in-memory transport), not over HTTP. */
describe('extraction-api: the doc tools without self-calls', () => {
  let dataDir: string;
  let service: RunningExtraction | undefined;
  let other: RunningExtractionApi | undefined;
  let llm: FakeLlmServer;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'extraction-inproc-'));
    const replies = anthropicScript(SCRIPT);
    llm = await startFakeLlm((body) => replies(body));
  });
  afterEach(async () => {
    await service?.close();
    await other?.stop();
    await llm.close();
    service = undefined;
    other = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a task run by the agent makes no HTTP request to its own /mcp, and reads each evidence chunk once', async () => {
    service = await startExtraction({
      DATA_DIR: dataDir,
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: llm.url,
      LLM_MAX_RETRIES: '0',
    });
    const id = await submitTask(service.baseUrl, 'widget.md', WIDGET_MD, SCHEMA);
    expect(await waitForTask(service.baseUrl, id)).toMatchObject({ status: 'succeeded' });
    const result = (await (await fetch(`${service.baseUrl}/tasks/${id}/result`)).json()) as {
      data: Record<string, unknown>;
      evidence: Record<string, { grounded?: boolean }>;
    };
    expect(result.data).toEqual({ original_file: 'widget.md', rated_current: '1.6', protection_class: 'IP65' });
    expect(result.evidence['rated_current']).toMatchObject({ grounded: true });
    expect(result.evidence['protection_class']).toMatchObject({ grounded: true });

    expect(await mcpHttpRequests(service.baseUrl)).toBe(0);
    // the tools ran on the /mcp server's code (its metrics count them) ...
    expect(await toolCalls(service.baseUrl, 'doc_index_build')).toBe(1);
    expect(await toolCalls(service.baseUrl, 'doc_search')).toBe(2);
    expect(await toolCalls(service.baseUrl, 'json_validate_and_normalize')).toBe(1);
    // ... and the two chunks the agent read were verified without reading them again
    expect(await toolCalls(service.baseUrl, 'doc_read')).toBe(2);
  });

  it('the offline extractor reaches the doc tools in-process too', async () => {
    service = await startExtraction({ DATA_DIR: dataDir, EXTRACTOR: 'local' });
    const id = await submitTask(service.baseUrl, 'widget.md', WIDGET_MD, { rated_current: '' });
    expect(await waitForTask(service.baseUrl, id)).toMatchObject({ status: 'succeeded' });
    const result = (await (await fetch(`${service.baseUrl}/tasks/${id}/result`)).json()) as {
      evidence: Record<string, { grounded?: boolean }>;
    };
    expect(result.evidence['rated_current']).toMatchObject({ grounded: true });
    expect(await mcpHttpRequests(service.baseUrl)).toBe(0);
    expect(await toolCalls(service.baseUrl, 'doc_search')).toBeGreaterThan(0);
    expect(await toolCalls(service.baseUrl, 'doc_read')).toBeGreaterThan(0);
  });

  it('with MCP_TOOLS_URL naming another server, the tool calls go there over HTTP', async () => {
    // the other server shares DATA_DIR (spec 003's shared /data volume), so it can index the task uploads
    other = await startExtractionApi({ DATA_DIR: dataDir });
    const before = await mcpHttpRequests(other.baseUrl);
    service = await startExtraction({
      DATA_DIR: dataDir,
      DB_PATH: join(dataDir, 'tasks-main.db'),
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: llm.url,
      LLM_MAX_RETRIES: '0',
      MCP_TOOLS_URL: `${other.baseUrl}/mcp`,
    });
    const id = await submitTask(service.baseUrl, 'widget.md', WIDGET_MD, SCHEMA);
    expect(await waitForTask(service.baseUrl, id)).toMatchObject({ status: 'succeeded' });
    expect(await mcpHttpRequests(other.baseUrl)).toBeGreaterThan(before);
    expect(await toolCalls(other.baseUrl, 'doc_index_build')).toBe(1);
    expect(await toolCalls(other.baseUrl, 'doc_read')).toBe(2);
    expect(await toolCalls(service.baseUrl, 'doc_index_build')).toBe(0);
    expect(await mcpHttpRequests(service.baseUrl)).toBe(0);
  });
});
