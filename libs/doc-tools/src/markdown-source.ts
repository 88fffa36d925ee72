// SPDX-License-Identifier: AGPL-3.0-or-later
import { setTimeout as sleep } from 'node:timers/promises';
import {
  AppError,
  ConversionResultSchema,
  ConversionTaskCreatedSchema,
  ConversionTaskFailedSchema,
  ConversionErrorCodeSchema,
  ConversionTaskStatusSchema,
  RestErrorSchema,
  type ConversionResult,
} from '@lectern/contracts';
import type { ConversionProgressReport, ConversionSubmitter } from '@lectern/conversion-job';
import type { z } from 'zod';

/** A document read and hashed by the caller, on its way to Markdown. */
export interface SourceFile {
  path: string;
  filename: string;
  bytes: Uint8Array;
  sha256: string;
}

export interface MarkdownCall {
  signal?: AbortSignal | undefined;
  onProgress?: ((p: ConversionProgressReport) => void) | undefined;
}

/** A document as Markdown, with what the index reports about it. */
export interface MarkdownDocument {
  markdown: string;
  docType: ConversionResult['detected_type'];
  /** Pages of a paged document (PDF, image); null for flowing text (DOCX, HTML, TXT, MD). */
  pageCount: number | null;
  notes: string[];
}

/** Spec 003's `markitdown` role: a document in, Markdown out. */
export interface MarkdownSource {
  toMarkdown(file: SourceFile, call?: MarkdownCall): Promise<MarkdownDocument>;
}

const PAGED = new Set(['pdf', 'image']);

const fromResult = (
  result: Pick<ConversionResult, 'markdown' | 'detected_type' | 'page_count' | 'warnings' | 'method'>,
  via: string,
): MarkdownDocument => ({
  markdown: result.markdown,
  docType: result.detected_type,
  pageCount: PAGED.has(result.detected_type) ? result.page_count : null,
  notes: [`Converted via ${via} (${result.method})`, ...result.warnings],
});

/** The platform's conversion job path: in this process when embedded, on converter workers when distributed. */
export const conversionMarkdownSource = (conversion: Pick<ConversionSubmitter, 'convert'>): MarkdownSource => ({
  toMarkdown: async (file, call = {}) =>
    fromResult(
      await conversion.convert(
        { kind: 'read', ...file },
        {},
        {
          ...(call.signal ? { signal: call.signal } : {}),
          ...(call.onProgress ? { onProgress: call.onProgress } : {}),
        },
      ),
      'the conversion queue',
    ),
});

export interface HttpMarkdownSourceOptions {
  /** The converter's base URL (`MARKITDOWN_URL`), e.g. `http://converter:8002`. */
  baseUrl: string;
  /** Its bearer token, when it has one. */
  apiKey?: string | undefined;
  /** Between two status polls (default 500 ms). */
  pollMs?: number | undefined;
  /** One request's limit (default 30 s); the whole conversion is bounded by the caller's signal. */
  requestTimeoutMs?: number | undefined;
}

const ResultFields = ConversionResultSchema.pick({
  markdown: true,
  detected_type: true,
  page_count: true,
  warnings: true,
  method: true,
});

/**
 * A converter over HTTP (spec 003's split: `MARKITDOWN_URL`): `POST /tasks` with the file, poll `GET /tasks/{id}`
 * until it settles, then `GET /tasks/{id}/result`. Lectern's converter speaks exactly this (the spec's task API).
 */
export const httpMarkdownSource = (options: HttpMarkdownSourceOptions): MarkdownSource => {
  const base = options.baseUrl.replace(/\/+$/, '');
  const pollMs = options.pollMs ?? 500;
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
  const unavailable = (message: string, cause?: unknown) =>
    new AppError('conversion_failed', `The converter at ${base} ${message}`, {
      httpStatus: 502,
      ...(cause !== undefined ? { cause } : {}),
    });

  const request = async <T>(
    path: string,
    schema: z.ZodType<T>,
    signal: AbortSignal | undefined,
    init: RequestInit = {},
  ): Promise<{ status: number; body: T }> => {
    const timeout = AbortSignal.timeout(requestTimeoutMs);
    const response = await fetch(`${base}${path}`, {
      ...init,
      headers: { ...headers, accept: 'application/json' },
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    }).catch((error: unknown) => {
      if (signal?.aborted) throw signal.reason;
      throw unavailable('did not answer', error);
    });
    const json: unknown = await response.json().catch(() => undefined);
    const failed = ConversionTaskFailedSchema.safeParse(json);
    if (failed.success)
      throw new AppError(failed.data.error.code, failed.data.error.message, { httpStatus: response.status });
    if (!response.ok) {
      // The converter's refusals of the document itself (unsupported type, too large, ...) pass through typed.
      const refused = RestErrorSchema.safeParse(json);
      const code = refused.success ? ConversionErrorCodeSchema.safeParse(refused.data.error.code) : undefined;
      if (refused.success && code?.success)
        throw new AppError(code.data, refused.data.error.message, { httpStatus: response.status });
      throw unavailable(`answered ${response.status}${refused.success ? `: ${refused.data.error.message}` : ''}`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw unavailable(`answered ${path} with an unexpected body`);
    return { status: response.status, body: parsed.data };
  };

  return {
    toMarkdown: async (file, call = {}) => {
      const form = new FormData();
      form.append('file', new Blob([file.bytes]), file.filename);
      const created = await request('/tasks', ConversionTaskCreatedSchema, call.signal, { method: 'POST', body: form });
      const id = encodeURIComponent(created.body.task_id);
      for (;;) {
        const { body: status } = await request(`/tasks/${id}`, ConversionTaskStatusSchema, call.signal);
        if (status.status === 'failed') {
          throw status.error
            ? new AppError(status.error.code, status.error.message, { httpStatus: 422 })
            : unavailable('failed the conversion');
        }
        if (status.status === 'succeeded') break;
        call.onProgress?.({
          stage: status.progress.stage ?? status.status,
          ...(status.progress.page !== undefined ? { page: status.progress.page } : {}),
          ...(status.progress.pages !== undefined ? { pages: status.progress.pages } : {}),
        });
        await sleep(pollMs, undefined, call.signal ? { signal: call.signal } : {});
      }
      const { body } = await request(`/tasks/${id}/result`, ResultFields, call.signal);
      return fromResult(body, base);
    },
  };
};
