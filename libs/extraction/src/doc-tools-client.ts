// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError } from '@lectern/contracts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { LlmToolSpec } from './llm/llm.port.js';

/** The four doc tools of spec 003 section 5, by name. */
export const DOC_TOOL_NAMES = ['doc_index_build', 'doc_search', 'doc_read', 'json_validate_and_normalize'] as const;
export type DocToolName = (typeof DOC_TOOL_NAMES)[number];

/** Per-call timeouts of spec 003 section 7: 60 s, and 120 s for indexing (which converts the document). */
export const TOOL_TIMEOUTS_MS: Record<DocToolName, number> = {
  doc_index_build: 120_000,
  doc_search: 60_000,
  doc_read: 60_000,
  json_validate_and_normalize: 60_000,
};

/** A doc tool's answer: its JSON, or its error (`{status:"error", error_type, message}`) when `isError`. */
export interface DocToolAnswer {
  isError: boolean;
  /** The tool's text block, as the LLM reads it. */
  text: string;
  json: unknown;
}

export interface DocToolsClient {
  /** The tools as the server describes them (names, descriptions, input JSON Schemas), for an LLM. */
  toolSpecs(): Promise<LlmToolSpec[]>;
  call(name: DocToolName, args: Record<string, unknown>, signal?: AbortSignal): Promise<DocToolAnswer>;
  close(): Promise<void>;
}

/** An MCP server this process can run itself (the SDK's `Server`: one per connection). */
export interface LocalMcpServer {
  connect(transport: Transport): Promise<void>;
}

/**
 * Where the doc tools are: `server`, the factory of the MCP server this process serves at `/mcp`, reached
 * in-process through the SDK's in-memory transport (no HTTP, no auth, no serialisation to a socket); or `url`
 * (`MCP_TOOLS_URL`), another server's Streamable HTTP endpoint.
 */
export type DocToolsEndpoint =
  | { server: () => LocalMcpServer }
  | {
      url: string;
      /** Bearer token for that endpoint. */
      token?: string | undefined;
    };

export type DocToolsClientOptions = DocToolsEndpoint & { timeouts?: Partial<Record<DocToolName, number>> };

export const DocToolErrorCodes = { unavailable: 'doc_tools_unavailable', timeout: 'doc_tool_timeout' } as const;

/** Connect `client` to the endpoint: a linked in-memory pair with a fresh server, or Streamable HTTP. */
const connectClient = async (client: Client, endpoint: DocToolsEndpoint): Promise<void> => {
  if ('server' in endpoint) {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await endpoint.server().connect(serverSide);
    await client.connect(clientSide);
    return;
  }
  const headers: Record<string, string> = endpoint.token ? { authorization: `Bearer ${endpoint.token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers } }));
};

/**
 * The doc tools reached as a real MCP client, never by calling functions: the agent, the offline extractor and
 * the evidence check all read the document through the same tools (and the same server code) an outside agent
 * would use. In-process by default (the in-memory transport to the server factory of this service's `/mcp`),
 * over Streamable HTTP when `MCP_TOOLS_URL` names another server. One client (one MCP session) per task.
 */
export const connectDocTools = async (options: DocToolsClientOptions): Promise<DocToolsClient> => {
  const client = new Client({ name: 'lectern-extraction', version: '1.0.0' });
  try {
    await connectClient(client, options);
  } catch (error) {
    const where = 'server' in options ? 'in this process' : 'at MCP_TOOLS_URL';
    throw new AppError(
      DocToolErrorCodes.unavailable,
      `The doc tools ${where} could not be reached (${(error as Error).message}).`,
      { httpStatus: 503, cause: error },
    );
  }
  const timeouts = { ...TOOL_TIMEOUTS_MS, ...options.timeouts };
  return {
    async toolSpecs() {
      const { tools } = await client.listTools();
      return tools
        .filter((t) => (DOC_TOOL_NAMES as readonly string[]).includes(t.name))
        .map((t) => ({
          name: t.name,
          description: t.description ?? t.name,
          input_schema: t.inputSchema as Record<string, unknown>,
        }));
    },
    async call(name, args, signal) {
      let result;
      try {
        result = await client.callTool({ name, arguments: args }, undefined, {
          timeout: timeouts[name],
          ...(signal ? { signal } : {}),
        });
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        const code = (error as { code?: number }).code;
        if (code === -32001)
          throw new AppError(
            DocToolErrorCodes.timeout,
            `The tool ${name} did not answer within ${timeouts[name] / 1000} s.`,
            { httpStatus: 504 },
          );
        throw new AppError(DocToolErrorCodes.unavailable, `The tool ${name} failed: ${(error as Error).message}`, {
          httpStatus: 503,
          cause: error,
        });
      }
      const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
      const text = content.find((c) => c.type === 'text')?.text ?? '';
      let json: unknown = null;
      try {
        json = JSON.parse(text);
      } catch {
        json = null;
      }
      return { isError: result.isError === true, text, json };
    },
    close: () => client.close(),
  };
};
