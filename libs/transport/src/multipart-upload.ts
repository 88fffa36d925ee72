// SPDX-License-Identifier: AGPL-3.0-or-later
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
import { AppError, CommonErrorCodes } from '@lectern/contracts';
import type { FastifyRequest } from 'fastify';

const invalid = (message: string, httpStatus = 400): AppError =>
  new AppError(CommonErrorCodes.invalidArguments, message, { httpStatus });

export interface MultipartUploadHandlers<T> {
  /** Store the `file` part (bounded by the handler); other file parts are skipped unread. */
  file(part: MultipartFile): Promise<T>;
  /** Each text field as it arrives, `truncated` when it exceeded the parser's field size (throw an AppError to refuse the request). */
  field?(name: string, value: string, truncated: boolean): void;
  /** Undo a stored file when a later part is refused. */
  discard(stored: T): Promise<void>;
  /** The answer when the file exceeds the multipart parser's own limit (the backstop of the handler's). */
  tooLarge(): AppError;
  /** What a request that is not multipart is told to send (default: the document in a "file" field). */
  expected?: string;
}

/**
 * One multipart request with a document in the field `file` (the REST uploads of the converter, the document
 * store and the policy KB): 415 when not multipart, the file stored by `handlers.file`, text fields collected,
 * parser errors mapped to typed errors, nothing left behind on failure — and the unread rest of a refused body
 * let past, so the client gets its answer instead of waiting to finish sending.
 */
export const readMultipartUpload = async <T>(
  request: FastifyRequest,
  handlers: MultipartUploadHandlers<T>,
): Promise<{ file: T; fields: Record<string, string> }> => {
  if (!request.isMultipart())
    throw invalid(`Send multipart/form-data with ${handlers.expected ?? 'the document in a "file" field'}.`, 415);
  const fields: Record<string, string> = {};
  let stored: { value: T } | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        fields[part.fieldname] = String(part.value);
        handlers.field?.(part.fieldname, String(part.value), part.valueTruncated);
        continue;
      }
      if (part.fieldname !== 'file' || stored) {
        part.file.resume();
        continue;
      }
      stored = { value: await handlers.file(part) };
    }
  } catch (error) {
    if (stored) await handlers.discard(stored.value);
    request.raw.unpipe();
    request.raw.resume();
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw handlers.tooLarge();
    if (code?.startsWith('FST_')) throw invalid(`Malformed multipart request: ${(error as Error).message}`);
    throw error;
  }
  if (!stored) throw invalid('The multipart field "file" with the document is missing.');
  return { file: stored.value, fields };
};

export interface ReceivedUpload {
  /** The stored file, `<uploadsDir>/<uuid>/<safe name>`. */
  path: string;
  /** Text fields of the request, as sent. */
  fields: Record<string, string>;
  /** Deletes the upload (its own directory). */
  discard(): Promise<void>;
}

/**
 * Stream the multipart field `file` into its own directory under `uploadsDir` (at most `maxBytes`; beyond that
 * nothing is kept and the answer is 413 `too_large`), collecting the text fields. `safeName` makes the client's
 * file name safe to use on disk.
 */
export const receiveUpload = async (
  request: FastifyRequest,
  options: { uploadsDir: string; maxBytes: number; safeName: (name: string) => string },
): Promise<ReceivedUpload> => {
  const dir = join(options.uploadsDir, randomUUID());
  const discard = () => rm(dir, { recursive: true, force: true });
  const tooLarge = () =>
    new AppError(
      'too_large',
      `The document is larger than this server's limit of ${options.maxBytes} bytes (MAX_DOCUMENT_BYTES).`,
      { httpStatus: 413 },
    );
  try {
    const { file, fields } = await readMultipartUpload(request, {
      file: async (part) => {
        await mkdir(dir, { recursive: true });
        const target = join(dir, options.safeName(part.filename));
        let bytes = 0;
        const meter = new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            bytes += chunk.length;
            callback(bytes > options.maxBytes ? tooLarge() : null, chunk);
          },
        });
        await pipeline(part.file, meter, createWriteStream(target, { flags: 'wx' }));
        return target;
      },
      discard,
      tooLarge,
    });
    return { path: file, fields, discard };
  } catch (error) {
    await discard();
    throw error;
  }
};
