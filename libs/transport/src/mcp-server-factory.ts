// SPDX-License-Identifier: AGPL-3.0-or-later
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolRequest,
  type CallToolResult,
  type ServerNotification,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { z } from 'zod';
import { AppError } from '@lectern/contracts';
import { InflightWork } from './inflight.js';
import {
  COMPLETION_MAX_VALUES,
  completionOf,
  describePrompts,
  parsePromptArguments,
  PROMPT_ARGUMENT_MAX_CHARS,
  templateVariables,
  type McpCompletions,
  type McpPrompt,
} from './mcp-prompts.js';
import type { McpResourceProvider } from './mcp-resources.js';
import type { ServiceMetrics } from './metrics.js';
import { runTool } from './run-tool.js';
import { callDeadlineMs, runWithDeadline, timeoutCode, toolDeadlineMs, type ToolDeadlines } from './tool-deadline.js';
import type { ToolContext, ToolHandler, ToolRegistration } from './tool-registration.js';

export interface McpServerOptions {
  name: string;
  version: string;
  instructions?: string;
  tools: readonly ToolRegistration[];
  log: Logger;
  metrics?: ServiceMetrics;
  /** Each tool's deadline (default `DEFAULT_TOOL_DEADLINE_MS`); a client may lower it per call (`TIMEOUT_META_KEY`). */
  deadlines?: ToolDeadlines;
  /** Where tool calls register, so that shutdown aborts them (the HTTP app's; default: one of this factory's own). */
  inflight?: InflightWork;
  /** MCP resources (listing, templates, reads); absent: the server offers none. */
  resources?: McpResourceProvider;
  /** MCP prompts (`prompts/list`, `prompts/get`); absent or empty: the server offers none. */
  prompts?: readonly McpPrompt[];
  /** Value completers by argument name (`completion/complete` for prompt arguments and template variables). */
  completions?: McpCompletions;
}

/** MCP's "resource not found" JSON-RPC error code (specification, Resources: Error Handling). */
const RESOURCE_NOT_FOUND = -32002;

/** An `AppError` of a resource or prompt handler as a JSON-RPC error: the client message only, the code in `data`. */
export const toMcpError = (error: unknown): McpError => {
  if (error instanceof McpError) return error;
  if (error instanceof AppError) {
    const code = error.code.endsWith('_not_found') ? RESOURCE_NOT_FOUND : ErrorCode.InvalidParams;
    return new McpError(code, error.message, { code: error.code });
  }
  return new McpError(ErrorCode.InternalError, 'Internal error');
};

type JsonSchemaObject = { type: 'object'; [key: string]: unknown };

/**
 * zod's `.int()` advertises `minimum: -9007199254740991` / `maximum: 9007199254740991` (Number.MAX_SAFE_INTEGER):
 * bounds that say nothing a JSON integer does not, 52 copies of them in document-store-mcp's `tools/list` alone.
 * They are dropped from the advertised schema only; the server still checks every argument with the zod schema
 * itself (`runTool`), so nothing is weakened. Any other bound (a real limit of a contract) is kept. Hand-written:
 * zod's `override` hook would be per call site; this walks the finished JSON once per server.
 */
const dropSafeIntegerBounds = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(dropSafeIntegerBounds);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'maximum' || key === 'exclusiveMaximum') && value === Number.MAX_SAFE_INTEGER) continue;
    if ((key === 'minimum' || key === 'exclusiveMinimum') && value === Number.MIN_SAFE_INTEGER) continue;
    out[key] = dropSafeIntegerBounds(value);
  }
  return out;
};

const toJsonSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchemaObject => {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return { ...(dropSafeIntegerBounds(json) as Record<string, unknown>), type: 'object' };
};

/** `tools/list` entries, generated once from the contracts (input, output, annotations). */
export const describeTools = (tools: readonly ToolRegistration[]): Tool[] =>
  tools.map(({ definition }) => ({
    name: definition.name,
    title: definition.title,
    description: definition.description,
    inputSchema: toJsonSchema(definition.input, 'input'),
    outputSchema: toJsonSchema(definition.output, 'output'),
    annotations: { title: definition.title, ...definition.annotations },
  }));

