// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError } from '@lectern/contracts';

/** Progress reporting of long use cases (mapped onto MCP progress notifications by the tool layer). */
export type ProgressFn = (progress: number, total: number | undefined, message: string) => void | Promise<void>;

/**
 * The last parameter of every ingest and store use case: where progress goes, and the caller's signal (a client's
 * cancel, a tool deadline, shutdown). Either may be left out.
 */
export interface IngestContext {
  progress?: ProgressFn | undefined;
  signal?: AbortSignal | undefined;
}

/** A use case's own deadline: how long it may take, and the setting that says so (named in the timeout error). */
export interface IngestDeadline {
  ms: number;
  /** The variable a deployment sets it with, e.g. `INGEST_TIMEOUT_S`. */
  setting: string;
  /** What did not finish, e.g. `Ingestion` (default). */
  what?: string;
}

/** The use case's context with one signal: the caller's and the use case's own deadline, whichever fires first. */
export interface BoundContext {
  progress: ProgressFn;
  signal: AbortSignal;
}

const timeoutError = (d: IngestDeadline): AppError =>
  new AppError(
    'timeout',
    `${d.what ?? 'Ingestion'} did not finish within ${Math.round(d.ms / 1000)} s (${d.setting})`,
    {
      httpStatus: 504,
    },
  );

/**
 * Runs `work` with one signal: the caller's combined with the use case's deadline (`AbortSignal.any`) — the signal
 * the pipeline checks at every boundary and hands to the conversion job, the embedder and the store. Its reason is
 * an `AppError`: `timeout` for the deadline; the caller's own reason when that is one, else `cancelled`.
 * The work is not raced against the signal: each step stops at its next boundary and cleans up first, so no write
 * of this call lands after it has answered.
 */
export const runBounded = async <T>(
  ctx: IngestContext | undefined,
  deadline: IngestDeadline | undefined,
  work: (bound: BoundContext) => Promise<T>,
): Promise<T> => {
  const signals: AbortSignal[] = [];
  if (ctx?.signal) signals.push(ctx.signal);
  let timer: NodeJS.Timeout | undefined;
  if (deadline) {
    // Not AbortSignal.timeout(): its reason is a DOMException; the client is owed the spec's `timeout` error.
    const controller = new AbortController();
    timer = setTimeout(() => controller.abort(timeoutError(deadline)), deadline.ms);
    signals.push(controller.signal);
  }
  const signal =
    signals.length === 0
      ? new AbortController().signal
      : signals.length === 1
        ? (signals[0] as AbortSignal)
        : AbortSignal.any(signals);
  try {
    return await work({ progress: ctx?.progress ?? (() => undefined), signal });
  } finally {
    clearTimeout(timer);
  }
};

/** Why `signal` aborted, as the error the use case throws. */
export const abortError = (signal: AbortSignal): AppError =>
  signal.reason instanceof AppError
    ? signal.reason
    : new AppError('cancelled', 'The request was cancelled before it finished; nothing of it was kept.', {
        httpStatus: 499,
      });

/** A boundary of the pipeline: stop here when the signal has fired. */
export const checkpoint = (signal: AbortSignal | undefined): void => {
  if (signal?.aborted) throw abortError(signal);
};

/** `error` as thrown by a step that was aborted: the abort's reason rather than whatever the step made of it. */
export const afterAbort = (error: unknown, signal: AbortSignal | undefined): unknown =>
  signal?.aborted && !(error instanceof AppError && error.code === 'insufficient_storage') ? abortError(signal) : error;
