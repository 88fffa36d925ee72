// SPDX-License-Identifier: AGPL-3.0-or-later
import { AuthMessages } from '@lectern/auth';
import {
  MCP_TRANSPORTS,
  connectMcp,
  listenOnFreePort,
  mcpAuthProbes,
  runAuthMatrix,
  expectAuthMatrix,
  silentLogger,
} from '@lectern/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';

const SPEC_001 = [
  'search_policy',
  'get_policy_section',
  'list_policy_documents',
  'list_policy_revisions',
  'ingest_policy_revision',
  'remove_policy_revision',
];

describe('policy-kb-mcp', () => {
  let app: FastifyInstance;
  let baseUrl: string;
  const token = 'policy-kb-test-token';

  beforeAll(async () => {
    app = buildApp({ config: loadConfig({ MCP_API_KEY: token }), logger: silentLogger() });
    baseUrl = await listenOnFreePort(app);
  });
  afterAll(async () => {
    await app.close();
  });

  describe.each(MCP_TRANSPORTS)('tools/list over %s', (kind) => {
    it('lists the six tools of spec 001 with full schemas, descriptions and annotations', async () => {
      const client = await connectMcp(baseUrl, kind, { token });
      const { tools } = await client.listTools();
      expect(client.getServerVersion()?.name).toBe('policy-kb-mcp');
      await client.close();
      expect(tools.map((t) => t.name).sort()).toEqual([...SPEC_001].sort());
      for (const tool of tools) {
        expect(tool.inputSchema.type).toBe('object');
        expect(tool.outputSchema?.type).toBe('object');
        expect(tool.description?.length ?? 0).toBeGreaterThan(30);
        expect(typeof tool.annotations?.readOnlyHint).toBe('boolean');
      }
      const search = tools.find((t) => t.name === 'search_policy');
      expect(search?.inputSchema.required).toEqual(['query']);
      expect((search?.inputSchema.properties as Record<string, { default?: unknown }>)['n_results']?.default).toBe(10);
      const ingest = tools.find((t) => t.name === 'ingest_policy_revision');
      expect(ingest?.inputSchema.required?.sort()).toEqual(['file_path', 'revision_id', 'source']);
      expect(tools.find((t) => t.name === 'remove_policy_revision')?.annotations?.destructiveHint).toBe(true);
    });
  });

  it('guards every endpoint but /health with the bearer token (both transports)', async () => {
    const results = await runAuthMatrix(baseUrl, token, mcpAuthProbes);
    expectAuthMatrix(results, AuthMessages);
    expect((await fetch(`${baseUrl}/health`)).status).toBe(200);
  });

  it('rejects a malformed source slug with invalid_arguments in the spec error shape', async () => {
    const client = await connectMcp(baseUrl, 'sse', { token });
    const result = await client.callTool({ name: 'list_policy_revisions', arguments: { source: 'not a slug' } });
    await client.close();
    expect(result.isError).toBe(true);
    const body = JSON.parse((result.content as { text: string }[])[0]?.text ?? '{}');
    expect(body).toMatchObject({ status: 'error', error_type: 'invalid_arguments' });
    expect(body.message).toContain('source');
  });
});

describe('policy-kb-mcp config', () => {
  it('listens on 3003 by default and honours POLICY_KB_PORT', () => {
    expect(loadConfig({}).POLICY_KB_PORT).toBe(3003);
    expect(loadConfig({ POLICY_KB_PORT: '4003' }).POLICY_KB_PORT).toBe(4003);
  });
});
