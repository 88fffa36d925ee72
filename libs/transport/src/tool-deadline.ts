// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError, CommonErrorCodes, type AnyToolDefinition } from '@lectern/contracts';
import { z } from 'zod';
import type { ToolContext, ToolHandler, ToolRegistration } from './tool-registration.js';

/** Spec 004 FR-011: tool operations are bounded to 8-15 seconds. */
export const TOOL_DEADLINE_MIN_MS = 8_000;
export const TOOL_DEADLINE_MAX_MS = 15_000;

/** The deadline of a tool that its service names no deadline for (MCP_TOOL_TIMEOUT_S's default). */
export const DEFAULT_TOOL_DEADLINE_MS = 60_000;

/**
 * The `_meta` key of a `tools/call` request by which a client lowers that call's deadline (milliseconds). The MCP
 * SDK's `RequestOptions.timeout` is enforced by the client alone (it sends `notifications/cancelled` when it gives
 * up) and the protocol carries no time limit, so the limit travels in `_meta` under a prefixed key, as the MCP
 * specification allows for implementation-defined metadata. A value above the tool's deadline is ignored: a client
 * can lower a deadline, never raise it.
 */
export const TIMEOUT_META_KEY = 'lectern/timeout_ms';

const ClientLimitSchema = z.number().int().positive().max(2_147_483_647).optional();

/** Per-service deadlines: one default and per-tool values (by tool name), in milliseconds. */
export interface ToolDeadlines {
  defaultMs?: number;
  byTool?: Readonly<Record<string, number>>;
}

/** A registration's own deadline (set by `withDeadlines`), which wins over the service's table. */
export interface RegistrationDeadline {
  ms: number;
  errorCode?: string;
}

/** The tool's default deadline: its registration's, else the service's value for it, else the service default. */
export const toolDeadlineMs = (registration: ToolRegistration, deadlines: ToolDeadlines | undefined): number =>
  registration.deadline?.ms ??
  deadlines?.byTool?.[registration.definition.name] ??
  deadlines?.defaultMs ??
  DEFAULT_TOOL_DEADLINE_MS;

/** The contract's code for an expired deadline: spec 004's `TIMEOUT` where the tool lists it, else `timeout`. */
export const timeoutCode = (definition: AnyToolDefinition, registration?: ToolRegistration): string =>
  registration?.deadline?.errorCode ??
  (definition.errorCodes.includes('TIMEOUT') ? 'TIMEOUT' : CommonErrorCodes.timeout);

/** This call's deadline: the tool's default, lowered by the client's `_meta` limit when that is lower. */
export const callDeadlineMs = (defaultMs: number, meta: Record<string, unknown> | undefined): number => {
  const parsed = ClientLimitSchema.safeParse(meta?.[TIMEOUT_META_KEY]);
  if (!parsed.success) {
    throw new AppError(
      CommonErrorCodes.invalidArguments,
      `Invalid arguments: _meta["${TIMEOUT_META_KEY}"] must be a positive whole number of milliseconds`,
    );
  }
  return parsed.data === undefined ? defaultMs : Math.min(defaultMs, parsed.data);
};

export interface DeadlineRun {
  ms: number;
  errorCode: string;
  /** Aborted when the call must stop at once for another reason (shutdown); its reason is answered. */
  stop?: AbortSignal;
  /** When the call arrived (`Date.now()`): the time spent before the handler (argument checks) counts too. */
  receivedAt?: number;
}

/**
 * Run one handler under a deadline: the handler gets a `ctx.signal` that aborts when the client cancels, when `ms`
 * have passed, or when `stop` fires; at the deadline (or on `stop`) the call is answered at once with the reason —
 * `errorCode` (504) for the deadline — and the work it started is told to stop through the signal (logged).
 *
 * One controller with plain listeners, removed when the call ends: `AbortSignal.any` (two per call before) cost
 * ~3× as much CPU on Node 20 and keeps weak references to its sources until a GC (docs/benchmarks/document-store.md,
 * "Cost of one call").
 */
export const runWithDeadline = async <I, O>(
  handler: ToolHandler<I, O>,
  input: I,
  ctx: ToolContext,
  run: DeadlineRun,
): Promise<O> => {
  const started = run.receivedAt ?? Date.now();
  const handlerSignal = new AbortController();
  let answer: ((reason: unknown) => void) | undefined;
  let stopReason: { reason: unknown } | undefined;
  /** Deadline or `stop`: the handler's signal aborts and the call is answered with `reason` now. */
  const stopNow = (reason: unknown): void => {
    if (stopReason) return;
    stopReason = { reason };
    handlerSignal.abort(reason);
    answer?.(reason);
  };
  const onClientAbort = (): void => handlerSignal.abort(ctx.signal.reason);
  const onStop = (): void => stopNow(run.stop?.reason);
  const timer = setTimeout(
    () => {
      stopNow(
        new AppError(
          run.errorCode,
          `The operation did not finish within ${run.ms / 1000} s and was cancelled; try a narrower request.`,
          { httpStatus: 504 },
        ),
      );
      ctx.log.warn(
        { deadline_ms: run.ms, elapsed_ms: Date.now() - started },
        'tool deadline reached: operation cancelled',
      );
    },
    Math.max(0, run.ms - (Date.now() - started)),
  );
  if (ctx.signal.aborted) onClientAbort();
  else ctx.signal.addEventListener('abort', onClientAbort, { once: true });
  if (run.stop?.aborted) onStop();
  else run.stop?.addEventListener('abort', onStop, { once: true });
  try {
    if (stopReason) throw stopReason.reason;
    // `log` passed on as a getter: the factory makes the call's child logger only when something logs.
    const handlerCtx: ToolContext = {
      get log() {
        return ctx.log;
      },
      signal: handlerSignal.signal,
      progress: ctx.progress,
    };
    const stopped = new Promise<never>((_resolve, reject) => {
      answer = reject;
    });
    return await Promise.race([handler(input, handlerCtx), stopped]);
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', onClientAbort);
    run.stop?.removeEventListener('abort', onStop);
  }
};

/**
 * Spec 004's deadline on these registrations: `ms` clamped to [8 s, 15 s] (FR-011) and answered as `errorCode`
 * (`TIMEOUT`). The MCP server factory enforces it, like every tool's deadline (mcp-server-factory.ts).
 */
export const withDeadlines = (
  tools: readonly ToolRegistration[],
  ms: number,
  errorCode = 'TIMEOUT',
): ToolRegistration[] => {
  const limit = Math.min(TOOL_DEADLINE_MAX_MS, Math.max(TOOL_DEADLINE_MIN_MS, Math.round(ms)));
  return tools.map((t) => ({ ...t, deadline: { ms: limit, errorCode } }));
};
