// SPDX-License-Identifier: AGPL-3.0-or-later
import { defineTool } from '@lectern/contracts';
import { connectMcp, listenOnFreePort, silentLogger, toolText } from '@lectern/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createHttpApp } from './http-app.js';
import { mountMcp } from './mcp-app.js';
import { TOOL_DEADLINE_MIN_MS, withDeadlines } from './tool-deadline.js';
import { bindTool } from './tool-registration.js';

const slowTool = defineTool({
  name: 'slow',
  title: 'Slow',
  description: 'Waits until its signal aborts (or answers at once when quick).',
  input: z.object({ quick: z.boolean().default(false) }),
  output: z.object({ status: z.literal('success') }),
  annotations: { readOnlyHint: true },
  errorCodes: ['TIMEOUT'],
});

describe('per-tool deadline (FR-011) through a real MCP client', () => {
  let app: FastifyInstance;
  let client: Client;
  const aborted: unknown[] = [];

  beforeAll(async () => {
    const tools = withDeadlines(
      [
        bindTool(slowTool, async (input, ctx) => {
          if (input.quick) return { status: 'success' as const };
          // Real work would pass ctx.signal on; here the handler waits for it and records why it stopped.
          await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
          aborted.push(ctx.signal.reason);
          return { status: 'success' as const };
        }),
      ],
      1, // below the floor: clamped to 8 s
    );
    app = createHttpApp({ service: 'deadline-test', logger: silentLogger(), apiKey: undefined });
    mountMcp(app, { name: 'deadline-test', version: '1.0.0', tools });
    client = await connectMcp(await listenOnFreePort(app), 'streamable-http');
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  it('answers a quick call normally', async () => {
    expect(toolText(await client.callTool({ name: 'slow', arguments: { quick: true } }))).toEqual({
      status: 'success',
    });
  });

  it('answers TIMEOUT at the deadline and aborts the handler signal', async () => {
    const result = await client.callTool({ name: 'slow', arguments: {} }, undefined, {
      timeout: TOOL_DEADLINE_MIN_MS * 3,
    });
    expect(result.isError).toBe(true);
    expect(toolText(result)).toMatchObject({ status: 'error', error_type: 'TIMEOUT' });
    expect(aborted).toHaveLength(1);
    expect(aborted[0]).toMatchObject({ code: 'TIMEOUT' });
  }, 60_000);
});
