// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';

/** The error body every tool returns (spec 000/001/004 shape), as text JSON with `isError: true`. */
export const ToolErrorSchema = z.object({
  status: z.literal('error'),
  error_type: z.string(),
  message: z.string(),
});
export type ToolError = z.infer<typeof ToolErrorSchema>;

/** The one JSON error shape of the REST apps (and of the auth guard's 401s). */
export const RestErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.array(z.string()).optional(),
  }),
});
export type RestError = z.infer<typeof RestErrorSchema>;

export interface AppErrorOptions {
  httpStatus?: number;
  cause?: unknown;
  details?: string[];
}

/**
 * The one application error. `code` is the spec's `error_type` (snake_case, or the upper-case codes
 * of spec 004 such as `INVALID_PROJECT`); its message is written for the client and is sent as is.
 * Anything that is not an AppError is an internal error: logged with its stack, never sent.
 */
export class AppError extends Error {
  readonly code: string;
  readonly httpStatus: number;
  readonly details: string[] | undefined;

  constructor(code: string, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.httpStatus = options.httpStatus ?? 400;
    this.details = options.details;
  }

  toToolError(): ToolError {
    return { status: 'error', error_type: this.code, message: this.message };
  }

  toRestError(): RestError {
    return { error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) } };
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

/** Error codes shared by several tools. Tool-specific codes are listed beside each tool. */
export const CommonErrorCodes = {
  invalidArguments: 'invalid_arguments',
  internal: 'internal_error',
  notImplemented: 'not_implemented',
  timeout: 'timeout',
  shuttingDown: 'shutting_down',
  forbiddenPath: 'forbidden_path',
  /** A dependency (Redis, the vector store) is down: answered at once (503) instead of waiting for it. */
  dependencyUnavailable: 'dependency_unavailable',
} as const;
