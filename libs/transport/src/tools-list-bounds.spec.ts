// SPDX-License-Identifier: AGPL-3.0-or-later
import * as contracts from '@lectern/contracts';
import { getDocumentTextTool, type AnyToolDefinition } from '@lectern/contracts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { silentLogger } from '@lectern/testing';
import { createMcpServerFactory, describeTools } from './mcp-server-factory.js';
import { bindTool } from './tool-registration.js';

/** Every tool contract the package exports (anything shaped like a `defineTool` result). */
const allDefinitions = Object.values(contracts).filter(
  (v): v is AnyToolDefinition =>
    typeof v === 'object' && v !== null && 'name' in v && 'input' in v && 'output' in v && 'annotations' in v,
);

describe('tools/list without needless bounds (issue 30)', () => {
  it('advertises no Number.MAX_SAFE_INTEGER bound in any tool schema, and keeps the real bounds', () => {
    expect(allDefinitions.length).toBeGreaterThan(20);
    const listed = describeTools(allDefinitions.map((d) => bindTool(d, async () => ({}) as never)));
    const json = JSON.stringify(listed);
    expect(json).not.toContain('9007199254740991');
    const text = listed.find((t) => t.name === 'get_document_text');
    const pageFrom = (text?.inputSchema.properties as Record<string, Record<string, unknown>>)['page_from'];
    expect(pageFrom).toEqual({
      type: 'integer',
      minimum: 1,
      description: 'Only the text of chunks on this page or later (1-based).',
    });
    const search = listed.find((t) => t.name === 'search_policy');
    expect((search?.inputSchema.properties as Record<string, Record<string, unknown>>)['n_results']).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 100,
    });
  });

  it('the server still refuses integers beyond the safe range and fractions (zod checks unchanged)', async () => {
    let ran = 0;
    const factory = createMcpServerFactory({
      name: 'bounds',
      version: '0',
      log: silentLogger(),
      tools: [
        bindTool(getDocumentTextTool, async (input) => {
          ran += 1;
          return { document_id: input.document_id, text: '', chunk_count: 0 } as never;
        }),
      ],
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await factory().connect(serverSide);
    const client = new Client({ name: 'bounds', version: '0' });
    await client.connect(clientSide);
    try {
      for (const page_from of [2 ** 53 + 2, 1.5, 0]) {
        const result = await client.callTool({
          name: 'get_document_text',
          arguments: { document_id: 'a_123456', page_from },
        });
        expect(result.isError).toBe(true);
        expect(JSON.stringify(result.content)).toContain('invalid_arguments');
      }
      expect(ran).toBe(0);
    } finally {
      await client.close();
    }
  });
});
