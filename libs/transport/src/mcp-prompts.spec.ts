// SPDX-License-Identifier: AGPL-3.0-or-later
import { defineTool } from '@lectern/contracts';
import { MCP_TRANSPORTS, connectMcp, listenOnFreePort, silentLogger } from '@lectern/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createHttpApp } from './http-app.js';
import { mountMcp } from './mcp-app.js';
import { definePrompt, toolCall, type McpCompletions } from './mcp-prompts.js';
import type { McpResourceProvider } from './mcp-resources.js';
import { bindTool } from './tool-registration.js';

const lookupTool = defineTool({
  name: 'lookup',
  title: 'Lookup',
  description: 'Look a word up.',
  input: z.object({ word: z.string().max(50), limit: z.number().int().min(1).max(5).default(1) }),
  output: z.object({ status: z.literal('success') }),
  annotations: { readOnlyHint: true },
  errorCodes: [],
});
const tools = [bindTool(lookupTool, async () => ({ status: 'success' as const }))];

const greet = definePrompt({
  name: 'greet',
  title: 'Greet',
  description: 'Greet someone, optionally in a language.',
  arguments: z.object({
    person: z.string().min(1).describe('Who to greet.'),
    language: z.enum(['en', 'fr']).optional().describe('en or fr.'),
  }),
  render: ({ person, language }) => ({
    messages: [
      {
        role: 'user',
        content: {
          type: 'text',
          text: `Greet ${person} (${language ?? 'en'}); ${toolCall(lookupTool, { word: person })}`,
        },
      },
    ],
  }),
});

const resources: McpResourceProvider = {
  templates: [{ uriTemplate: 'test://things/{thing_id}', name: 'thing' }],
  list: async () => ({ resources: [] }),
  read: async (uri) => [{ uri, text: 'a thing' }],
};

/** 150 people, so the 100-value cap and `hasMore` show. */
const people = Array.from({ length: 150 }, (_, i) => `Person${String(i).padStart(3, '0')}`);
const completions: McpCompletions = {
  person: async () => [...people, 'person000', 'Person000'],
  thing_id: async (_prefix, context) => (context['person'] ? [`${context['person']}-thing`] : ['t1', 't2']),
  language: async () => {
    throw new Error('secret internals at /var/lib/x');
  },
};

