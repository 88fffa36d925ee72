// SPDX-License-Identifier: AGPL-3.0-or-later
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  SetLevelRequestSchema,
  isJSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';

/** The requests our servers handle, by method: their params are checked before the SDK sees them. */
const requestSchemas = new Map(
  [
    InitializeRequestSchema,
    PingRequestSchema,
    ListToolsRequestSchema,
    CallToolRequestSchema,
    SetLevelRequestSchema,
  ].map((schema) => [schema.shape.method.value as string, schema] as const),
);

const MAX_MESSAGE_CHARS = 300;

/** Paths and messages of the first few issues, never the values received. */
const describeIssues = (issues: readonly { path: readonly PropertyKey[]; message: string }[]): string => {
  const text = issues
    .slice(0, 3)
    .map((issue) => {
      const path = issue.path
        .map(String)
        .join('.')
        .replace(/^params\.?/, '');
      return `${path || 'params'}: ${issue.message}`;
    })
    .join('; ');
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS - 3)}...` : text;
};

/**
 * Connect `server` to `transport`, answering a request whose params break the MCP schema of its method with
 * JSON-RPC -32602 (invalid params) and a short message. Left to the SDK, such a request (e.g. `tools/call` with
 * `arguments` that is not an object) answers -32603 with the whole validation dump as its message. Tool
 * arguments that are an object but break the tool's own input schema still get the spec's `invalid_arguments`
 * tool result: that check belongs to the tool (run-tool.ts).
 */
export const connectGuarded = async (server: Server, transport: Transport): Promise<void> => {
  await server.connect(transport);
  const deliver = transport.onmessage;
  if (!deliver) throw new Error('the MCP server did not install its message handler');
  transport.onmessage = (message, extra) => {
    if (isJSONRPCRequest(message)) {
      const parsed = requestSchemas.get(message.method)?.safeParse(message);
      if (parsed && !parsed.success) {
        const error = {
          code: ErrorCode.InvalidParams,
          message: `Invalid params for ${message.method}: ${describeIssues(parsed.error.issues)}`,
        };
        transport
          .send({ jsonrpc: '2.0', id: message.id, error })
          .catch((e: unknown) => transport.onerror?.(e as Error));
        return;
      }
    }
    deliver(message, extra);
  };
};
