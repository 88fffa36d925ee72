// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  AppError,
  CommonErrorCodes,
  ConversionOptionsSchema,
  conversionJobId,
  type ConversionJobOptions,
  type ConversionJobPayload,
  type ConversionJobResult,
  type ConversionResult,
} from '@lectern/contracts';
import { JOB_STALLED, type JobHandle, type JobQueue, type JobSnapshot } from '@lectern/queue';
import { raceAbort } from '@lectern/runtime';
import type { BlobStore } from '@lectern/blob-store';
import {
  loadConversionResult,
  promoteReceivedFile,
  removeStagedUpload,
  stageBlobBytes,
  stageConversionBytes,
  stageReceivedBlob,
  type ReceivedFile,
  type StagedFile,
} from './conversion-files.js';
import type { ConversionProgressReport } from './conversion.processor.js';
import type { HandedOverFiles } from './handed-over-files.js';

/**
 * A document to convert: already staged (DATA_DIR/uploads or the blob store), received by a request (the submitter
 * stages it where the workers read it: the data directory embedded, the blob store distributed), or read and hashed
 * by the caller.
 */
export type SubmittedFile =
  | { kind: 'staged'; staged: StagedFile }
  | { kind: 'received'; received: ReceivedFile }
  | { kind: 'read'; path: string; filename: string; bytes: Uint8Array; sha256: string };

export interface ConvertCall {
  signal?: AbortSignal;
  onProgress?: (p: ConversionProgressReport) => void;
}

export type ConversionSnapshot = JobSnapshot<ConversionJobPayload, ConversionJobResult>;

/** The producer side of the `conversion` queue: every service that converts goes through it. */
export interface ConversionSubmitter {
  /** Enqueue the job (or find the one with the same content and options): `conversionJobId()`. */
  submit(file: SubmittedFile, options?: ConversionJobOptions): Promise<JobHandle<ConversionJobResult>>;
  /** Submit, relay progress, wait for the job and read its result. */
  convert(file: SubmittedFile, options?: ConversionJobOptions, call?: ConvertCall): Promise<ConversionResult>;
  getJob(jobId: string): Promise<ConversionSnapshot | undefined>;
  /** The ConversionResult of a finished job (reading the data-dir file for large results). */
  loadResult(result: ConversionJobResult): Promise<ConversionResult>;
}

export interface ConversionSubmitterDeps {
  queue: JobQueue<ConversionJobPayload, ConversionJobResult>;
  dataDir: string;
  /**
   * Set when the queue's processor runs in this process: bytes a caller read are handed over in memory
   * (no staging copy, no second read or hash). Unset (distributed mode): they are staged in the blob store.
   */
  handedOver?: HandedOverFiles;
  /** Distributed mode: uploads are staged in it and large results read from it (no directory shared by pods). */
  blobs?: BlobStore;
}

const defaults = ConversionOptionsSchema.parse({});

/**
 * A job that failed for a reason other than its document (its worker crashed or stalled too often, an internal
 * error) reaches the caller as `conversion_failed` with the reason; typed conversion errors (`encrypted`,
 * `extraction_failed`, `too_large`, ...) pass unchanged.
 */
export const asConversionFailure = (error: unknown, filename: string): unknown =>
  error instanceof AppError && (error.code === CommonErrorCodes.internal || error.code === JOB_STALLED)
    ? new AppError('conversion_failed', `Conversion of ${filename} failed: ${error.message}`, {
        httpStatus: 502,
        cause: error,
      })
    : error;

/**
 * A producer's settings as job options: only those that differ from the contract's defaults, so that
 * producers with default settings (a converter `POST /tasks` without options, a document store with
 * ENABLE_OCR and IMAGE_RATIO_THRESHOLD unset) meet on the same job id and the same file converts once.
 * Unset options take the converting worker's own settings.
 */
export const jobOptions = (settings: ConversionJobOptions): ConversionJobOptions =>
  Object.fromEntries(
    Object.entries(settings).filter(([k, v]) => v !== undefined && v !== defaults[k as keyof typeof defaults]),
  ) as ConversionJobOptions;

const submittedName = (file: SubmittedFile): string =>
  file.kind === 'staged' ? file.staged.filename : file.kind === 'received' ? file.received.filename : file.filename;

