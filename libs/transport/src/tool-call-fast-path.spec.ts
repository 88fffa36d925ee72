// SPDX-License-Identifier: AGPL-3.0-or-later
import { defineTool } from '@lectern/contracts';
import { connectMcp, listenOnFreePort, silentLogger } from '@lectern/testing';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createHttpApp } from './http-app.js';
import { mountMcp } from './mcp-app.js';
import { bindTool } from './tool-registration.js';

// The stateless fast path for plain `tools/call` (tool-call-fast-path.ts) against the SDK's own path: same answers,
// the SDK's checks kept, progress still streamed, a client that leaves still aborts the handler.

const echo = defineTool({
  name: 'echo',
  title: 'Echo',
  description: 'Echo a message back.',
  input: z.object({ message: z.string().min(1).max(100), wait_ms: z.number().int().min(0).optional() }),
  output: z.object({ status: z.literal('success'), message: z.string() }),
  annotations: { readOnlyHint: true },
  errorCodes: [],
});

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('stateless tools/call without progress: answered as one JSON body', () => {
  let app: FastifyInstance;
  let baseUrl: string;
  const aborted: string[] = [];

  beforeAll(async () => {
    app = createHttpApp({ service: 'fast-path', logger: silentLogger(), apiKey: undefined });
    const tools = [
      bindTool(echo, async (input, ctx) => {
        if (input.wait_ms) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, input.wait_ms);
            ctx.signal.addEventListener('abort', () => {
              aborted.push(input.message);
              clearTimeout(timer);
              resolve();
            });
          });
        }
        for (let i = 1; i <= 2; i++) await ctx.progress(i, 2, `step ${i}`);
        return { status: 'success' as const, message: input.message };
      }),
    ];
    mountMcp(app, { name: 'fast-path', version: '1.0.0', tools });
    baseUrl = await listenOnFreePort(app);
  });
  afterAll(() => app.close());

  const post = (body: unknown, headers: Record<string, string> = HEADERS, signal?: AbortSignal) =>
    fetch(`${baseUrl}/mcp`, { method: 'POST', headers, body: JSON.stringify(body), ...(signal ? { signal } : {}) });
  const call = (id: number | string, args: unknown, meta?: Record<string, unknown>) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'echo', arguments: args, ...(meta ? { _meta: meta } : {}) },
  });

  it('answers a plain call with application/json: the tool result, output-validated, under its id', async () => {
    const response = await post(call('a-1', { message: 'hi' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 'a-1',
      result: {
        content: [{ type: 'text', text: '{"status":"success","message":"hi"}' }],
        structuredContent: { status: 'success', message: 'hi' },
      },
    });
  });

  it('keeps the tool input check and the unknown-tool error the SDK path gives', async () => {
    const invalid = (await (await post(call(2, { message: '' }))).json()) as { result: { isError: boolean } };
    expect(invalid.result.isError).toBe(true);
    expect(JSON.stringify(invalid)).toContain('invalid_arguments');
    const unknown = await post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'nope' } });
    expect(await unknown.json()).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32602, message: 'MCP error -32602: Unknown tool: nope' },
    });
  });

  it('leaves what it does not fully check to the SDK: its 406, 400 and -32602 answers are unchanged', async () => {
    expect(
      (await post(call(4, { message: 'x' }), { 'content-type': 'application/json', accept: 'application/json' }))
        .status,
    ).toBe(406);
    expect((await post(call(5, { message: 'x' }), { ...HEADERS, 'mcp-protocol-version': '1999-01-01' })).status).toBe(
      400,
    );
    const text = await (await post({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 42 } })).text();
    expect(text).toContain('-32602');
    expect(text).toContain('Invalid params for tools/call');
  });

  it('streams a call that asked for progress (SSE), notifications first', async () => {
    const response = await post(call(7, { message: 'p' }, { progressToken: 'tok' }));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = (await response.text())
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)) as { method?: string; id?: number });
    expect(events.map((e) => e.method ?? `result ${e.id}`)).toEqual([
      'notifications/progress',
      'notifications/progress',
      'result 7',
    ]);
  });

  it("aborts the handler's signal when the client goes away mid-call", async () => {
    const gone = new AbortController();
    const pending = post(call(8, { message: 'left', wait_ms: 10_000 }), HEADERS, gone.signal).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 300));
    gone.abort();
    await pending;
    for (let i = 0; i < 50 && !aborted.includes('left'); i++) await new Promise((r) => setTimeout(r, 20));
    expect(aborted).toContain('left');
  });

  it('serves a real SDK client (which accepts either answer)', async () => {
    const client = await connectMcp(baseUrl, 'streamable-http');
    try {
      const result = await client.callTool({ name: 'echo', arguments: { message: 'sdk' } });
      expect(result.structuredContent).toEqual({ status: 'success', message: 'sdk' });
    } finally {
      await client.close();
    }
  });
});
