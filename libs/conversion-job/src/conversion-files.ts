// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  AppError,
  ConversionErrorCode,
  ConversionResultSchema,
  type ConversionFileRef,
  type ConversionJobResult,
  type ConversionResult,
} from '@lectern/contracts';
import { createHash, randomUUID } from 'node:crypto';
import type { BlobStore } from '@lectern/blob-store';
import { createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { resolveDataPath, safeFilename } from './data-dir.js';

export interface StagedFile {
  /** For the job payload: relative to the data directory (embedded), or a blob store key (distributed). */
  file: Exclude<ConversionFileRef, { kind: 'local_path' }>;
  /** Where the file is on this machine (data directory only). */
  absolutePath?: string;
  filename: string;
  sha256: string;
  byteSize: number;
}

const tooLarge = (filename: string, maxBytes: number): AppError =>
  new AppError(ConversionErrorCode.too_large, `${filename} is larger than the limit of ${maxBytes} bytes.`, {
    httpStatus: 413,
  });

/** A document received into `uploads/.incoming/<uuid>/`: private to its request until promoted or discarded. */
export interface ReceivedFile {
  absolutePath: string;
  filename: string;
  sha256: string;
  byteSize: number;
}

export interface ReceiveLimits {
  maxBytes: number;
  /** Bytes the whole upload may add before the disk quota is reached (`insufficient_storage`). */
  roomBytes?: number;
}

export const insufficientStorage = (): AppError =>
  new AppError('insufficient_storage', 'The server is out of room for uploads; try again later.', { httpStatus: 507 });

/**
 * Stream a document into a private directory under `uploads/.incoming/`, hashing it on the way (one pass,
 * bounded memory). More than `maxBytes` aborts with `too_large`, more than `roomBytes` with
 * `insufficient_storage`; either leaves nothing behind.
 */
export const receiveConversionFile = async (
  dataDir: string,
  source: Readable | AsyncIterable<Uint8Array>,
  filename: string,
  limits: ReceiveLimits,
): Promise<ReceivedFile> => {
  const name = safeFilename(filename);
  const dir = join(dataDir, 'uploads', '.incoming', randomUUID());
  await mkdir(dir, { recursive: true });
  const absolutePath = join(dir, name);
  const hash = createHash('sha256');
  let byteSize = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      byteSize += chunk.length;
      if (byteSize > limits.maxBytes) return callback(tooLarge(name, limits.maxBytes));
      if (limits.roomBytes !== undefined && byteSize > limits.roomBytes) return callback(insufficientStorage());
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  try {
    await pipeline(source, meter, createWriteStream(absolutePath, { flags: 'wx' }));
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return { absolutePath, filename: name, sha256: hash.digest('hex'), byteSize };
};

/** Move a received file to its content-addressed place, `uploads/<sha256>/<safe filename>`, for a job. */
export const promoteReceivedFile = async (dataDir: string, received: ReceivedFile): Promise<StagedFile> => {
  const relPath = `uploads/${received.sha256}/${received.filename}`;
  const absolutePath = await resolveDataPath(dataDir, relPath);
  await mkdir(dirname(absolutePath), { recursive: true });
  await rename(received.absolutePath, absolutePath); // same bytes under the same name: replacing is harmless
  await rm(dirname(received.absolutePath), { recursive: true, force: true });
  return {
    file: { kind: 'data_dir', path: relPath },
    absolutePath,
    filename: received.filename,
    sha256: received.sha256,
    byteSize: received.byteSize,
  };
};

/** Delete a received file that no job will read (its request was refused, or it was converted at once). */
export const discardReceivedFile = (received: ReceivedFile): Promise<void> =>
  rm(dirname(received.absolutePath), { recursive: true, force: true });

/**
 * Stream a document into the shared data directory, hashing it on the way (one pass, bounded memory):
 * `uploads/<sha256>/<safe filename>`. Content-addressed, so the same bytes are stored once and every
 * replica finds them by the fingerprint. More than `maxBytes` aborts with `too_large` and leaves nothing.
 */
export const stageConversionFile = async (
  dataDir: string,
  source: Readable | AsyncIterable<Uint8Array>,
  filename: string,
  limits: ReceiveLimits,
): Promise<StagedFile> => promoteReceivedFile(dataDir, await receiveConversionFile(dataDir, source, filename, limits));

/** The blob key of an upload: content-addressed like `uploads/<sha256>/<name>` in the data directory. */
export const uploadBlobKey = (sha256: string, filename: string): string =>
  `conversion/uploads/${sha256}/${
    safeFilename(filename)
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .replace(/^[._-]+/, '') || 'document'
  }`;

/**
 * Distributed mode: a received file put into the blob store (`conversion/uploads/<sha256>/<name>`), where a
 * converter worker on any node reads it; the received file is deleted either way.
 */
export const stageReceivedBlob = async (blobs: BlobStore, received: ReceivedFile): Promise<StagedFile> => {
  try {
    const key = uploadBlobKey(received.sha256, received.filename);
    await blobs.put(key, createReadStream(received.absolutePath));
    return {
      file: { kind: 'blob', key },
      filename: received.filename,
      sha256: received.sha256,
      byteSize: received.byteSize,
    };
  } finally {
    await discardReceivedFile(received);
  }
};

/** Distributed mode: bytes already read and hashed by the caller, put into the blob store. */
export const stageBlobBytes = async (
  blobs: BlobStore,
  bytes: Uint8Array,
  filename: string,
  sha256: string,
): Promise<StagedFile> => {
  const key = uploadBlobKey(sha256, filename);
  await blobs.put(key, bytes);
  return { file: { kind: 'blob', key }, filename: safeFilename(filename), sha256, byteSize: bytes.length };
};

/**
 * Delete an upload a job no longer needs (`uploads/<sha256>/<name>`, and its directory when empty, or its blob).
 * Other payload files (a producer's own local path) are never touched.
 */
export const removeStagedUpload = async (
  dataDir: string,
  file: ConversionFileRef,
  blobs?: BlobStore,
): Promise<void> => {
  if (file.kind === 'blob') {
    if (blobs && file.key.startsWith('conversion/uploads/')) await blobs.delete(file.key);
    return;
  }
  if (file.kind !== 'data_dir' || !file.path.startsWith('uploads/')) return;
  const path = await resolveDataPath(dataDir, file.path);
  await rm(path, { force: true });
  await rmdir(dirname(path)).catch(() => undefined); // another name for the same bytes may still be there
};

/**
 * Bytes already read and hashed by the caller, written to the same content-addressed place as
 * `stageConversionFile` (no second hash: `sha256` is the caller's). Atomic: written aside, then renamed.
 */
export const stageConversionBytes = async (
  dataDir: string,
  bytes: Uint8Array,
  filename: string,
  sha256: string,
): Promise<StagedFile> => {
  const name = safeFilename(filename);
  const relPath = `uploads/${sha256}/${name}`;
  const absolutePath = await resolveDataPath(dataDir, relPath);
  await mkdir(dirname(absolutePath), { recursive: true });
  const tmp = `${absolutePath}.${randomUUID()}.tmp`;
  await writeFile(tmp, bytes);
  await rename(tmp, absolutePath);
  return { file: { kind: 'data_dir', path: relPath }, absolutePath, filename: name, sha256, byteSize: bytes.length };
};

/** Where a payload's file is on this machine (data-dir paths are contained; local paths are taken as given). */
export const resolveConversionFile = async (
  dataDir: string,
  file: Exclude<ConversionFileRef, { kind: 'blob' }>,
): Promise<string> => (file.kind === 'data_dir' ? resolveDataPath(dataDir, file.path) : file.path);

/** The upload of a job is gone from the blob store (expired, or deleted): the job cannot succeed. */
export const uploadMissing = (filename: string): AppError =>
  new AppError(
    'upload_missing',
    `The upload of ${filename} expired or was removed before it was converted; submit it again.`,
    {
      httpStatus: 410,
    },
  );

/** Results above this size go to a file in the data directory instead of Redis (default). */
export const DEFAULT_INLINE_RESULT_BYTES = 512 * 1024;

/**
 * A job result: the ConversionResult inline when small, else written (atomically) as
 * `conversions/<jobId>.json` in the shared data directory and referenced with its size and SHA-256.
 */
export const storeConversionResult = async (
  dataDir: string,
  jobId: string,
  result: ConversionResult,
  options: { inlineMaxBytes?: number | undefined; blobs?: BlobStore | undefined } = {},
): Promise<ConversionJobResult> => {
  const json = JSON.stringify(result);
  const bytes = Buffer.byteLength(json);
  if (bytes <= (options.inlineMaxBytes ?? DEFAULT_INLINE_RESULT_BYTES)) return { version: 1, kind: 'inline', result };
  if (options.blobs) {
    const key = `conversion/results/${jobId}.json`;
    const stored = await options.blobs.put(key, Buffer.from(json));
    return {
      version: 1,
      kind: 'blob',
      file: { key, byte_size: stored.byteSize, sha256: stored.sha256 },
      fingerprint: result.fingerprint,
      page_count: result.page_count,
    };
  }
  const relPath = `conversions/${jobId}.json`;
  const target = await resolveDataPath(dataDir, relPath);
  await mkdir(dirname(target), { recursive: true });
  const tmp = `${target}.${randomUUID()}.tmp`;
  await writeFile(tmp, json);
  await rename(tmp, target);
  return {
    version: 1,
    kind: 'data_dir',
    file: { path: relPath, byte_size: bytes, sha256: createHash('sha256').update(json).digest('hex') },
    fingerprint: result.fingerprint,
    page_count: result.page_count,
  };
};

/** The ConversionResult of a job result, reading (and verifying) the referenced file when there is one. */
export const loadConversionResult = async (
  dataDir: string,
  jobResult: ConversionJobResult,
  blobs?: BlobStore,
): Promise<ConversionResult> => {
  if (jobResult.kind === 'inline') return jobResult.result;
  const missing = () =>
    new AppError('result_unavailable', 'The conversion result file is missing or damaged; submit the document again.', {
      httpStatus: 410,
    });
  if (jobResult.kind === 'blob') {
    const json = blobs ? await blobs.get(jobResult.file.key) : undefined;
    if (!json || createHash('sha256').update(json).digest('hex') !== jobResult.file.sha256) throw missing();
    return ConversionResultSchema.parse(JSON.parse(json.toString('utf8')));
  }
  const path = await resolveDataPath(dataDir, jobResult.file.path);
  await access(path).catch(() => {
    throw missing();
  });
  const json = await readFile(path);
  if (createHash('sha256').update(json).digest('hex') !== jobResult.file.sha256) throw missing();
  return ConversionResultSchema.parse(JSON.parse(json.toString('utf8')));
};
