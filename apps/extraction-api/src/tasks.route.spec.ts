// SPDX-License-Identifier: AGPL-3.0-or-later
import { createPlatform } from '@lectern/platform';
import { listenOnFreePort, silentLogger } from '@lectern/testing';
import type { FastifyInstance } from 'fastify';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from './app.js';
import { extractionTaskQueueOf } from '@lectern/extraction';
import { loadConfig } from './config.js';

/** The task API's admission rules and bookkeeping (spec 003 section 4), through real HTTP. */
describe('extraction-api task API: admission, status, list, delete', () => {
  let dataDir: string;
  let app: FastifyInstance;
  let baseUrl: string;
  let platform: ReturnType<typeof createPlatform>;

  const post = (file: { name: string; bytes: Uint8Array | string } | undefined, schema: string | undefined) => {
    const form = new FormData();
    if (file) form.append('file', new Blob([file.bytes]), file.name);
    if (schema !== undefined) form.append('schema', schema);
    return fetch(`${baseUrl}/tasks`, { method: 'POST', body: form });
  };
  const waitFor = async (id: string, statuses: string[]): Promise<{ status: string; error?: unknown }> => {
    for (;;) {
      const task = (await (await fetch(`${baseUrl}/tasks/${id}`)).json()) as { status: string; error?: unknown };
      if (statuses.includes(task.status)) return task;
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'extraction-api-'));
    platform = createPlatform({ dataDir, log: silentLogger() });
    // MCP_TOOLS_URL points at a closed port: these tests never reach the doc tools.
    const config = loadConfig({
      DATA_DIR: dataDir,
      MAX_UPLOAD_BYTES: '1000',
      MCP_TOOLS_URL: 'http://127.0.0.1:9/mcp',
      AGENT_MAX_RETRIES: '0',
    });
    app = buildApp({
      config,
      logger: silentLogger(),
      store: platform.taskStore(),
      taskQueue: extractionTaskQueueOf(platform, config),
    });
    baseUrl = await listenOnFreePort(app);
  });
  afterEach(async () => {
    await app.close();
    await platform.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('extraction-api:§11 test_unsupported_format: a .pptx is accepted (202, Location), then the task fails with the exact message', async () => {
    const response = await post({ name: 'deck.pptx', bytes: 'PK fake' }, '{"title": ""}');
    expect(response.status).toBe(202);
    const { task_id } = (await response.json()) as { task_id: string };
    expect(task_id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(response.headers.get('location')).toBe(`/tasks/${task_id}`);
    const task = await waitFor(task_id, ['failed']);
    expect(task).toMatchObject({
      task_id,
      status: 'failed',
      original_filename: 'deck.pptx',
      extractor: 'local',
      error: {
        code: 'unsupported_format',
        message: 'Unsupported file format: .pptx',
        details: [expect.stringMatching(/^Only PDF, .*DOCX.*HTML.*TXT.*MD.* are supported$/)],
      },
    });
    const result = await fetch(`${baseUrl}/tasks/${task_id}/result`);
    expect(result.status).toBe(422);
    expect(await result.json()).toEqual({ task_id, status: 'failed', error: task.error ?? expect.anything() });
    expect(readdirSync(join(dataDir, 'uploads', task_id))).toEqual(['original.pptx']);
  });

  it('refuses a schema that is not a JSON object skeleton (400), an oversized file (413), a missing part (400), non-multipart (415), leaving nothing behind', async () => {
    for (const schema of [
      'not json',
      '[1,2]',
      '"text"',
      '{}',
      '{"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": {"i": 1}}}}}}}}}',
    ]) {
      const response = await post({ name: 'a.md', bytes: '# A\n\ntext' }, schema);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: { code: 'invalid_arguments', message: expect.stringMatching(/schema/i) },
      });
    }
    const big = await post({ name: 'a.md', bytes: 'x'.repeat(5000) }, '{"a": ""}');
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: { code: string } }).error.code).toBe('too_large');
    expect((await post(undefined, '{"a": ""}')).status).toBe(400);
    expect((await post({ name: 'a.md', bytes: 'x' }, undefined)).status).toBe(400);
    const json = await fetch(`${baseUrl}/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(415);
    expect((await (await fetch(`${baseUrl}/tasks`)).json()) as unknown).toEqual({ tasks: [] });
    const uploads = join(dataDir, 'uploads');
    const left = existsSync(uploads) ? readdirSync(uploads).filter((d) => d !== '.incoming') : [];
    expect(left).toEqual([]);
    if (existsSync(join(uploads, '.incoming'))) expect(readdirSync(join(uploads, '.incoming'))).toEqual([]);
  });

  it('extraction-api:§11 test_get_task_not_found: unknown or malformed ids are 404 for status, result and delete', async () => {
    for (const path of ['/tasks/bad-id', '/tasks/01JKABC123DEFGHJKMNPQRSTVW', '/tasks/bad-id/result']) {
      const response = await fetch(`${baseUrl}${path}`);
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('task_not_found');
    }
    expect((await fetch(`${baseUrl}/tasks/bad-id`, { method: 'DELETE' })).status).toBe(404);
  });

  it('lists tasks newest first in pages, and deletes a task with its upload', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1)
      ids.push(
        ((await (await post({ name: `d${i}.pptx`, bytes: 'x' }, '{"a": ""}')).json()) as { task_id: string }).task_id,
      );
    for (const id of ids) await waitFor(id, ['failed']);
    const first = (await (await fetch(`${baseUrl}/tasks?limit=2`)).json()) as {
      tasks: { task_id: string }[];
      next_cursor?: string;
    };
    expect(first.tasks.map((t) => t.task_id)).toEqual([ids[2], ids[1]]);
    const second = (await (await fetch(`${baseUrl}/tasks?limit=2&cursor=${first.next_cursor}`)).json()) as {
      tasks: { task_id: string }[];
      next_cursor?: string;
    };
    expect(second).toEqual({ tasks: [expect.objectContaining({ task_id: ids[0] })] });
    expect((await fetch(`${baseUrl}/tasks?limit=0`)).status).toBe(400);
    const deleted = await fetch(`${baseUrl}/tasks/${ids[1]}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect((await fetch(`${baseUrl}/tasks/${ids[1]}`)).status).toBe(404);
    expect(existsSync(join(dataDir, 'uploads', ids[1]!))).toBe(false);
    expect(existsSync(join(dataDir, 'uploads', ids[0]!))).toBe(true);
  });

  it('describes the task routes in its OpenAPI document', async () => {
    const doc = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(doc.paths['/tasks'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/tasks/{id}'] ?? {}).sort()).toEqual(['delete', 'get']);
    expect(doc.paths['/tasks/{id}/result']).toHaveProperty('get');
  });
});
