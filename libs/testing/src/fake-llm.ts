// SPDX-License-Identifier: AGPL-3.0-or-later
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer of a fake LLM server. */
export interface FakeReply {
  status?: number;
  json?: unknown;
  headers?: Record<string, string>;
  /** Answer only after this long (a provider timeout). */
  delayMs?: number;
}

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export interface FakeLlmServer {
  url: string;
  requests: RecordedRequest[];
  /** Errors thrown by the script (each answered with a 400). */
  errors: string[];
  close(): Promise<void>;
}

/**
 * A loopback HTTP server speaking an LLM's wire format (the Anthropic Messages API or OpenAI chat completions):
 * the only fake the tests allow, standing in for a paid external API. `reply` scripts each answer from the
 * request body and its index.
 */
export const startFakeLlm = async (
  reply: (body: Record<string, unknown>, index: number) => FakeReply,
): Promise<FakeLlmServer> => {
  const requests: RecordedRequest[] = [];
  const errors: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(parts).toString('utf8') || '{}') as Record<string, unknown>;
      const index = requests.length;
      requests.push({ path: req.url ?? '', headers: req.headers, body });
      let answer: FakeReply;
      try {
        answer = reply(body, index);
      } catch (error) {
        // a script that breaks answers a refusal (not retried), so the test fails fast with its message
        errors.push((error as Error).message);
        answer = { status: 400, json: { type: 'error', error: { message: (error as Error).message } } };
      }
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
        res.end(JSON.stringify(answer.json ?? {}));
      };
      if (answer.delayMs) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          send();
        }, answer.delayMs);
        timers.add(timer);
      } else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    errors,
    close: () =>
      new Promise<void>((resolve) => {
        timers.forEach(clearTimeout);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/** Anthropic Messages replies. */
export const anthropicText = (text: string) => ({
  json: { id: 'msg', type: 'message', role: 'assistant', content: [{ type: 'text', text }], stop_reason: 'end_turn' },
});
export const anthropicToolUse = (uses: Array<{ id: string; name: string; input: Record<string, unknown> }>) => ({
  json: {
    id: 'msg',
    type: 'message',
    role: 'assistant',
    content: uses.map((u) => ({ type: 'tool_use', ...u })),
    stop_reason: 'tool_use',
  },
});

/** OpenAI chat-completions replies. */
export const openAiText = (text: string) => ({
  json: {
    id: 'c',
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
  },
});
export const openAiToolCalls = (calls: Array<{ id: string; name: string; input: Record<string, unknown> }>) => ({
  json: {
    id: 'c',
    object: 'chat.completion',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: null,
          tool_calls: calls.map((c) => ({
            id: c.id,
            type: 'function',
            function: { name: c.name, arguments: JSON.stringify(c.input) },
          })),
        },
        finish_reason: 'tool_calls',
      },
    ],
  },
});
