import { AppError } from '@lectern/contracts';
import type { ToolContext, ToolHandler, ToolRegistration } from './tool-registration.js';

/** Spec 004 FR-011: tool operations are bounded to 8-15 seconds. */
export const TOOL_DEADLINE_MIN_MS = 8_000;
export const TOOL_DEADLINE_MAX_MS = 15_000;

/**
 * A per-tool deadline: the handler gets a `ctx.signal` that aborts when the client cancels *or* when `ms` have
 * passed, and a handler still running then is answered with `TIMEOUT` (the spec's error type) — the work it
 * started is told to stop through the signal, and the incomplete operation is logged. `ms` is clamped to
 * [8 s, 15 s] (FR-011); `errorCode` is the code of the contract (spec 004: `TIMEOUT`).
 */
export const withDeadline = <I, O>(
  handler: ToolHandler<I, O>,
  ms: number,
  errorCode = 'TIMEOUT',
): ToolHandler<I, O> => {
  const limit = Math.min(TOOL_DEADLINE_MAX_MS, Math.max(TOOL_DEADLINE_MIN_MS, Math.round(ms)));
  return async (input: I, ctx: ToolContext): Promise<O> => {
    const controller = new AbortController();
    const onAbort = () => controller.abort(ctx.signal.reason);
    if (ctx.signal.aborted) controller.abort(ctx.signal.reason);
    else ctx.signal.addEventListener('abort', onAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const started = Date.now();
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new AppError(
          errorCode,
          `The operation did not finish within ${limit / 1000} s and was cancelled; try a narrower request.`,
          {
            httpStatus: 504,
          },
        );
        controller.abort(error);
        ctx.log.warn(
          { deadline_ms: limit, elapsed_ms: Date.now() - started },
          'tool deadline reached: operation cancelled',
        );
        reject(error);
      }, limit);
    });
    try {
      return await Promise.race([handler(input, { ...ctx, signal: controller.signal }), expired]);
    } finally {
      clearTimeout(timer);
      ctx.signal.removeEventListener('abort', onAbort);
    }
  };
};

/** The same registrations with a deadline on each handler. */
export const withDeadlines = (
  tools: readonly ToolRegistration[],
  ms: number,
  errorCode = 'TIMEOUT',
): ToolRegistration[] =>
  tools.map((t) => ({ definition: t.definition, handler: withDeadline(t.handler, ms, errorCode) }));
