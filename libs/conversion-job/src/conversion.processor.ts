// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError, ConversionErrorCode, type ConversionJobPayload, type ConversionJobResult } from '@lectern/contracts';
import type { BlobStore } from '@lectern/blob-store';
import type { ConversionEngine } from '@lectern/conversion';
import { createHash } from 'node:crypto';
import { isPermanentError, markPermanent, type JobContext, type JobHandler } from '@lectern/queue';
import { removeStagedUpload, resolveConversionFile, storeConversionResult, uploadMissing } from './conversion-files.js';
import type { HandedOverFiles } from './handed-over-files.js';

export interface ConversionProgressReport {
  stage: string;
  page?: number;
  pages?: number;
}

export interface ConversionProcessorDeps {
  /** The shared data directory (uploads and large results). */
  dataDir: string;
  /** Converts with the worker's own settings and limits (payload options override the settings only). */
  engine: Pick<ConversionEngine, 'convert'>;
  /** Results above this many bytes of JSON are written to the data directory (default 512 KiB). */
  inlineMaxBytes?: number;
  /** Bytes the producer in this process has already read and hashed (in-process queue only). */
  handedOver?: HandedOverFiles;
  /** Distributed mode: uploads are read from it and large results written to it (no shared directory). */
  blobs?: BlobStore;
}

/** Page progress -> percent: pages are the work; the last percent is left for writing the result. */
const percentOf = (p: ConversionProgressReport): number | undefined =>
  p.page !== undefined && p.pages !== undefined && p.pages > 0
    ? Math.min(99, Math.floor((p.page / p.pages) * 99))
    : undefined;

/**
 * The `conversion` queue's job handler, the same in both modes (BullMQ worker or in-process): find the
 * file (or take the bytes the producer in this process handed over), convert it with progress, check the
 * fingerprint, store the result (inline or in the data dir). Conversion errors are AppErrors (4xx:
 * permanent, no retry); a timeout is not retried either. The upload (`DATA_DIR/uploads/...`) is deleted once the
 * queue has recorded the job's end (converted, or refused for good) — not before: a worker killed between the two
 * would leave the next attempt without its file; a failure that will be retried keeps it for the next attempt
 * (and the storage janitor removes what a lost job leaves behind).
 */
export const createConversionProcessor =
  (deps: ConversionProcessorDeps): JobHandler<ConversionJobPayload, ConversionJobResult> =>
  async (payload, context) => {
    const ended = (): Promise<void> =>
      removeStagedUpload(deps.dataDir, payload.file, deps.blobs).catch(() => undefined);
    try {
      const stored = await convertAndStore(deps, payload, context);
      context.afterEnd(ended);
      return stored;
    } catch (error) {
      if (isPermanentError(error)) context.afterEnd(ended);
      throw error;
    }
  };

const convertAndStore = async (
  deps: ConversionProcessorDeps,
  payload: ConversionJobPayload,
  context: JobContext,
): Promise<ConversionJobResult> => {
  const inMemory = deps.handedOver?.get(context.jobId) ?? (await readBlob(deps, payload));
  const input = inMemory
    ? { bytes: inMemory.bytes, filename: payload.filename, fingerprint: inMemory.sha256 }
    : {
        path: await resolveConversionFile(deps.dataDir, payload.file as Exclude<typeof payload.file, { kind: 'blob' }>),
      };
  let percent = 0;
  const result = await deps.engine
    .convert(input, {
      ...payload.options,
      signal: context.signal,
      onProgress: (p) => {
        percent = percentOf(p) ?? percent;
        const detail = {
          stage: p.stage,
          ...(p.page !== undefined ? { page: p.page } : {}),
          ...(p.pages !== undefined ? { pages: p.pages } : {}),
        };
        context.progress(percent, detail).catch(() => {});
      },
    })
    .catch((error: unknown) => {
      throw error instanceof AppError && error.code === ConversionErrorCode.timeout ? markPermanent(error) : error;
    });
  if (result.fingerprint !== payload.sha256) {
    throw new AppError('fingerprint_mismatch', `${payload.filename} changed after it was submitted; submit it again.`, {
      httpStatus: 409,
    });
  }
  const stored = await storeConversionResult(deps.dataDir, context.jobId, result, {
    inlineMaxBytes: deps.inlineMaxBytes,
    blobs: deps.blobs,
  });
  context.log(`converted ${result.page_count} page(s), method ${result.method}, stored ${stored.kind}`);
  return stored;
};

/** A blob upload's bytes, hashed here (the fingerprint check compares them with the payload's), or undefined for a file. */
const readBlob = async (
  deps: ConversionProcessorDeps,
  payload: ConversionJobPayload,
): Promise<{ bytes: Uint8Array; sha256: string } | undefined> => {
  if (payload.file.kind !== 'blob') return undefined;
  const bytes = deps.blobs ? await deps.blobs.get(payload.file.key) : undefined;
  if (!bytes) throw uploadMissing(payload.filename);
  return { bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
};