export const createConversionSubmitter = (deps: ConversionSubmitterDeps): ConversionSubmitter => {
  const { queue, dataDir, handedOver, blobs } = deps;

  /** Handed-over bytes live as long as their job: released when it settles, whoever waits for it. */
  const releaseWhenSettled = (handle: JobHandle<ConversionJobResult>): void => {
    const release = () => handedOver?.release(handle.id);
    handle.result().then(release, release);
  };

  /**
   * The job already existed, so this producer's staged upload is not what it reads unless the paths are the same:
   * delete ours when the job is finished (it needs no file) or reads another (same bytes, another name).
   */
  const dropUnneededUpload = async (jobId: string, ours: StagedFile['file']): Promise<void> => {
    const job = await queue.getJob(jobId);
    if (!job) return;
    const theirs = job.payload.file;
    const same =
      (theirs.kind === 'data_dir' && ours.kind === 'data_dir' && theirs.path === ours.path) ||
      (theirs.kind === 'blob' && ours.kind === 'blob' && theirs.key === ours.key);
    if (job.status === 'succeeded' || !same) await removeStagedUpload(dataDir, ours, blobs).catch(() => undefined);
  };

  /** A received file staged where the workers read it. */
  const stageReceived = (received: ReceivedFile): Promise<StagedFile> =>
    blobs ? stageReceivedBlob(blobs, received) : promoteReceivedFile(dataDir, received);

  const enqueue = async (submitted: SubmittedFile, options: ConversionJobOptions) => {
    const file: Exclude<SubmittedFile, { kind: 'received' }> =
      submitted.kind === 'received' ? { kind: 'staged', staged: await stageReceived(submitted.received) } : submitted;
    const sha256 = file.kind === 'staged' ? file.staged.sha256 : file.sha256;
    const jobId = conversionJobId(sha256, options);
    let fileRef: ConversionJobPayload['file'];
    let filename: string;
    let byteSize: number;
    let held = false;
    if (file.kind === 'staged') {
      ({ file: fileRef, filename, byteSize } = file.staged);
    } else if (handedOver) {
      handedOver.hold(jobId, file.bytes, sha256);
      held = true;
      fileRef = { kind: 'local_path', path: file.path };
      ({ filename } = file);
      byteSize = file.bytes.length;
    } else {
      const staged = blobs
        ? await stageBlobBytes(blobs, file.bytes, file.filename, sha256)
        : await stageConversionBytes(dataDir, file.bytes, file.filename, sha256);
      ({ file: fileRef, filename, byteSize } = staged);
    }
    const payload: ConversionJobPayload = { version: 1, file: fileRef, filename, sha256, byte_size: byteSize, options };
    try {
      const handle = await queue.add(payload, { jobId });
      if (handle.deduplicated && fileRef.kind !== 'local_path') await dropUnneededUpload(jobId, fileRef);
      return { handle, held };
    } catch (error) {
      if (held) handedOver?.release(jobId);
      throw error;
    }
  };

  return {
    submit: async (file, options = {}) => {
      const { handle, held } = await enqueue(file, options);
      if (held) releaseWhenSettled(handle);
      return handle;
    },
    convert: async (file, options = {}, call = {}) => {
      call.signal?.throwIfAborted();
      const { handle, held } = await enqueue(file, options);
      const stop = handle.onProgress(({ detail }) => {
        const page = Number(detail?.['page']);
        const pages = Number(detail?.['pages']);
        call.onProgress?.({
          stage: String(detail?.['stage'] ?? 'converting'),
          ...(Number.isFinite(page) ? { page } : {}),
          ...(Number.isFinite(pages) ? { pages } : {}),
        });
      });
      try {
        // The caller may stop waiting (its own timeout); the job itself runs on for other waiters.
        const settled = handle.result();
        const result = await (call.signal ? raceAbort(settled, call.signal) : settled).catch((error: unknown) => {
          throw asConversionFailure(error, submittedName(file));
        });
        return await loadConversionResult(dataDir, result, blobs);
      } finally {
        stop();
        if (held) releaseWhenSettled(handle);
      }
    },
    getJob: (jobId) => queue.getJob(jobId),
    loadResult: (result) => loadConversionResult(dataDir, result, blobs),
  };
};
