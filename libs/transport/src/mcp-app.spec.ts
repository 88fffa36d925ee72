// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError, defineTool } from '@lectern/contracts';
import { MCP_TRANSPORTS, connectMcp, listenOnFreePort, silentLogger, toolText } from '@lectern/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ProgressNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { z } from 'zod';
import { createHttpApp } from './http-app.js';
import { mountMcp } from './mcp-app.js';
import { bindTool } from './tool-registration.js';

const echoTool = defineTool({
  name: 'echo',
  title: 'Echo',
  description: 'Echo a message back, optionally reporting progress.',
  input: z.object({ message: z.string().min(1), steps: z.number().int().min(0).max(10).default(0) }),
  output: z.object({ status: z.literal('success'), message: z.string() }),
  annotations: { readOnlyHint: true },
  errorCodes: [],
});
const failTool = defineTool({
  name: 'fail',
  title: 'Fail',
  description: 'Fail with an application error or an unexpected one.',
  input: z.object({ kind: z.enum(['app', 'unexpected', 'bad_output']) }),
  output: z.object({ status: z.literal('success') }),
  annotations: {},
  errorCodes: ['document_not_found'],
});
const listTool = defineTool({
  name: 'list_things',
  title: 'List things',
  description: 'Returns a bare list (spec 002 style).',
  input: z.object({}),
  output: z.object({ result: z.array(z.string()) }),
  annotations: { readOnlyHint: true },
  errorCodes: [],
  textShape: 'result',
});

const SECRET = 'db password is hunter2 at /var/lib/secret';

const tools = [
  bindTool(echoTool, async (input, ctx) => {
    for (let i = 1; i <= input.steps; i++) await ctx.progress(i, input.steps, `step ${i}`);
    return { status: 'success' as const, message: input.message };
  }),
  bindTool(failTool, async (input) => {
    if (input.kind === 'app') throw new AppError('document_not_found', 'Document not found: abc_123456');
    if (input.kind === 'bad_output') return { status: 'nope' } as never;
    throw new Error(SECRET);
  }),
  bindTool(listTool, async () => ({ result: ['a', 'b'] })),
];

