// SPDX-License-Identifier: AGPL-3.0-or-later
import type * as ClientModule from '@modelcontextprotocol/sdk/client/index.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type * as SseModule from '@modelcontextprotocol/sdk/client/sse.js';
import type * as StreamableHttpModule from '@modelcontextprotocol/sdk/client/streamableHttp.js';

type McpClientSdk = typeof ClientModule & typeof SseModule & typeof StreamableHttpModule;

/**
 * The MCP SDK's client, imported when first used: every test file imports this package, not all of them connect an
 * MCP client. Once per file, one module after the other: jest's ES module loader fails concurrent imports of a
 * shared module graph ("request for … is not in cache").
 */
let sdk: Promise<McpClientSdk> | undefined;
const mcpClientSdk = (): Promise<McpClientSdk> =>
  (sdk ??= (async () => ({
    ...(await import('@modelcontextprotocol/sdk/client/index.js')),
    ...(await import('@modelcontextprotocol/sdk/client/sse.js')),
    ...(await import('@modelcontextprotocol/sdk/client/streamableHttp.js')),
  }))());

export type McpTransportKind = 'streamable-http' | 'sse';
export const MCP_TRANSPORTS: readonly McpTransportKind[] = ['streamable-http', 'sse'];

/**
 * A real MCP SDK client connected to a running server over a real HTTP transport:
 * Streamable HTTP at `/mcp` or the legacy SSE transport at `/sse`.
 */
export const connectMcp = async (
  baseUrl: string,
  kind: McpTransportKind,
  options: { token?: string; name?: string } = {},
): Promise<Client> => {
  const { Client, SSEClientTransport, StreamableHTTPClientTransport } = await mcpClientSdk();
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const client = new Client({ name: options.name ?? 'lectern-test', version: '0.0.0' });
  const transport =
    kind === 'streamable-http'
      ? new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), { requestInit: { headers } })
      : new SSEClientTransport(new URL('/sse', baseUrl), {
          requestInit: { headers },
          eventSourceInit: {
            fetch: (url, init) =>
              fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } }),
          },
        });
  await client.connect(transport);
  return client;
};

/** Parse the JSON text block of a tool result (what an LLM client reads). */
export const toolText = (result: unknown): unknown => {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  const text = content.find((c) => c.type === 'text')?.text;
  if (text === undefined) throw new Error('tool result has no text block');
  return JSON.parse(text);
};
