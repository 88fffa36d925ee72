// SPDX-License-Identifier: AGPL-3.0-or-later
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Lectern's one retry/backoff helper: every hand-written retry loop (LLM requests, Qdrant requests, the in-process
 * queue's delays, the policy registry's Redis reconnects, ...) uses it. Hand-written because no retry library is
 * installed (p-retry would do; none may be added here) and it is small: exponential backoff with jitter, a cap,
 * a `retryable(error)` predicate, an AbortSignal that stops both the attempts and the waits, and a
 * `Retry-After`-style override the failure itself can carry. BullMQ's built-in backoff stays BullMQ's.
 */
export interface BackoffPolicy {
  /** Runs in all, the first included (1 = no retry). */
  attempts: number;
  /** The delay before the first retry; doubled for each retry after it. */
  baseDelayMs: number;
  /** No delay is longer than this (default: no cap). */
  maxDelayMs?: number | undefined;
  /**
   * Random spread of each delay, as a share of it: 0.25 waits 75-125% of the exponential delay (spreads the
   * retries of many clients that failed together). Default 0: exactly the exponential delay (as BullMQ computes).
   */
  jitter?: number | undefined;
}

/**
 * The wait before retry number `retry` (1 = the first retry, after the first failure):
 * `baseDelayMs * 2^(retry-1)`, spread by `jitter`, capped by `maxDelayMs`. `random` is `Math.random` unless a test
 * pins it.
 */
export const backoffDelay = (retry: number, policy: BackoffPolicy, random: () => number = Math.random): number => {
  const exponential = policy.baseDelayMs * 2 ** Math.max(0, retry - 1);
  const jitter = Math.min(1, Math.max(0, policy.jitter ?? 0));
  const spread = exponential * (1 - jitter + 2 * jitter * random());
  return Math.max(0, Math.min(spread, policy.maxDelayMs ?? Number.POSITIVE_INFINITY));
};

export interface RetryOptions extends BackoffPolicy {
  /** Whether a failure is worth another attempt (default: every failure). Others are thrown at once. */
  retryable?: ((error: unknown) => boolean) | undefined;
  /**
   * A wait the failure itself names (an HTTP `Retry-After`), used instead of the computed delay (still capped by
   * `maxDelayMs`); undefined: the computed delay.
   */
  retryAfterMs?: ((error: unknown) => number | undefined) | undefined;
  /** Aborts the attempts and the waits between them: the helper then rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** Told before each wait (for a log line). */
  onRetry?: ((info: { error: unknown; attempt: number; delayMs: number }) => void) | undefined;
  random?: (() => number) | undefined;
}

/**
 * Run `fn` (given the attempt number, from 1) until it succeeds, a failure is not `retryable`, or `attempts` runs
 * failed: then the last failure is thrown as it was.
 */
export const retry = async <T>(fn: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> => {
  const attempts = Math.max(1, Math.floor(options.attempts));
  for (let attempt = 1; ; attempt += 1) {
    if (options.signal?.aborted) throw options.signal.reason;
    try {
      return await fn(attempt);
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (attempt >= attempts || (options.retryable && !options.retryable(error))) throw error;
      const asked = options.retryAfterMs?.(error);
      const delayMs =
        asked === undefined
          ? backoffDelay(attempt, options, options.random)
          : Math.max(0, Math.min(asked, options.maxDelayMs ?? Number.POSITIVE_INFINITY));
      options.onRetry?.({ error, attempt, delayMs });
      try {
        await sleep(delayMs, undefined, options.signal ? { signal: options.signal } : {});
      } catch (aborted) {
        throw options.signal?.aborted ? options.signal.reason : aborted;
      }
    }
  }
};

/** An HTTP `Retry-After` value (seconds, or an HTTP date) in milliseconds; undefined when absent or unreadable. */
export const parseRetryAfter = (header: string | null | undefined): number | undefined => {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
};
