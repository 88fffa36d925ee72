// SPDX-License-Identifier: AGPL-3.0-or-later
import { request as httpRequest } from 'node:http';
import { AppError, defineTool } from '@lectern/contracts';
import { connectMcp, listenOnFreePort, silentLogger, toolText } from '@lectern/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createHttpApp } from './http-app.js';
import { httpShutdownStep } from './close-http.js';
import { mountMcp } from './mcp-app.js';
import { requestSignal } from './request-signal.js';
import { installShutdown } from './shutdown.js';
import { TIMEOUT_META_KEY, withDeadlines } from './tool-deadline.js';
import { bindTool, type ToolContext } from './tool-registration.js';

const waitTool = (name: string, errorCodes: string[] = []) =>
  defineTool({
    name,
    title: name,
    description: 'Waits until its signal aborts, then records why.',
    input: z.object({}),
    output: z.object({ status: z.literal('success') }),
    annotations: { readOnlyHint: true },
    errorCodes,
  });

/** A handler that only stops when its signal aborts; `started` resolves once it runs, `stopped` with the reason. */
const waiter = () => {
  let markStarted!: () => void;
  let markStopped!: (reason: unknown) => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const stopped = new Promise<unknown>((resolve) => (markStopped = resolve));
  const handler = async (_input: unknown, ctx: ToolContext) => {
    markStarted();
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    markStopped(ctx.signal.reason);
    return { status: 'success' as const };
  };
  return { handler, started, stopped };
};

const call = (client: Client, name: string, meta?: Record<string, unknown>) =>
  client.callTool({ name, arguments: {}, ...(meta ? { _meta: meta } : {}) }, undefined, { timeout: 30_000 });

