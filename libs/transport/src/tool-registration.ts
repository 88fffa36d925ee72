// SPDX-License-Identifier: AGPL-3.0-or-later
import type { AnyToolDefinition, ToolDefinition } from '@lectern/contracts';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { RegistrationDeadline } from './tool-deadline.js';

/** What a tool handler gets besides its parsed input. */
export interface ToolContext {
  log: Logger;
  /**
   * Aborted when the client cancels or the connection closes, at the tool's deadline (reason: the `timeout` /
   * `TIMEOUT` AppError) and on shutdown (reason: `shutting_down`). Pass it on to the work the handler starts.
   */
  signal: AbortSignal;
  /** Send an MCP progress notification (no-op when the client sent no progress token). */
  progress(progress: number, total?: number, message?: string): Promise<void>;
}

export type ToolHandler<I, O> = (input: I, ctx: ToolContext) => Promise<O>;

export interface ToolRegistration {
  definition: AnyToolDefinition;
  handler: ToolHandler<unknown, unknown>;
  /** This tool's own deadline (spec 004: `withDeadlines`), over the service's (`ToolDeadlines`). */
  deadline?: RegistrationDeadline;
}

/** Pair a tool contract with its handler; the handler's types come from the contract. */
export const bindTool = <I extends z.ZodObject<z.ZodRawShape>, O extends z.ZodObject<z.ZodRawShape>>(
  definition: ToolDefinition<I, O>,
  handler: ToolHandler<z.infer<I>, z.input<O>>,
): ToolRegistration => ({ definition, handler: handler as ToolHandler<unknown, unknown> });