/**
 * Build an MCP server exposing the given tools. The low-level `Server` is used (rather than
 * `McpServer.registerTool`) so that argument validation errors come back in the specs' error shape
 * (`invalid_arguments`) instead of the SDK's generic text, and so the listed schemas are exactly the
 * contracts' JSON Schemas. One factory call per transport connection (stateless HTTP: per request).
 *
 * Every tool call runs under its deadline here, the one place deadlines are applied: the tool's default
 * (`toolDeadlineMs`), lowered by the client's `_meta["lectern/timeout_ms"]`; at expiry the call answers its
 * contract's timeout code and the handler's signal is aborted. Shutdown (`inflight.abortAll`) aborts it too.
 */
/** What a `tools/call` needs of its request besides the request itself. */
export interface ToolCallExtra {
  signal: AbortSignal;
  requestId: string | number;
  /** Absent: the answer cannot carry notifications (the fast path only runs calls without a progress token). */
  sendNotification?: (notification: ServerNotification) => Promise<void>;
}
export type ToolCallHandler = (request: CallToolRequest, extra: ToolCallExtra) => Promise<CallToolResult>;

/** A server per connection (`() => Server`), and the tool call every server runs (`callTool`). */
export type McpServerFactory = (() => Server) & { callTool: ToolCallHandler };