describe('MCP server on fastify (both transports)', () => {
  let app: FastifyInstance;
  let baseUrl: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _enc, done) {
        logLines.push(chunk.toString());
        done();
      },
    });
    app = createHttpApp({ service: 'test-mcp', logger: pino({ level: 'info' }, sink), apiKey: undefined });
    mountMcp(app, { name: 'test-mcp', version: '1.0.0', tools });
    baseUrl = await listenOnFreePort(app);
  });
  afterAll(async () => {
    await app.close();
  });

  describe.each(MCP_TRANSPORTS)('over %s', (kind) => {
    let client: Client;
    beforeAll(async () => {
      client = await connectMcp(baseUrl, kind);
    });
    afterAll(async () => {
      await client.close();
    });

    it('lists tools with input and output object schemas, descriptions and annotations', async () => {
      const { tools: listed } = await client.listTools();
      expect(listed.map((t) => t.name).sort()).toEqual(['echo', 'fail', 'list_things']);
      const echo = listed.find((t) => t.name === 'echo');
      expect(echo?.inputSchema.type).toBe('object');
      expect(echo?.inputSchema.required).toEqual(['message']);
      expect(echo?.outputSchema?.type).toBe('object');
      expect(echo?.description).toMatch(/Echo/);
      expect(echo?.annotations?.readOnlyHint).toBe(true);
    });

    it('returns the result as text JSON and as structuredContent', async () => {
      const result = await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ status: 'success', message: 'hi' });
      expect(toolText(result)).toEqual({ status: 'success', message: 'hi' });
    });

    it('sends a bare list as text and wraps it as {result} in structuredContent', async () => {
      const result = await client.callTool({ name: 'list_things', arguments: {} });
      expect(toolText(result)).toEqual(['a', 'b']);
      expect(result.structuredContent).toEqual({ result: ['a', 'b'] });
    });

    it('maps an AppError to the spec error shape', async () => {
      const result = await client.callTool({ name: 'fail', arguments: { kind: 'app' } });
      expect(result.isError).toBe(true);
      expect(toolText(result)).toEqual({
        status: 'error',
        error_type: 'document_not_found',
        message: 'Document not found: abc_123456',
      });
    });

    it('maps an unexpected error to internal_error without leaking its message, and logs the stack', async () => {
      const result = await client.callTool({ name: 'fail', arguments: { kind: 'unexpected' } });
      expect(result.isError).toBe(true);
      const body = toolText(result) as { error_type: string; message: string };
      expect(body.error_type).toBe('internal_error');
      expect(JSON.stringify(result)).not.toContain('hunter2');
      expect(JSON.stringify(result)).not.toContain('/var/lib');
      expect(logLines.join('')).toContain('hunter2');
      expect(logLines.join('')).toMatch(/"stack":"Error: db password/);
    });

    it('treats an output that breaks the contract as an internal error', async () => {
      const result = await client.callTool({ name: 'fail', arguments: { kind: 'bad_output' } });
      expect((toolText(result) as { error_type: string }).error_type).toBe('internal_error');
    });

    it('rejects arguments that break the input schema with invalid_arguments', async () => {
      const result = await client.callTool({ name: 'echo', arguments: { message: '', steps: 99 } });
      expect(result.isError).toBe(true);
      const body = toolText(result) as { status: string; error_type: string; message: string };
      expect(body.status).toBe('error');
      expect(body.error_type).toBe('invalid_arguments');
      expect(body.message).toContain('message');
      expect(body.message).toContain('steps');
    });

    it('delivers progress notifications when the client sends a progress token', async () => {
      // Recorded with a notification handler rather than callTool's `onprogress`: over SSE the SDK client
      // dispatches notifications in a microtask and drops those that arrive in the same chunk as the
      // response (its progress handler is already gone). The wire carries them all; that is what we check.
      const seen: Array<{ progress: number; total?: number }> = [];
      client.setNotificationHandler(ProgressNotificationSchema, async (n) => {
        seen.push({ progress: n.params.progress, total: n.params.total });
      });
      await client.callTool({ name: 'echo', arguments: { message: 'x', steps: 3 } }, undefined, {
        onprogress: () => {},
      });
      await new Promise((r) => setTimeout(r, 50));
      expect(seen).toEqual([
        { progress: 1, total: 3 },
        { progress: 2, total: 3 },
        { progress: 3, total: 3 },
      ]);
    });

    it('answers an unknown tool with a protocol error', async () => {
      await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/Unknown tool/);
    });
  });

  it('counts requests per route and calls per tool in /metrics', async () => {
    const client = await connectMcp(baseUrl, 'streamable-http');
    await client.callTool({ name: 'echo', arguments: { message: 'm' } });
    await client.close();
    const text = await (await fetch(`${baseUrl}/metrics`)).text();
    expect(text).toMatch(/mcp_tool_calls_total\{tool="echo",outcome="success",service="test-mcp"\} \d+/);
    expect(text).toMatch(/mcp_tool_calls_total\{tool="fail",outcome="internal_error",service="test-mcp"\} \d+/);
    expect(text).toMatch(/http_requests_total\{method="POST",route="\/mcp",status_code="200",service="test-mcp"\} \d+/);
    expect(text).toMatch(
      /mcp_tool_duration_seconds_bucket\{le="0.005",service="test-mcp",tool="echo",outcome="success"\} \d+/,
    );
  });

  it('answers GET and DELETE /mcp with 405 in stateless mode', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${baseUrl}/mcp`, { method, headers: { accept: 'text/event-stream' } });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });

  it('answers /health without auth and unknown routes with the REST error shape', async () => {
    expect(await (await fetch(`${baseUrl}/health`)).json()).toEqual({ status: 'ok' });
    const missing = await fetch(`${baseUrl}/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: { code: 'not_found', message: 'No route for GET /nope' } });
  });
});

describe('MCP Streamable HTTP in stateful mode', () => {
  let app: FastifyInstance;
  let baseUrl: string;
  beforeAll(async () => {
    app = createHttpApp({ service: 'test-stateful', logger: silentLogger(), apiKey: undefined });
    mountMcp(app, { name: 'test-stateful', version: '1.0.0', tools, sessionMode: 'stateful' });
    baseUrl = await listenOnFreePort(app);
  });
  afterAll(async () => {
    await app.close();
  });

  it('keeps a session across requests', async () => {
    const client = await connectMcp(baseUrl, 'streamable-http');
    const result = await client.callTool({ name: 'echo', arguments: { message: 'kept' } });
    expect(result.structuredContent).toEqual({ status: 'success', message: 'kept' });
    await client.close();
  });

  it('answers 400 without a session id and 404 for an unknown one', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    expect((await fetch(`${baseUrl}/mcp`, { method: 'POST', headers, body })).status).toBe(400);
    const unknown = await fetch(`${baseUrl}/mcp`, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': 'nope' },
      body,
    });
    expect(unknown.status).toBe(404);
  });
});
