import { AppError } from '@lectern/contracts';
import type { Logger } from '@lectern/runtime';

export const LlmErrorCodes = {
  timeout: 'llm_timeout',
  unavailable: 'llm_unavailable',
  refused: 'llm_error',
  badReply: 'llm_bad_reply',
} as const;

export interface RetryPolicy {
  /** Retries after the first attempt on 429, 5xx and network errors. */
  retries: number;
  /** First backoff; doubled each retry (with jitter), capped by `maxDelayMs`; a `retry-after` header wins when shorter than the cap. */
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

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

const retryAfterMs = (header: string | null): number | undefined => {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
};

const retryable = (status: number) => status === 429 || status === 408 || status >= 500;

/**
 * POST a JSON body to an LLM API and return its JSON answer: each attempt bounded by `timeoutMs`, 429/5xx and
 * network failures retried with exponential backoff (plain `fetch`: no provider SDK is installed).
 */
export const postJson = async (
  url: string,
  body: unknown,
  headers: Record<string, string>,
  options: PostJsonOptions,
): Promise<unknown> => {
  let lastProblem = '';
  for (let attempt = 0; attempt <= options.retry.retries; attempt += 1) {
    if (options.signal.aborted) throw options.signal.reason;
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
      lastProblem = `network error (${(error as Error).message})`;
      options.log?.warn({ url, attempt, err: error }, 'LLM request failed; retrying');
      if (attempt < options.retry.retries) await sleep(backoff(attempt, options.retry), options.signal);
      continue;
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
    options.log?.warn({ url, attempt, status: response.status, body: text.slice(0, 500) }, 'LLM request refused');
    if (!retryable(response.status)) {
      throw new AppError(LlmErrorCodes.refused, `${options.provider} refused the request (HTTP ${response.status}).`, {
        httpStatus: 502,
      });
    }
    lastProblem = `HTTP ${response.status}`;
    if (attempt < options.retry.retries) {
      const wait = Math.min(
        retryAfterMs(response.headers.get('retry-after')) ?? backoff(attempt, options.retry),
        options.retry.maxDelayMs,
      );
      await sleep(wait, options.signal);
    }
  }
  throw new AppError(
    LlmErrorCodes.unavailable,
    `${options.provider} is unavailable: ${lastProblem} after ${options.retry.retries + 1} attempts.`,
    { httpStatus: 503 },
  );
};

const backoff = (attempt: number, retry: RetryPolicy) =>
  Math.min(retry.baseDelayMs * 2 ** attempt * (0.75 + Math.random() * 0.5), retry.maxDelayMs);
