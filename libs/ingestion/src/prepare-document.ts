// SPDX-License-Identifier: AGPL-3.0-or-later
import { basename } from 'node:path';
import { AppError, type ConversionJobOptions, type ConversionResult } from '@lectern/contracts';
import { jobOptions, type ConversionProgressReport, type ConversionSubmitter } from '@lectern/conversion-job';
import { readDocumentFile, resolveInsideRoots } from '@lectern/documents';
import { afterAbort, checkpoint, type BoundContext } from './ingest-context.js';
import { asStorageError } from './storage-errors.js';

/** A document resolved inside the roots, read and hashed once. */
export interface SourceDocument {
  /** The real path (inside a root). */
  path: string;
  filename: string;
  bytes: Uint8Array;
  sha256: string;
}

/** Where a client says the document is, and what the service accepts. */
export interface SourceRequest {
  path: string;
  roots: readonly string[];
  maxBytes: number;
  /** Refuses a file the service does not take (throws), e.g. spec 000's extension list. */
  accept?: (realPath: string) => void;
  /** The error for a path that is not a file (default: `file_not_found`, "Not a file: <path>"). */
  notAFile?: (path: string) => AppError;
}

/** The first part of `prepareDocument`, on its own for a use case that checks something (a registry) before converting. */
export const readSource = async (request: SourceRequest): Promise<SourceDocument> => {
  const file = await resolveInsideRoots(request.path, request.roots);
  if (file.kind !== 'file') {
    throw request.notAFile?.(request.path) ?? new AppError('file_not_found', `Not a file: ${request.path}`);
  }
  request.accept?.(file.path);
  const { bytes, sha256 } = await readDocumentFile(file.path, request.roots, request.maxBytes);
  return { path: file.path, filename: basename(file.path), bytes, sha256 };
};

export interface ConvertCall {
  signal: AbortSignal;
  onProgress: (p: ConversionProgressReport) => void;
}
/** How a service turns the read document into text: the one conversion job (`conversionJob`), or another source of it. */
export type ConvertFn<R> = (source: SourceDocument, call: ConvertCall) => Promise<R>;

/**
 * The `conversion` job (in this process when embedded, on converter workers when distributed) with `options`;
 * settings equal to the defaults are left to the converting worker, so the job id matches the converter's own
 * `POST /tasks` of the same file, which therefore converts once.
 */
export const conversionJob =
  (conversion: Pick<ConversionSubmitter, 'convert'>, options: ConversionJobOptions = {}): ConvertFn<ConversionResult> =>
  (source, call) =>
    conversion.convert({ kind: 'read', ...source }, jobOptions(options), call);

export interface PrepareSpec<R, C, S> {
  convert: ConvertFn<R>;
  /**
   * The scan / image-based rule and the content checks: a reason to skip the document (returned, nothing is
   * chunked), undefined to keep it; it may throw (e.g. `no_content`).
   */
  rule?: (converted: R, source: SourceDocument) => S | undefined;
  /** The chunking policy: the chunks of the converted document. */
  chunk: (converted: R, source: SourceDocument) => C[] | Promise<C[]>;
  /** Prefix of the progress messages (e.g. the file name when a run ingests several). */
  label?: string;
  /** Progress of the conversion, when the service reports it otherwise than "<stage> page n of m". */
  onConversionProgress?: (p: ConversionProgressReport) => void;
}

/** The prepared document: its chunks, or (only when the spec has a rule that skips) the reason it was skipped. */
export type PreparedDocument<R, C, S> = { source: SourceDocument; converted: R } & ([S] extends [never]
  ? { skipped?: undefined; chunks: C[] }
  : { skipped: S; chunks?: undefined } | { skipped?: undefined; chunks: C[] });

/**
 * Step one of every ingest: (resolve inside the roots, read and hash once — or take a source already read), convert
 * through the service's conversion, apply its scan rule, cut by its chunking policy. The signal is checked after
 * reading and after conversion and is handed to the conversion; a full disk (the conversion's staging) is
 * `insufficient_storage`.
 */
export const prepareDocument = async <R, C, S = never>(
  input: SourceRequest | SourceDocument,
  spec: PrepareSpec<R, C, S>,
  ctx: BoundContext,
): Promise<PreparedDocument<R, C, S>> => {
  const { signal, progress } = ctx;
  const label = spec.label ? `${spec.label}: ` : '';
  try {
    const source = 'bytes' in input ? input : await readSource(input);
    checkpoint(signal);
    await progress(0, undefined, `${label}converting`);
    const converted = await spec.convert(source, {
      signal,
      onProgress:
        spec.onConversionProgress ??
        ((p) => void progress(p.page ?? 0, p.pages, `${label}${p.stage} page ${p.page ?? '?'} of ${p.pages ?? '?'}`)),
    });
    checkpoint(signal);
    const skipped = spec.rule?.(converted, source);
    if (skipped !== undefined) return { source, converted, skipped } as unknown as PreparedDocument<R, C, S>;
    const chunks = await spec.chunk(converted, source);
    checkpoint(signal);
    return { source, converted, chunks } as unknown as PreparedDocument<R, C, S>;
  } catch (error) {
    throw asStorageError(afterAbort(error, signal));
  }
};
