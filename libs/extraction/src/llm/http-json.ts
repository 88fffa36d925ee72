// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError } from '@lectern/contracts';
import { parseRetryAfter, retry, type Logger } from '@lectern/runtime';

export const LlmErrorCodes = {
  timeout: 'llm_timeout',
  unavailable: 'llm_unavailable',
  refused: 'llm_error',
  badReply: 'llm_bad_reply',
} as const;

export interface RetryPolicy {
  /** Retries after the first attempt on 429, 5xx and network errors. */
  retries: number;
  /** First backoff; doubled each retry (with 25% jitter), capped by `maxDelayMs`; a `retry-after` header names the wait (capped too). */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 4, baseDelayMs: 1000, maxDelayMs: 30_000 };

export interface PostJsonOptions {
  /** Per attempt (`API_TIMEOUT_MS`). */
  timeoutMs: number;
  retry: RetryPolicy;
  signal: AbortSignal;
  log?: Logger | undefined;
  /** For messages: "the Anthropic API", "the OpenAI-compatible API". */
  provider: string;
}

/** A failure worth another attempt (429, 408, 5xx, network): what went wrong, and the wait the server asked for. */
class RetryableProblem extends Error {
  constructor(
    readonly problem: string,
    readonly retryAfterMs?: number,
  ) {
    super(problem);
  }
}

const retryableStatus = (status: number) => status === 429 || status === 408 || status >= 500;

/**
 * POST a JSON body to an LLM API and return its JSON answer: each attempt bounded by `timeoutMs`, 429/5xx and
 * network failures retried with exponential backoff and jitter (`retry` of libs/runtime; a `retry-after` header
 * names the wait, up to `maxDelayMs`) — plain `fetch`: no provider SDK is installed.
 */
export const postJson = async (
  url: string,
  body: unknown,
  headers: Record<string, string>,
  options: PostJsonOptions,
): Promise<unknown> => {
  const attempt = async (n: number): Promise<unknown> => {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
        signal: AbortSignal.any([options.signal, timeout]),
      });
    } catch (error) {
      if (options.signal.aborted) throw options.signal.reason;
      if (timeout.aborted) {
        throw new AppError(
          LlmErrorCodes.timeout,
          `${options.provider} did not answer within ${options.timeoutMs} ms (API_TIMEOUT_MS).`,
          { httpStatus: 504 },
        );
      }
      options.log?.warn({ url, attempt: n, err: error }, 'LLM request failed');
      throw new RetryableProblem(`network error (${(error as Error).message})`);
    }
    if (response.ok) {
      try {
        return await response.json();
      } catch {
        throw new AppError(LlmErrorCodes.badReply, `${options.provider} answered with a body that is not JSON.`, {
          httpStatus: 502,
        });
      }
    }
    const text = await response.text().catch(() => '');
    options.log?.warn({ url, attempt: n, status: response.status, body: text.slice(0, 500) }, 'LLM request refused');
    if (!retryableStatus(response.status)) {
      throw new AppError(LlmErrorCodes.refused, `${options.provider} refused the request (HTTP ${response.status}).`, {
        httpStatus: 502,
      });
    }
    throw new RetryableProblem(`HTTP ${response.status}`, parseRetryAfter(response.headers.get('retry-after')));
  };
  try {
    return await retry(attempt, {
      attempts: options.retry.retries + 1,
      baseDelayMs: options.retry.baseDelayMs,
      maxDelayMs: options.retry.maxDelayMs,
      jitter: 0.25,
      retryable: (error) => error instanceof RetryableProblem,
      retryAfterMs: (error) => (error as RetryableProblem).retryAfterMs,
      signal: options.signal,
    });
  } catch (error) {
    if (!(error instanceof RetryableProblem)) throw error;
    throw new AppError(
      LlmErrorCodes.unavailable,
      `${options.provider} is unavailable: ${error.problem} after ${options.retry.retries + 1} attempts.`,
      { httpStatus: 503 },
    );
  }
};
