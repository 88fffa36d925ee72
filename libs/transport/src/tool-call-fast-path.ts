// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  CallToolRequestSchema,
  ErrorCode,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ToolCallHandler } from './mcp-server-factory.js';
import { hijackWithHeaders } from './raw-reply.js';
import { structuredContentJson } from './run-tool.js';

/**
 * The JSON-RPC answer's text. `structuredJson` is runTool's own serialisation of the result's `structuredContent`
 * (its text block carries the same JSON): spliced in rather than serialised a second time, which was a tenth of a
 * find_chunks call's main-thread CPU at 10 hits. `structuredContent` is the very object runTool serialised.
 */
const answerJson = (result: CallToolResult, structuredJson: string | undefined, id: string | number): string => {
  const tail = `,"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
  if (structuredJson === undefined || result.structuredContent === undefined)
    return `{"result":${JSON.stringify(result)}${tail}`;
  const { structuredContent: _spliced, ...rest } = result;
  const head = JSON.stringify(rest); // at least `content`: never "{}"
  return `{"result":${head.slice(0, -1)},"structuredContent":${structuredJson}}${tail}`;
};

/**
 * Stateless Streamable HTTP: a POST holding one `tools/call` that asks for no progress is answered here, with the
 * server factory's own `callTool` (deadline, in-flight ticket, input and output validation, error mapping: the same
 * function the SDK's servers call), as one JSON body. The SDK path builds a Server, a transport, a web
 * Request/Response pair and an SSE stream per request and parses each message against several JSON-RPC shapes (a
 * failed parse builds a ZodError); that was most of a cheap call's server CPU (docs/benchmarks/document-store.md,
 * "Cost of one call").
 *
 * Only requests the SDK would accept take this path, checked the way the SDK checks them: Accept listing both
 * `application/json` and `text/event-stream`, Content-Type `application/json`, a supported `MCP-Protocol-Version`
 * (or none), a JSON-RPC 2.0 request with an id whose params pass `CallToolRequestSchema` (request-guard.ts' check).
 * Anything else — a batch, a progress token, a malformed or refused request — returns false and goes the SDK's way,
 * which answers it exactly as before. Host/Origin and the bearer token are `onRequest` hooks: they ran already.
 */
export const answerToolCallDirectly = async (
  request: FastifyRequest,
  reply: FastifyReply,
  callTool: ToolCallHandler,
): Promise<boolean> => {
  const body = request.body as Record<string, unknown> | null;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  if (body['jsonrpc'] !== '2.0' || body['method'] !== 'tools/call') return false;
  const id = body['id'];
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isInteger(id))) return false;
  const accept = request.headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return false;
  const contentType = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (contentType !== 'application/json') return false;
  const version = request.headers['mcp-protocol-version'];
  if (version !== undefined && (typeof version !== 'string' || !SUPPORTED_PROTOCOL_VERSIONS.includes(version)))
    return false;
  const parsed = CallToolRequestSchema.safeParse(body);
  if (!parsed.success || parsed.data.params._meta?.progressToken !== undefined || parsed.data.params.task) return false;

  hijackWithHeaders(reply); // written raw, as the SDK's transport writes it (headers set by hooks kept)
  // As the SDK's transport does when the response closes: the handler's signal aborts if the client goes away.
  const controller = new AbortController();
  const onClose = (): void => {
    if (!reply.raw.writableFinished) controller.abort();
  };
  reply.raw.once('close', onClose);
  let text: string;
  try {
    // Not parsed again with the SDK's CallToolResultSchema: `callTool` answers with runTool's result (a text block and
    // the structuredContent its output schema parsed) or its errorResult, both built here in those fixed shapes; the
    // parse only copied them (~1 % of a find_chunks call's main-thread CPU; document-store.md, call cost round 4).
    const result = await callTool(parsed.data, { signal: controller.signal, requestId: id });
    text = answerJson(result, structuredContentJson(result.structuredContent), id);
  } catch (error) {
    // protocol.ts' error response: an McpError keeps its code (unknown tool: -32602), anything else is -32603.
    const e = error as { code?: unknown; message?: string; data?: unknown };
    text = JSON.stringify({
      jsonrpc: '2.0',
      id,
      error: {
        code: Number.isSafeInteger(e.code) ? e.code : ErrorCode.InternalError,
        message: e.message ?? 'Internal error',
        ...(e.data !== undefined ? { data: e.data } : {}),
      },
    });
  }
  reply.raw.off('close', onClose);
  if (controller.signal.aborted) return true; // the client is gone: nothing to answer (the SDK sends nothing either)
  reply.raw.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  reply.raw.end(text);
  return true;
};