describe('MCP prompts and completions (transport)', () => {
  let app: FastifyInstance;
  let keyed: FastifyInstance;
  let baseUrl: string;
  let keyedUrl: string;
  beforeAll(async () => {
    app = createHttpApp({ service: 'prompts-test', logger: silentLogger(), apiKey: undefined });
    mountMcp(app, { name: 'prompts-test', version: '1', tools, resources, prompts: [greet], completions });
    baseUrl = await listenOnFreePort(app);
    keyed = createHttpApp({ service: 'keyed', logger: silentLogger(), apiKey: 'a-long-enough-test-key-0123456789' });
    mountMcp(keyed, { name: 'keyed', version: '1', tools, prompts: [greet], completions });
    keyedUrl = await listenOnFreePort(keyed);
  });
  afterAll(async () => {
    await app.close();
    await keyed.close();
  });

  describe.each(MCP_TRANSPORTS)('over %s', (kind) => {
    let client: Client;
    beforeAll(async () => {
      client = await connectMcp(baseUrl, kind);
    });
    afterAll(async () => client.close());

    it('advertises prompts and completions, and lists the prompt with its arguments', async () => {
      expect(client.getServerCapabilities()).toMatchObject({ prompts: {}, completions: {} });
      const { prompts } = await client.listPrompts();
      expect(prompts).toEqual([
        {
          name: 'greet',
          title: 'Greet',
          description: 'Greet someone, optionally in a language.',
          arguments: [
            { name: 'person', description: 'Who to greet.', required: true },
            { name: 'language', description: 'en or fr.', required: false },
          ],
        },
      ]);
    });

    it('renders a prompt, naming the tool call in its notation', async () => {
      const got = await client.getPrompt({ name: 'greet', arguments: { person: 'Ada', language: 'fr' } });
      expect(got.messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'Greet Ada (fr); `lookup(word="Ada")`' } },
      ]);
    });

    it('refuses an unknown prompt, a missing or unknown argument, and an over-long one (-32602)', async () => {
      await expect(client.getPrompt({ name: 'nope', arguments: {} })).rejects.toThrow(/-32602.*Unknown prompt: nope/);
      await expect(client.getPrompt({ name: 'greet', arguments: {} })).rejects.toThrow(
        /-32602.*Invalid arguments for prompt greet.*person/,
      );
      await expect(client.getPrompt({ name: 'greet', arguments: { person: 'A', language: 'de' } })).rejects.toThrow(
        /-32602.*language/,
      );
      await expect(client.getPrompt({ name: 'greet', arguments: { person: 'A', extra: 'x' } })).rejects.toThrow(
        /-32602.*extra/,
      );
      await expect(client.getPrompt({ name: 'greet', arguments: { person: 'x'.repeat(2001) } })).rejects.toThrow(
        /-32602.*at most 2000 characters/,
      );
    });

    it('completes a prompt argument: prefix match (any case), each value once, at most 100, with total and hasMore', async () => {
      const all = await client.complete({
        ref: { type: 'ref/prompt', name: 'greet' },
        argument: { name: 'person', value: '' },
      });
      expect(all.completion.values).toHaveLength(100);
      expect(all.completion).toMatchObject({ total: 151, hasMore: true });
      expect(all.completion.values[0]).toBe('Person000');
      const some = await client.complete({
        ref: { type: 'ref/prompt', name: 'greet' },
        argument: { name: 'person', value: 'person14' },
      });
      expect(some.completion).toEqual({
        values: people.filter((p) => p.startsWith('Person14')),
        total: 10,
        hasMore: false,
      });
    });

    it('completes a resource template variable with the context the client resolved', async () => {
      const ref = { type: 'ref/resource' as const, uri: 'test://things/{thing_id}' };
      expect((await client.complete({ ref, argument: { name: 'thing_id', value: 't' } })).completion.values).toEqual([
        't1',
        't2',
      ]);
      const withContext = await client.complete({
        ref,
        argument: { name: 'thing_id', value: '' },
        context: { arguments: { person: 'Ada' } },
      });
      expect(withContext.completion.values).toEqual(['Ada-thing']);
    });

    it('answers nothing for an argument it cannot complete, an error for an unknown reference, no internals', async () => {
      const none = await client.complete({
        ref: { type: 'ref/resource', uri: 'test://things/{thing_id}' },
        argument: { name: 'person', value: '' },
      });
      expect(none.completion).toEqual({ values: [], total: 0, hasMore: false });
      await expect(
        client.complete({ ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'person', value: '' } }),
      ).rejects.toThrow(/-32602.*Unknown prompt/);
      await expect(
        client.complete({ ref: { type: 'ref/resource', uri: 'file:///{x}' }, argument: { name: 'x', value: '' } }),
      ).rejects.toThrow(/-32602.*Unknown resource template/);
      const failed = client.complete({
        ref: { type: 'ref/prompt', name: 'greet' },
        argument: { name: 'language', value: '' },
      });
      await expect(failed).rejects.toThrow(/-32603.*Internal error/);
      await expect(failed).rejects.not.toThrow(/secret/);
    });
  });

  it('a server without prompts offers neither prompts nor completions', async () => {
    const bare = createHttpApp({ service: 'bare', logger: silentLogger(), apiKey: undefined });
    mountMcp(bare, { name: 'bare', version: '1', tools });
    const url = await listenOnFreePort(bare);
    const client = await connectMcp(url, 'streamable-http');
    try {
      expect(client.getServerCapabilities()?.prompts).toBeUndefined();
      expect(client.getServerCapabilities()?.completions).toBeUndefined();
      await expect(client.listPrompts()).rejects.toThrow(/-32601/);
    } finally {
      await client.close();
      await bare.close();
    }
  });

  it('key mode: prompts and completions need the key, as tools do', async () => {
    const post = (token?: string) =>
      fetch(`${keyedUrl}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'prompts/list', params: {} }),
      });
    expect((await post()).status).toBe(401);
    expect((await post('wrong-key-wrong-key-wrong-key-000')).status).toBe(401);
    const client = await connectMcp(keyedUrl, 'streamable-http', { token: 'a-long-enough-test-key-0123456789' });
    try {
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['greet']);
    } finally {
      await client.close();
    }
  });
});
