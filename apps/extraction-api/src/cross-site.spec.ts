// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCrossSite } from '@lectern/testing';
import { startExtraction, type RunningExtraction } from './extraction.testkit.js';

const KEY = 'extraction-cross-site-key-0123';

/** Issue 30: extraction-api's task REST refuses another site's requests, with and without a key. */
describe.each([
  ['without a key', undefined],
  ['with a key', KEY],
] as const)('extraction-api REST from another site, %s', (_label, key) => {
  let service: RunningExtraction;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'extraction-cross-site-'));
    service = await startExtraction({
      DATA_DIR: dataDir,
      MCP_TOOLS_URL: 'http://127.0.0.1:9/mcp',
      ...(key ? { MCP_API_KEY: key } : {}),
    });
  });
  afterAll(async () => {
    await service?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a multipart task and a JSON task (403) and creates no task', async () => {
    const results = await runCrossSite(service.baseUrl, {
      multipartPath: '/tasks',
      multipartFields: { schema: '{"title":""}' },
      jsonPath: '/tasks',
      json: { schema: { title: '' } },
      token: key,
    });
    expect(results).toHaveLength(4);
    for (const r of results)
      expect({ case: r.case, status: r.status, body: r.body }).toEqual({
        case: r.case,
        status: 403,
        body: { error: { code: 'forbidden', message: expect.stringMatching(/^Forbidden: (Origin|Host) header/) } },
      });
    const listed = await fetch(`${service.baseUrl}/tasks`, { headers: key ? { authorization: `Bearer ${key}` } : {} });
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual({ tasks: [] });
  });
});
