// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectMcp, promptToolCalls, runInspectorCli, unknownToolNames } from '@lectern/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import {
  startExtraction,
  submitTask,
  waitForTask,
  WIDGET_MD,
  WIDGET_SCHEMA,
  type RunningExtraction,
} from './extraction.testkit.js';
import { taskResources } from './task-resources.js';

/*
 * Issue 30: extraction tasks as MCP resources (`lectern://tasks/{task_id}`), the check_extraction prompt and task_id
 * completions on extraction-api's /mcp, through the SDK client over Streamable HTTP and the MCP Inspector's CLI, on
 * a real extraction-api (embedded task store, the offline extractor). extraction-api has no stdio server.
 */
let service: RunningExtraction;
let client: Client;
let dataDir: string;
let done = '';
let failed = '';

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'lectern-task-resources-'));
  service = await startExtraction({ DATA_DIR: dataDir, EXTRACTOR: 'local' });
  done = await submitTask(service.baseUrl, 'widget.md', WIDGET_MD, WIDGET_SCHEMA);
  expect((await waitForTask(service.baseUrl, done)).status).toBe('succeeded');
  failed = await submitTask(service.baseUrl, 'empty.md', '', WIDGET_SCHEMA);
  await waitForTask(service.baseUrl, failed);
  client = await connectMcp(service.baseUrl, 'streamable-http');
}, 120_000);
afterAll(async () => {
  await client?.close();
  await service?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const contentsOf = async (uri: string) =>
  (await client.readResource({ uri })).contents as Array<{ uri: string; mimeType: string; text: string }>;

describe('extraction-api resources: lectern://tasks/{task_id}', () => {
  it('advertises the template and lists the tasks newest first', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['lectern://tasks/{task_id}']);
    const { resources } = await client.listResources();
    expect(resources.map((r) => [r.uri, r.title])).toEqual([
      [`lectern://tasks/${failed}`, 'empty.md'],
      [`lectern://tasks/${done}`, 'widget.md'],
    ]);
  });

  it('reads a succeeded task: its status and the result REST answers, evidence included', async () => {
    const [status, result] = await contentsOf(`lectern://tasks/${done}`);
    const rest = await (await fetch(`${service.baseUrl}/tasks/${done}`)).json();
    expect(JSON.parse(status?.text ?? '{}')).toEqual(rest);
    expect(result?.mimeType).toBe('application/json');
    const body = JSON.parse(result?.text ?? '{}') as {
      data: Record<string, unknown>;
      evidence: Record<string, unknown>;
    };
    expect(body).toEqual(await (await fetch(`${service.baseUrl}/tasks/${done}/result`)).json());
    expect(body.data).toMatchObject({ electrical: { rated_voltage: expect.anything() } });
    expect(body.evidence).toHaveProperty('electrical');
  });

  it('reads a task that has no result as its status alone; refuses unknown and malformed ids', async () => {
    const contents = await contentsOf(`lectern://tasks/${failed}`);
    expect(contents).toHaveLength(1);
    expect(JSON.parse(contents[0]?.text ?? '{}')).toMatchObject({ task_id: failed, status: expect.any(String) });
    await expect(client.readResource({ uri: 'lectern://tasks/01ARZ3NDEKTSV4RRFFQ69G5FAV' })).rejects.toThrow(
      /-32002.*Task not found/,
    );
    await expect(client.readResource({ uri: 'lectern://tasks/..%2Fetc' })).rejects.toThrow(/-32602.*Not a task URI/);
  });

  it('pages the listing with the store cursor, refuses a forged cursor, and omits (never cuts) a large result', async () => {
    const { resources: all } = await client.listResources();
    const signal = new AbortController().signal;
    const tasks = service.platform.taskStore(); // the app's own store (the platform builds it once)
    const paged = taskResources(tasks, { pageSize: 1 });
    const one = await paged.list(undefined, signal);
    expect(one.resources.map((r) => r.uri)).toEqual([all[0]?.uri]);
    const two = await paged.list(one.nextCursor, signal);
    expect(two.resources.map((r) => r.uri)).toEqual([all[1]?.uri]);
    await expect(paged.list('not a cursor', signal)).rejects.toThrow(/cursor is not one this listing returned/);
    const small = taskResources(tasks, { maxChars: 10 });
    const [status, ...rest] = await small.read(`lectern://tasks/${done}`, signal);
    expect(rest).toEqual([]);
    expect(JSON.parse((status as { text: string }).text).result_omitted).toMatch(
      new RegExp(`^the result is \\d+ characters; fetch GET /tasks/${done}/result$`),
    );
  });
});

describe('extraction-api prompt and completions', () => {
  it('check_extraction attaches the task and names the doc tools this server serves', async () => {
    const got = await client.getPrompt({ name: 'check_extraction', arguments: { task_id: done } });
    const [status, result] = got.messages;
    expect(status?.content).toMatchObject({ type: 'resource', resource: { uri: `lectern://tasks/${done}#status` } });
    expect(result?.content).toMatchObject({ type: 'resource', resource: { uri: `lectern://tasks/${done}` } });
    const calls = promptToolCalls(got);
    expect(calls.map((c) => c.tool)).toEqual(['doc_index_build', 'doc_search', 'doc_read']);
    expect(unknownToolNames(calls, (await client.listTools()).tools)).toEqual([]);
    await expect(client.getPrompt({ name: 'check_extraction', arguments: { task_id: 'nope' } })).rejects.toThrow(
      /-32602.*task_id/,
    );
  });

  it('completes task ids from the store by prefix', async () => {
    const ref = { type: 'ref/resource' as const, uri: 'lectern://tasks/{task_id}' };
    const all = await client.complete({ ref, argument: { name: 'task_id', value: '' } });
    expect(all.completion.values).toEqual([done, failed].sort());
    const one = await client.complete({
      ref: { type: 'ref/prompt', name: 'check_extraction' },
      argument: { name: 'task_id', value: failed.toLowerCase() },
    });
    expect(one.completion.values).toEqual([failed]);
  });

  it('the Inspector CLI lists and reads the task resources and gets the prompt over Streamable HTTP', async () => {
    const url = [`${service.baseUrl}/mcp`];
    const listed = (await runInspectorCli(url, 'resources/list')) as { resources: Array<{ uri: string }> };
    expect(listed.resources.map((r) => r.uri)).toContain(`lectern://tasks/${done}`);
    const read = (await runInspectorCli(url, 'resources/read', { args: ['--uri', `lectern://tasks/${done}`] })) as {
      contents: Array<{ text: string }>;
    };
    expect(JSON.parse(read.contents[0]?.text ?? '{}')).toMatchObject({ task_id: done, status: 'succeeded' });
    const got = (await runInspectorCli(url, 'prompts/get', {
      args: ['--prompt-name', 'check_extraction', '--prompt-args', `task_id=${done}`],
    })) as GetPromptResult;
    expect(promptToolCalls(got).map((c) => c.tool)).toEqual(['doc_index_build', 'doc_search', 'doc_read']);
  }, 120_000);
});
