// SPDX-License-Identifier: AGPL-3.0-or-later
import { createHash } from 'node:crypto';
import { AppError } from '@lectern/contracts';
import { retry, type Logger } from '@lectern/runtime';
import { EmbeddingFingerprintSchema, type EmbeddingFingerprint } from '../vector-store.port.js';

/** Reserved payload keys: the caller's string id and the chunk text (full-text indexed when hybrid). */
export const ID_KEY = '__id';
export const TEXT_KEY = '__text';
/** The lexical fields (title, section path, code tokens; lexical.ts) as one text-indexed payload key. */
export const LEX_KEY = '__lex';
export const DENSE = 'dense';
/** Key of Lectern's entry in the Qdrant collection metadata. */
export const META_KEY = 'lectern';

const NAMESPACE = 'lectern-vector-store:';

/** Qdrant ids are UUIDs or integers: a deterministic UUID (v5 layout, SHA-1 of a namespace + id). */
export const pointUuid = (id: string): string => {
  const h = createHash('sha1')
    .update(NAMESPACE + id)
    .digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
};

export interface CollectionMeta {
  fingerprint: EmbeddingFingerprint;
  hybrid: boolean;
}

export const readMeta = (metadata: unknown): CollectionMeta | null => {
  const m = (metadata as Record<string, unknown> | null | undefined)?.[META_KEY] as Record<string, unknown> | undefined;
  const fp = EmbeddingFingerprintSchema.safeParse(m?.['fingerprint']);
  return fp.success ? { fingerprint: fp.data, hybrid: m?.['hybrid'] === true } : null;
};

/** Splits a stored payload into the caller's payload and the reserved fields. */
export const splitPayload = (
  p: Record<string, unknown> | null | undefined,
): { id: string; text: string; payload: Record<string, unknown> } => {
  const { [ID_KEY]: id, [TEXT_KEY]: text, [LEX_KEY]: _lex, ...payload } = p ?? {};
  return { id: String(id ?? ''), text: typeof text === 'string' ? text : '', payload };
};

export const httpStatus = (e: unknown): number | undefined => {
  const s = (e as { status?: unknown } | null)?.status;
  if (typeof s === 'number') return s;
  const m = /Unexpected Response: (\d{3})/.exec(String((e as Error | null)?.message ?? ''));
  return m ? Number(m[1]) : undefined;
};

const transient = (e: unknown): boolean => {
  const status = httpStatus(e);
  if (status !== undefined) return status >= 500 || status === 429;
  // fetch() network failures (refused, reset, DNS) and the client's timeout error.
  const text = `${(e as Error | null)?.name ?? ''} ${(e as Error | null)?.message ?? ''} ${String((e as { cause?: { code?: string } } | null)?.cause?.code ?? '')}`;
  return /fetch failed|ECONN|EPIPE|ETIMEDOUT|EAI_AGAIN|socket|Timeout|other side closed/i.test(text);
};

export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
}

/** Retries 5xx, 429 and connection errors with exponential backoff and jitter (`retry` of libs/runtime); other errors at once. */
export const withRetry = async <T>(what: string, fn: () => Promise<T>, policy: RetryPolicy, log?: Logger): Promise<T> =>
  retry(fn, {
    attempts: policy.attempts,
    baseDelayMs: policy.baseDelayMs,
    jitter: 0.25,
    retryable: transient,
    onRetry: ({ error, attempt, delayMs }) =>
      log?.warn({ what, attempt, delay: delayMs, err: (error as Error).message }, 'qdrant request failed, retrying'),
  });

export const unavailable = (cause: unknown): AppError =>
  new AppError('INDEX_UNAVAILABLE', 'The vector database is unavailable; try again later.', { httpStatus: 503, cause });

/** BM25's IDF: rarer terms weigh more. */
export const idf = (total: number, withTerm: number): number =>
  Math.log(1 + (total - withTerm + 0.5) / (withTerm + 0.5));
