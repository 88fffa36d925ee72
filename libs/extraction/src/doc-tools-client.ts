import { AppError } from '@lectern/contracts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
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

export interface DocToolsClientOptions {
  /** `MCP_TOOLS_URL`: a Streamable HTTP MCP endpoint (default: this service's own `/mcp`). */
  url: string;
  /** Bearer token for that endpoint. */
  token?: string | undefined;
  timeouts?: Partial<Record<DocToolName, number>>;
}

export const DocToolErrorCodes = { unavailable: 'doc_tools_unavailable', timeout: 'doc_tool_timeout' } as const;

/**
 * The doc tools reached as a real MCP client (the SDK's Streamable HTTP transport), never by calling functions:
 * the agent, the offline extractor and the evidence check all read the document through the same tools an
 * outside agent would use. One client (one MCP session) per task.
 */
export const connectDocTools = async (options: DocToolsClientOptions): Promise<DocToolsClient> => {
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const client = new Client({ name: 'lectern-extraction', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(options.url), { requestInit: { headers } }));
  } catch (error) {
    throw new AppError(
      DocToolErrorCodes.unavailable,
      `The doc tools at MCP_TOOLS_URL could not be reached (${(error as Error).message}).`,
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