describe('every tool call has a deadline, applied by the MCP server factory (real SDK client)', () => {
  let app: FastifyInstance;
  let client: Client;
  const short = waiter();
  const long = waiter();
  const lowered = waiter();
  const spec004 = waiter();
  const bad = waiter();

  beforeAll(async () => {
    app = createHttpApp({ service: 'deadline-test', logger: silentLogger(), apiKey: undefined });
    mountMcp(app, {
      name: 'deadline-test',
      version: '1.0.0',
      tools: [
        bindTool(waitTool('short'), short.handler),
        bindTool(waitTool('raise'), long.handler),
        bindTool(waitTool('lower'), lowered.handler),
        bindTool(waitTool('bad_meta'), bad.handler),
        ...withDeadlines([bindTool(waitTool('project_tool', ['TIMEOUT']), spec004.handler)], 8_000),
      ],
      // The service default is long; `short` and `raise` have their own short deadline.
      deadlines: { defaultMs: 600_000, byTool: { short: 300, raise: 300 } },
    });
    client = await connectMcp(await listenOnFreePort(app), 'streamable-http');
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  it('answers `timeout` (504 code of the contract) at the deadline and aborts the handler signal', async () => {
    const result = await call(client, 'short');
    expect(result.isError).toBe(true);
    expect(toolText(result)).toMatchObject({ status: 'error', error_type: 'timeout' });
    const reason = await short.stopped;
    expect(reason).toBeInstanceOf(AppError);
    expect(reason).toMatchObject({ code: 'timeout', httpStatus: 504 });
  });

  it("lets a client's lower _meta limit win over the tool's default", async () => {
    // The default is 10 min, far beyond this test's 10 s budget: only the client's 200 ms can end the call.
    const result = await call(client, 'lower', { [TIMEOUT_META_KEY]: 200 });
    expect(toolText(result)).toMatchObject({ status: 'error', error_type: 'timeout' });
    expect(await lowered.stopped).toMatchObject({ code: 'timeout' });
  }, 10_000);

  it('ignores a higher client limit: the default still ends the call', async () => {
    const result = await call(client, 'raise', { [TIMEOUT_META_KEY]: 600_000 });
    expect(toolText(result)).toMatchObject({ status: 'error', error_type: 'timeout' });
    expect(await long.stopped).toMatchObject({ code: 'timeout' });
  }, 10_000);

  it("answers spec 004's TIMEOUT for its tools, lowered by the client too", async () => {
    const result = await call(client, 'project_tool', { [TIMEOUT_META_KEY]: 200 });
    expect(toolText(result)).toMatchObject({ status: 'error', error_type: 'TIMEOUT' });
    expect(await spec004.stopped).toMatchObject({ code: 'TIMEOUT' });
  });

  it('refuses a limit that is not a positive whole number of milliseconds', async () => {
    const result = await call(client, 'bad_meta', { [TIMEOUT_META_KEY]: -5 });
    expect(toolText(result)).toMatchObject({ status: 'error', error_type: 'invalid_arguments' });
  });
});

describe("a client's cancel (notifications/cancelled) aborts the handler's signal", () => {
  it.each([
    ['stateful', 'streamable-http'],
    ['stateless', 'sse'],
  ] as const)(
    '%s sessions over %s',
    async (sessionMode, kind) => {
      const app = createHttpApp({ service: 'cancel-test', logger: silentLogger(), apiKey: undefined });
      const work = waiter();
      mountMcp(app, {
        name: 'cancel-test',
        version: '1.0.0',
        sessionMode,
        tools: [bindTool(waitTool('busy'), work.handler)],
        deadlines: { defaultMs: 600_000 },
      });
      const client = await connectMcp(await listenOnFreePort(app), kind);
      const controller = new AbortController();
      const answer = client
        .callTool({ name: 'busy', arguments: {} }, undefined, { signal: controller.signal })
        .catch((error: unknown) => error);
      await work.started;
      controller.abort('the user pressed stop');
      await answer;
      // Only the client's cancel can end this handler before the test's time runs out (its deadline is 10 min).
      expect(await work.stopped).toBeDefined();
      await client.close();
      await app.close();
    },
    10_000,
  );
});

describe('shutdown aborts in-flight work', () => {
  it('aborts a running tool handler with shutting_down, and the client is answered so', async () => {
    const app = createHttpApp({ service: 'shutdown-test', logger: silentLogger(), apiKey: undefined });
    const work = waiter();
    mountMcp(app, { name: 'shutdown-test', version: '1.0.0', tools: [bindTool(waitTool('busy'), work.handler)] });
    const client = await connectMcp(await listenOnFreePort(app), 'streamable-http');
    const exits: number[] = [];
    const exit = (code: number) => void exits.push(code);
    const shutdown = installShutdown({ log: silentLogger(), steps: [httpShutdownStep(app)], signals: [], exit });
    const answer = call(client, 'busy');
    await work.started;
    await shutdown('test');
    expect(await work.stopped).toMatchObject({ code: 'shutting_down', httpStatus: 503 });
    expect(toolText(await answer)).toMatchObject({ status: 'error', error_type: 'shutting_down' });
    expect(exits).toEqual([0]);
    await client.close();
  });

  it("aborts a REST request's signal with shutting_down", async () => {
    const app = createHttpApp({ service: 'shutdown-rest', logger: silentLogger(), apiKey: undefined });
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let reason: unknown;
    app.post('/work', async (request, reply) => {
      const signal = requestSignal(request, reply);
      started();
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      reason = signal.reason;
      throw signal.reason;
    });
    const base = await listenOnFreePort(app);
    const response = fetch(`${base}/work`, { method: 'POST' });
    await running;
    await app.close();
    expect(reason).toMatchObject({ code: 'shutting_down' });
    const answered = await response;
    expect(answered.status).toBe(503);
    expect(await answered.json()).toMatchObject({ error: { code: 'shutting_down' } });
  });
});

describe('a REST request gets a signal (real fastify server)', () => {
  let app: FastifyInstance;
  let base: string;
  const reasons: unknown[] = [];
  let markStarted: () => void = () => undefined;
  let markStopped: () => void = () => undefined;

  beforeAll(async () => {
    app = createHttpApp({ service: 'rest-signal', logger: silentLogger(), apiKey: undefined });
    app.post('/slow', async (request, reply) => {
      const { t } = request.query as { t?: string };
      const signal = requestSignal(request, reply, { timeoutMs: Number(t ?? 60_000) });
      markStarted();
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      reasons.push(signal.reason);
      markStopped();
      throw signal.reason;
    });
    base = await listenOnFreePort(app);
  });
  afterAll(async () => {
    await app.close();
  });

  it('aborts when the client closes the connection mid-request', async () => {
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    const stopped = new Promise<void>((resolve) => (markStopped = resolve));
    const req = httpRequest(`${base}/slow`, { method: 'POST' });
    req.on('error', () => undefined);
    req.end();
    await started;
    req.destroy();
    await stopped;
    expect(reasons.at(-1)).toMatchObject({ code: 'client_closed' });
    expect(app.inflight.size).toBe(0);
  });

  it("aborts at the route's deadline and answers 504 timeout", async () => {
    const response = await fetch(`${base}/slow?t=200`, { method: 'POST' });
    expect(response.status).toBe(504);
    expect(await response.json()).toMatchObject({ error: { code: 'timeout' } });
    expect(reasons.at(-1)).toMatchObject({ code: 'timeout' });
  });
});
