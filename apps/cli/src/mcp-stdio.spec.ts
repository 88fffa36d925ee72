// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, toolText } from '@lectern/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const bin = () => join(repoRoot(), 'apps', 'cli', 'bin', 'lectern.cjs');

/** Spawn `lectern mcp <server>` as a desktop client does, over its stdin/stdout. */
const connect = async (server: 'documents' | 'policies', dataDir: string) => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin(), 'mcp', server],
    env: { ...(process.env as Record<string, string>), DATA_DIR: dataDir, LOG_LEVEL: 'info' },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'stdio-test', version: '0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
};

describe('lectern mcp (stdio transport)', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'lectern-stdio-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('documents: lists the document store tools and calls them; logs go to stderr only', async () => {
    const { client, stderr } = await connect('documents', dataDir);
    try {
      expect(client.getServerVersion()?.name).toBe('document-store-mcp');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(
        expect.arrayContaining([
          'ingest_document',
          'search_application_docs',
          'get_document_text',
          'list_ingested_documents',
          'list_collections',
        ]),
      );
      const collections = await client.callTool({ name: 'list_collections', arguments: {} });
      expect(collections.isError).toBeFalsy();
      expect(toolText(collections)).toEqual([]);
      const listed = await client.callTool({
        name: 'list_ingested_documents',
        arguments: { application_ref: 'NONE/1' },
      });
      expect(listed.isError).toBeFalsy();
      expect(listed.structuredContent).toMatchObject({ status: 'success', document_count: 0, documents: [] });
      const refused = await client.callTool({
        name: 'ingest_document',
        arguments: { file_path: '/etc/passwd', application_ref: 'X/1' },
      });
      expect(refused.isError).toBe(true);
      expect(toolText(refused)).toMatchObject({ status: 'error', error_type: 'forbidden_path' });
    } finally {
      await client.close();
    }
    expect(stderr()).toContain('document-store-mcp ready on stdio');
  }, 120_000);

  it('policies: serves the policy knowledge base tools', async () => {
    const { client } = await connect('policies', dataDir);
    try {
      expect(client.getServerVersion()?.name).toBe('policy-kb-mcp');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['search_policy', 'list_policy_documents']));
    } finally {
      await client.close();
    }
  }, 120_000);
});
