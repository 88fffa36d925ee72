// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError, CommonErrorCodes, type AnyToolDefinition, type ToolError } from '@lectern/contracts';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ZodError, type z } from 'zod';
import type { ServiceMetrics } from './metrics.js';
import type { ToolContext, ToolHandler } from './tool-registration.js';

const INTERNAL_MESSAGE = 'An internal error occurred. The server log has the details.';

/** Describe zod issues for a client: paths and messages, never received values. */
export const describeZodError = (error: ZodError): string =>
  error.issues
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(arguments)'}: ${issue.message}`)
    .join('; ');

/**
 * The JSON text of each `structuredContent` runTool made (it is the text block too), so that the stateless fast path
 * writes it once more instead of serialising the object again (tool-call-fast-path.ts). Weak: gone with the result.
 */
const structuredJson = new WeakMap<object, string>();
export const structuredContentJson = (structured: object | undefined): string | undefined =>
  structured === undefined ? undefined : structuredJson.get(structured);

export const errorResult = (error: ToolError): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(error) }],
  isError: true,
});

/**
 * The one error-mapping wrapper for tool handlers:
 * - arguments are parsed by the tool's input schema (failure → `invalid_arguments`, spec error shape);
 * - the handler's result is parsed by the output schema and returned as text JSON + `structuredContent`;
 * - an `AppError` becomes `{"status":"error","error_type":code,"message":...}` with `isError: true`;
 * - anything else is logged with its stack and becomes a generic `internal_error`; its message is never sent.
 */
export const runTool = async (
  definition: AnyToolDefinition,
  handler: ToolHandler<unknown, unknown>,
  args: unknown,
  ctx: ToolContext,
  metrics?: ServiceMetrics,
): Promise<CallToolResult> => {
  const started = process.hrtime.bigint();
  let outcome = 'success';
  try {
    const parsed = definition.input.safeParse(args ?? {});
    if (!parsed.success) {
      throw new AppError(CommonErrorCodes.invalidArguments, `Invalid arguments: ${describeZodError(parsed.error)}`);
    }
    const output = await handler(parsed.data, ctx);
    const structured = (definition.output as z.ZodObject).parse(output) as Record<string, unknown>;
    const textValue = definition.textShape === 'result' ? structured['result'] : structured;
    const text = JSON.stringify(textValue);
    if (textValue === structured) structuredJson.set(structured, text);
    return { content: [{ type: 'text', text }], structuredContent: structured };
  } catch (error) {
    if (error instanceof AppError) {
      outcome = 'error';
      ctx.log.info({ tool: definition.name, error_type: error.code }, 'tool returned an error');
      return errorResult(error.toToolError());
    }
    outcome = 'internal_error';
    ctx.log.error(
      { tool: definition.name, err: error, invalid_output: error instanceof ZodError },
      'tool failed with an unexpected error',
    );
    return errorResult({ status: 'error', error_type: CommonErrorCodes.internal, message: INTERNAL_MESSAGE });
  } finally {
    metrics?.observeTool(definition.name, outcome, Number(process.hrtime.bigint() - started) / 1e9);
  }
};

/** A handler for tools whose implementation arrives with a later issue. */
export const notImplemented =
  (toolName: string): ToolHandler<unknown, never> =>
  async () => {
    throw new AppError(CommonErrorCodes.notImplemented, `Tool ${toolName} is not implemented yet on this server.`, {
      httpStatus: 501,
    });
  };
