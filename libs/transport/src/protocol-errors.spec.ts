// SPDX-License-Identifier: AGPL-3.0-or-later
import { defineTool } from '@lectern/contracts';
import { MCP_TRANSPORTS, connectMcp, listenOnFreePort, silentLogger, type McpTransportKind } from '@lectern/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError, ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createHttpApp } from './http-app.js';
import { mountMcp } from './mcp-app.js';
import { bindTool } from './tool-registration.js';

const echoTool = defineTool({
  name: 'echo',
  title: 'Echo',
  description: 'Echo a message back.',
  input: z.object({ message: z.string().min(1).max(100) }),
  output: z.object({ status: z.literal('success'), message: z.string() }),
  annotations: { readOnlyHint: true },
  errorCodes: [],
});
const tools = [bindTool(echoTool, async (input) => ({ status: 'success' as const, message: input.message }))];

const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** POST one JSON-RPC body to /mcp and read the JSON-RPC message(s) back (JSON or one SSE event). */
const post = async (baseUrl: string, body: unknown, extra: Record<string, string> = {}) => {
  const response = await fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: { ...headers, ...extra },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const data =
    text.startsWith('event:') || text.startsWith('data:')
      ? text
          .split('\n')
          .find((l) => l.startsWith('data: '))
          ?.slice(6)
      : text;
  return {
    status: response.status,
    message: data ? (JSON.parse(data) as { error?: { code: number; message: string } }) : undefined,
  };
};

const malformedCalls: Array<[string, Record<string, unknown>]> = [
  ['arguments that are not an object', { name: 'echo', arguments: 'hello' }],
  ['a missing tool name', { arguments: { message: 'x' } }],
  ['a tool name that is not a string', { name: 42, arguments: {} }],
];

describe('MCP protocol errors', () => {
  let app: FastifyInstance;
  let baseUrl: string;
  beforeAll(async () => {
    app = createHttpApp({ service: 'test-protocol', logger: silentLogger(), apiKey: undefined });
    mountMcp(app, { name: 'test-protocol', version: '1.0.0', tools });
    baseUrl = await listenOnFreePort(app);
  });
  afterAll(async () => {
    await app.close();
  });

  describe('POST /mcp (raw JSON-RPC)', () => {
    it.each(malformedCalls)('answers tools/call with %s with -32602 and a short message', async (_name, params) => {
      const { status, message } = await post(baseUrl, { jsonrpc: '2.0', id: 7, method: 'tools/call', params });
      expect(status).toBe(200);
      expect(message).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: ErrorCode.InvalidParams } });
      expect(message?.error?.message).toMatch(/^Invalid params for tools\/call: (arguments|name): /);
      expect(message?.error?.message.length).toBeLessThan(300);
      expect(message?.error?.message).not.toContain('\n');
    });

    it('answers initialize with malformed params with -32602', async () => {
      const { message } = await post(baseUrl, {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: 5 },
      });
      expect(message?.error?.code).toBe(ErrorCode.InvalidParams);
      expect(message?.error?.message).toMatch(/^Invalid params for initialize: protocolVersion: /);
    });

    it('answers an empty batch with 400 and an invalid-request error', async () => {
      const { status, message } = await post(baseUrl, []);
      expect(status).toBe(400);
      expect(message).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: ErrorCode.InvalidRequest, message: 'Invalid Request: empty batch' },
      });
    });

    it('still answers a well-formed call', async () => {
      const { message } = await post(baseUrl, {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'echo', arguments: { message: 'ok' } },
      });
      expect(message).toMatchObject({ id: 3, result: { structuredContent: { status: 'success', message: 'ok' } } });
    });
  });

  describe.each(MCP_TRANSPORTS)('through an SDK client over %s', (kind: McpTransportKind) => {
    let client: Client;
    beforeAll(async () => {
      client = await connectMcp(baseUrl, kind);
    });
    afterAll(async () => {
      await client.close();
    });

    it.each(malformedCalls)(
      'rejects tools/call with %s as invalid params, and the session goes on',
      async (_name, params) => {
        const error = await client
          .request({ method: 'tools/call', params } as never, ResultSchema)
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(McpError);
        expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
        expect((error as McpError).message.length).toBeLessThan(350);
        const ok = await client.callTool({ name: 'echo', arguments: { message: 'still here' } });
        expect(ok.structuredContent).toEqual({ status: 'success', message: 'still here' });
      },
    );

    it('keeps arguments that break the tool schema a tool result in the spec error shape', async () => {
      const result = await client.callTool({ name: 'echo', arguments: { message: 'x'.repeat(101) } });
      expect(result.isError).toBe(true);
    });
  });
});

describe('MCP protocol errors in stateful mode', () => {
  it('answers an empty batch with 400 and an invalid-request error', async () => {
    const app = createHttpApp({ service: 'test-protocol-stateful', logger: silentLogger(), apiKey: undefined });
    mountMcp(app, { name: 'test-protocol-stateful', version: '1.0.0', tools, sessionMode: 'stateful' });
    const baseUrl = await listenOnFreePort(app);
    try {
      const { status, message } = await post(baseUrl, []);
      expect(status).toBe(400);
      expect(message?.error?.code).toBe(ErrorCode.InvalidRequest);
    } finally {
      await app.close();
    }
  });
});
