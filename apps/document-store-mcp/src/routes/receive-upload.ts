import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError, CommonErrorCodes } from '@lectern/contracts';
import { safeFilename } from '@lectern/conversion-job';
import type { FastifyRequest } from 'fastify';

export interface ReceivedUpload {
  /** The stored file, `DATA_DIR/uploads/api/<uuid>/<safe name>`. */
  path: string;
  /** Text fields of the request, as sent. */
  fields: Record<string, string>;
  /** Deletes the upload (its own directory). */
  discard(): Promise<void>;
}

const tooLarge = (maxBytes: number) =>
  new AppError('too_large', `The document is larger than this server's limit of ${maxBytes} bytes (MAX_DOCUMENT_BYTES).`, { httpStatus: 413 });

/**
 * Stream the multipart field `file` into its own directory under `uploadsDir` (at most `maxBytes`; beyond that
 * nothing is kept and the answer is 413), collecting the text fields. Nothing is left behind on failure.
 */
export const receiveUpload = async (request: FastifyRequest, uploadsDir: string, maxBytes: number): Promise<ReceivedUpload> => {
  if (!request.isMultipart()) {
    throw new AppError(CommonErrorCodes.invalidArguments, 'Send multipart/form-data with the document in a "file" field.', { httpStatus: 415 });
  }
  const dir = join(uploadsDir, randomUUID());
  const discard = () => rm(dir, { recursive: true, force: true });
  const fields: Record<string, string> = {};
  let path: string | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        fields[part.fieldname] = String(part.value);
        continue;
      }
      if (part.fieldname !== 'file' || path) {
        part.file.resume();
        continue;
      }
      await mkdir(dir, { recursive: true });
      const target = join(dir, safeFilename(part.filename));
      let bytes = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          bytes += chunk.length;
          callback(bytes > maxBytes ? tooLarge(maxBytes) : null, chunk);
        },
      });
      await pipeline(part.file, meter, createWriteStream(target, { flags: 'wx' }));
      path = target;
    }
  } catch (error) {
    await discard();
    // The rest of a refused body flows past unread, so the client gets its answer.
    request.raw.unpipe();
    request.raw.resume();
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(maxBytes);
    if (code?.startsWith('FST_')) throw new AppError(CommonErrorCodes.invalidArguments, `Malformed multipart request: ${(error as Error).message}`);
    throw error;
  }
  if (!path) {
    await discard();
    throw new AppError(CommonErrorCodes.invalidArguments, 'The multipart field "file" with the document is missing.');
  }
  return { path, fields, discard };
};