export const createMcpServerFactory = (options: McpServerOptions): McpServerFactory => {
  const listed = describeTools(options.tools);
  const byName = new Map(options.tools.map((t) => [t.definition.name, t]));
  const names = new Set(byName.keys());
  const inflight = options.inflight ?? new InflightWork();
  if (names.size !== options.tools.length) throw new Error(`duplicate tool names in ${options.name}`);
  // One JSON Schema validator for every server this factory makes: the SDK's default builds a new Ajv (with its
  // formats) per Server, i.e. per stateless request, which was the largest single cost of a cheap tool call. It
  // validates only elicitation answers (none here) and caches what it compiles, so sharing it changes no check.
  const jsonSchemaValidator = new AjvJsonSchemaValidator();

  /** One `tools/call`, the same for the SDK's servers and the stateless fast path (tool-call-fast-path.ts). */
  const callTool: ToolCallHandler = async (request, extra) => {
    const receivedAt = Date.now();
    const registration = byName.get(request.params.name);
    if (!registration) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const progressToken = request.params._meta?.progressToken;
    // Made on first use: a pino child (its bindings serialised, redaction set up) is a measurable part of a cheap
    // call's CPU, and a call that succeeds usually logs nothing.
    let log: Logger | undefined;
    const ctx: ToolContext = {
      get log() {
        return (log ??= options.log.child({ tool: request.params.name, request_id: extra.requestId }));
      },
      signal: extra.signal,
      progress: async (progress, total, message) => {
        if (progressToken === undefined || !extra.sendNotification) return;
        try {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: {
              progressToken,
              progress,
              ...(total === undefined ? {} : { total }),
              ...(message ? { message } : {}),
            },
          });
        } catch (error) {
          ctx.log.warn({ err: error }, 'progress notification not delivered');
        }
      },
    };
    const meta = request.params._meta as Record<string, unknown> | undefined;
    const bounded: ToolHandler<unknown, unknown> = async (input, handlerCtx) => {
      const ticket = inflight.begin();
      try {
        return await runWithDeadline(registration.handler, input, handlerCtx, {
          ms: callDeadlineMs(toolDeadlineMs(registration, options.deadlines), meta),
          errorCode: timeoutCode(registration.definition, registration),
          stop: ticket.signal,
          receivedAt,
        });
      } finally {
        ticket.end();
      }
    };
    return runTool(registration.definition, bounded, request.params.arguments, ctx, options.metrics);
  };

  const prompts = options.prompts ?? [];
  const listedPrompts = describePrompts(prompts);
  const promptsByName = new Map(prompts.map((p) => [p.name, p]));
  if (promptsByName.size !== prompts.length) throw new Error(`duplicate prompt names in ${options.name}`);
  const completions =
    options.completions && Object.keys(options.completions).length > 0 ? options.completions : undefined;
  const guarded =
    <T>(run: (signal: AbortSignal) => Promise<T>) =>
    async (signal: AbortSignal): Promise<T> => {
      try {
        return await run(signal);
      } catch (error) {
        if (!(error instanceof AppError) && !(error instanceof McpError))
          options.log.error({ err: error }, 'resource, prompt or completion request failed');
        throw toMcpError(error);
      }
    };
  /** The argument names a completion reference offers: a prompt's arguments, a resource template's variables. */
  const completableArguments = (ref: { type: string; name?: string; uri?: string }): string[] => {
    if (ref.type === 'ref/prompt') {
      const prompt = promptsByName.get(ref.name ?? '');
      if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${String(ref.name).slice(0, 100)}`);
      return Object.keys(prompt.arguments.shape);
    }
    const template = options.resources?.templates.find((t) => t.uriTemplate === ref.uri);
    if (!template)
      throw new McpError(ErrorCode.InvalidParams, `Unknown resource template: ${String(ref.uri).slice(0, 200)}`);
    return templateVariables(template.uriTemplate);
  };

  const makeServer = () => {
    const server = new Server(
      { name: options.name, version: options.version },
      {
        capabilities: {
          tools: { listChanged: false },
          logging: {},
          ...(options.resources ? { resources: { listChanged: false } } : {}),
          ...(prompts.length > 0 ? { prompts: { listChanged: false } } : {}),
          ...(completions ? { completions: {} } : {}),
        },
        instructions: options.instructions,
        jsonSchemaValidator,
      },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }));
    server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
      callTool(request, {
        signal: extra.signal,
        requestId: extra.requestId,
        sendNotification: (n) => extra.sendNotification(n),
      }),
    );
    const resources = options.resources;
    if (resources) {
      server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
        resourceTemplates: resources.templates,
      }));
      server.setRequestHandler(ListResourcesRequestSchema, (request, extra) =>
        guarded(async (signal) => {
          const page = await resources.list(request.params?.cursor, signal);
          return { resources: page.resources, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
        })(extra.signal),
      );
      server.setRequestHandler(ReadResourceRequestSchema, (request, extra) =>
        guarded(async (signal) => ({ contents: await resources.read(request.params.uri, signal) }))(extra.signal),
      );
    }
    if (prompts.length > 0) {
      server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: listedPrompts }));
      server.setRequestHandler(GetPromptRequestSchema, (request, extra) =>
        guarded(async (signal) => {
          const prompt = promptsByName.get(request.params.name);
          // the specification's answer for an unknown prompt: invalid params (-32602)
          if (!prompt)
            throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${request.params.name.slice(0, 100)}`);
          return prompt.render(parsePromptArguments(prompt, request.params.arguments), signal);
        })(extra.signal),
      );
    }
    if (completions) {
      const none = { completion: { values: [], total: 0, hasMore: false } };
      server.setRequestHandler(CompleteRequestSchema, (request, extra) =>
        guarded(async (signal) => {
          const { ref, argument, context } = request.params;
          // own keys only: an argument named `constructor` must not reach Object.prototype's
          const complete = Object.hasOwn(completions, argument.name) ? completions[argument.name] : undefined;
          if (!completableArguments(ref).includes(argument.name) || !complete) return none;
          if (argument.value.length > PROMPT_ARGUMENT_MAX_CHARS) return none;
          const known = Object.fromEntries(
            Object.entries(context?.arguments ?? {}).filter(([, v]) => v.length <= PROMPT_ARGUMENT_MAX_CHARS),
          );
          const candidates = await complete(argument.value, known, COMPLETION_MAX_VALUES + 1, signal);
          return { completion: completionOf(candidates, argument.value) };
        })(extra.signal),
      );
    }
    return server;
  };
  return Object.assign(makeServer, { callTool });
};
