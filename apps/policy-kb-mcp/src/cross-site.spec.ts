// SPDX-License-Identifier: AGPL-3.0-or-later
import { runCrossSite } from '@lectern/testing';
import { startPolicyKb, type RunningPolicyKb } from './policy-kb.testkit.js';

const KEY = 'policy-kb-cross-site-key-0123';

/** Issue 30: the admin REST of policy-kb-mcp refuses another site's requests, with and without a key. */
describe.each([
  ['without a key', undefined],
  ['with a key', KEY],
] as const)('policy-kb-mcp REST from another site, %s', (_label, key) => {
  let kb: RunningPolicyKb;
  beforeAll(async () => {
    kb = await startPolicyKb(key ? { MCP_API_KEY: key } : {});
  });
  afterAll(async () => kb?.stop());

  it('refuses a multipart revision upload and a JSON policy registration (403) and registers nothing', async () => {
    const results = await runCrossSite(kb.baseUrl, {
      multipartPath: '/api/policies/NPPF/revisions',
      multipartFields: { revision_id: 'r2024', effective_from: '2024-01-01' },
      jsonPath: '/api/policies',
      json: { source: 'NPPF', title: 'National Planning Policy Framework' },
      token: key,
    });
    expect(results).toHaveLength(4);
    for (const r of results)
      expect({ case: r.case, status: r.status, body: r.body }).toEqual({
        case: r.case,
        status: 403,
        body: { error: { code: 'forbidden', message: expect.stringMatching(/^Forbidden: (Origin|Host) header/) } },
      });
    const listed = await fetch(`${kb.baseUrl}/api/policies`, {
      headers: key ? { authorization: `Bearer ${key}` } : {},
    });
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual({ policies: [] });
  });
});
