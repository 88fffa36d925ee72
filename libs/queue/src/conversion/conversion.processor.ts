import {
  AppError,
  ConversionErrorCode,
  type ConversionJobPayload,
  type ConversionJobResult,
  type ConversionOptions,
  type ConversionResult,
} from '@lectern/contracts';
import { markPermanent } from '../job-error.js';
import { applyJobOptions } from './conversion-limits.js';
import type { JobHandler } from '../job-queue.port.js';
import { resolveConversionFile, storeConversionResult } from './conversion-files.js';

export interface ConversionProgressReport {
  stage: string;
  page?: number;
  pages?: number;
}

/** `convertDocument` from `@lectern/conversion`, injected so this lib does not depend on the converter. */
export type ConvertDocumentFn = (
  input: { path: string },
  options: Partial<ConversionOptions> & { onProgress?: (p: ConversionProgressReport) => void; signal?: AbortSignal },
) => Promise<ConversionResult>;

export interface ConversionProcessorDeps {
  /** The shared data directory (uploads and large results). */
  dataDir: string;
  convert: ConvertDocumentFn;
  /** The worker's own settings (from its env): payload options override them, but lower its limits only. */
  defaults?: Partial<ConversionOptions>;
  /** Results above this many bytes of JSON are written to the data directory (default 512 KiB). */
  inlineMaxBytes?: number;
}

/** Page progress -> percent: pages are the work; the last percent is left for writing the result. */
const percentOf = (p: ConversionProgressReport): number | undefined =>
  p.page !== undefined && p.pages !== undefined && p.pages > 0 ? Math.min(99, Math.floor((p.page / p.pages) * 99)) : undefined;

/**
 * The `conversion` queue's job handler, the same in both modes (BullMQ worker or in-process): find the
 * file, convert it with progress, check the fingerprint, store the result (inline or in the data dir).
 * Conversion errors are AppErrors (4xx: permanent, no retry); a timeout is not retried either.
 */
export const createConversionProcessor =
  (deps: ConversionProcessorDeps): JobHandler<ConversionJobPayload, ConversionJobResult> =>
  async (payload, context) => {
    const path = await resolveConversionFile(deps.dataDir, payload.file);
    let percent = 0;
    const result = await deps
      .convert(
        { path },
        {
          ...applyJobOptions(deps.defaults ?? {}, payload.options),
          signal: context.signal,
          onProgress: (p) => {
            percent = percentOf(p) ?? percent;
            const detail = { stage: p.stage, ...(p.page !== undefined ? { page: p.page } : {}), ...(p.pages !== undefined ? { pages: p.pages } : {}) };
            context.progress(percent, detail).catch(() => {});
          },
        },
      )
      .catch((error: unknown) => {
        throw error instanceof AppError && error.code === ConversionErrorCode.timeout ? markPermanent(error) : error;
      });
    if (result.fingerprint !== payload.sha256) {
      throw new AppError('fingerprint_mismatch', `${payload.filename} changed after it was submitted; submit it again.`, {
        httpStatus: 409,
      });
    }
    const stored = await storeConversionResult(deps.dataDir, context.jobId, result, { inlineMaxBytes: deps.inlineMaxBytes });
    context.log(`converted ${result.page_count} page(s), method ${result.method}, stored ${stored.kind}`);
    return stored;
  };
