// SPDX-License-Identifier: AGPL-3.0-or-later
import type { z } from 'zod';

/** MCP tool annotations (hints for clients; see the MCP specification, `ToolAnnotations`). */
export interface ToolAnnotationsDef {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * One MCP tool's contract: name, description, input and output schemas, the error codes it may return.
 * The MCP `inputSchema`/`outputSchema` are generated from these zod schemas; the output is always one
 * `z.object` (a union would vanish from `tools/list`), with a `status` enum where the spec has variants.
 *
 * `textShape` says what the text block carries: `structured` (the same object as `structuredContent`,
 * the default) or `result` (the value of the `result` field alone — for spec 002's tools, which return
 * a bare list; FastMCP wraps such values as `{ "result": [...] }` in structured content, and so do we).
 */
export interface ToolDefinition<I extends z.ZodObject<z.ZodRawShape>, O extends z.ZodObject<z.ZodRawShape>> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotationsDef;
  errorCodes: readonly string[];
  textShape?: 'structured' | 'result';
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyToolDefinition = ToolDefinition<z.ZodObject<any>, z.ZodObject<any>>;

export const defineTool = <I extends z.ZodObject<z.ZodRawShape>, O extends z.ZodObject<z.ZodRawShape>>(
  def: ToolDefinition<I, O>,
): ToolDefinition<I, O> => def;

export type ToolInput<T> = T extends ToolDefinition<infer I, z.ZodObject<z.ZodRawShape>> ? z.infer<I> : never;
export type ToolOutput<T> = T extends ToolDefinition<z.ZodObject<z.ZodRawShape>, infer O> ? z.infer<O> : never;
