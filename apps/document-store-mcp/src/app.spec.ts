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
  toolText,
} from '@lectern/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';

const SPEC_000 = ['ingest_document', 'search_application_docs', 'get_document_text', 'list_ingested_documents'];
const SPEC_002 = ['retrieve_document_chunks', 'store_document_chunks', 'list_collections'];
const SPEC_004 = ['store_chunks', 'find_chunks', 'query_hybrid', 'inspect_collection', 'list_projects'];
const EXTRA = ['delete_document'];

describe('document-store-mcp', () => {
  let app: FastifyInstance;
  let baseUrl: string;
  const token = 'doc-store-test-token';

  beforeAll(async () => {
    app = buildApp({ config: loadConfig({ MCP_API_KEY: token }), logger: silentLogger() });
    baseUrl = await listenOnFreePort(app);
  });
  afterAll(async () => {
    await app.close();
  });

  describe.each(MCP_TRANSPORTS)('tools/list over %s', (kind) => {
    it('lists every tool of specs 000, 002 and 004 with full schemas, a description and annotations', async () => {
      const client = await connectMcp(baseUrl, kind, { token });
      const { tools } = await client.listTools();
      await client.close();
      expect(tools.map((t) => t.name).sort()).toEqual([...SPEC_000, ...SPEC_002, ...SPEC_004, ...EXTRA].sort());
      for (const tool of tools) {
        expect(tool.inputSchema.type).toBe('object');
        expect(tool.outputSchema?.type).toBe('object');
        expect(tool.outputSchema?.properties).toBeDefined();
        expect(tool.description?.length ?? 0).toBeGreaterThan(30);
        expect(tool.annotations).toBeDefined();
        expect(typeof tool.annotations?.readOnlyHint).toBe('boolean');
      }
      const ingest = tools.find((t) => t.name === 'ingest_document');
      expect(ingest?.inputSchema.required?.sort()).toEqual(['application_ref', 'file_path']);
      expect(Object.keys(ingest?.inputSchema.properties ?? {})).toEqual(
        expect.arrayContaining(['file_path', 'application_ref', 'document_type']),
      );
      const search = tools.find((t) => t.name === 'search_application_docs');
      expect(search?.inputSchema.required).toEqual(['query']);
      expect((search?.inputSchema.properties as Record<string, { default?: unknown }>)['max_results']?.default).toBe(
        10,
      );
      const retrieve = tools.find((t) => t.name === 'retrieve_document_chunks');
      expect((retrieve?.inputSchema.properties as Record<string, { default?: unknown }>)['top_k']?.default).toBe(5);
    });
  });

  it('answers a tool that is not built yet with a clear not_implemented error', async () => {
    const client = await connectMcp(baseUrl, 'streamable-http', { token });
    const result = await client.callTool({ name: 'list_projects', arguments: {} });
    await client.close();
    expect(result.isError).toBe(true);
    expect(toolText(result)).toMatchObject({ status: 'error', error_type: 'not_implemented' });
  });

  it('guards every endpoint but /health with the bearer token (both transports)', async () => {
    const results = await runAuthMatrix(baseUrl, token, mcpAuthProbes);
    expectAuthMatrix(results, AuthMessages);
    expect(results.find((r) => r.probe === 'POST /mcp' && r.case === 'right')?.status).toBe(200);
    expect(results.find((r) => r.probe === 'GET /sse' && r.case === 'right')?.status).toBe(200);
    const health = await fetch(`${baseUrl}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
  });

  it('refuses an MCP client without the token on both transports', async () => {
    await expect(connectMcp(baseUrl, 'streamable-http')).rejects.toThrow(/401|nauthorized/);
    await expect(connectMcp(baseUrl, 'sse', { token: 'wrong' })).rejects.toThrow(/401|nauthorized/);
  });
});

describe('document-store-mcp config', () => {
  it('uses the spec defaults', () => {
    const config = loadConfig({});
    expect(config.DOCUMENT_STORE_PORT).toBe(3002);
    expect(config.HOST).toBe('127.0.0.1');
    expect(config.MCP_ALLOWED_HOSTS).toEqual([]);
    expect(config.MCP_ALLOWED_ORIGINS).toEqual([]);
    expect(config.IMAGE_RATIO_THRESHOLD).toBe(0.7);
    expect(config.ENABLE_OCR).toBe(true);
    expect(config.DOCUMENT_STORE_PROJECT).toBe('application_docs');
    expect(config.MCP_API_KEY).toBeUndefined();
  });

  it('stops start-up naming a bad variable', () => {
    expect(() => loadConfig({ DOCUMENT_STORE_PORT: 'x', IMAGE_RATIO_THRESHOLD: '2' })).toThrow(
      /DOCUMENT_STORE_PORT[\s\S]*IMAGE_RATIO_THRESHOLD/,
    );
  });
});
