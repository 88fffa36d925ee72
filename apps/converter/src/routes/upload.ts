// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  AppError,
  CommonErrorCodes,
  ConversionErrorCode,
  ConversionJobOptionsSchema,
  type ConversionJobOptions,
} from '@lectern/contracts';
import { SUPPORTED_EXTENSIONS } from '@lectern/conversion';
import {
  conversionLimitViolations,
  conversionStorageBytes,
  discardReceivedFile,
  insufficientStorage,
  receiveConversionFile,
  type JobOptionLimits,
  type ReceivedFile,
} from '@lectern/conversion-job';
import { readMultipartUpload } from '@lectern/transport';
import type { FastifyRequest } from 'fastify';
import { extname } from 'node:path';
import { z } from 'zod';

export interface ReceivedDocument {
  /** Private to this request: the route promotes it for a job, or converts and discards it. */
  received: ReceivedFile;
  options: ConversionJobOptions;
}

export interface UploadLimits {
  dataDir: string;
  maxBytes: number;
  defaults: Partial<JobOptionLimits>;
  /** Disk quota of DATA_DIR/uploads + DATA_DIR/conversions: an upload that does not fit is `insufficient_storage` (507). */
  quotaBytes?: number;
}

const invalid = (message: string, httpStatus = 400) =>
  new AppError(CommonErrorCodes.invalidArguments, message, { httpStatus });

const parseOptions = (raw: string, limits: Partial<JobOptionLimits>): ConversionJobOptions => {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw invalid('The "options" field must be a JSON object.');
  }
  const parsed = ConversionJobOptionsSchema.strict().safeParse(json);
  if (!parsed.success) throw invalid(`Invalid "options": ${z.prettifyError(parsed.error)}`);
  // Options may only lower the operator's limits: asking for more is refused, naming the limit.
  const above = conversionLimitViolations(parsed.data, limits);
  if (above.length > 0)
    throw invalid(`Invalid "options": ${above.join('; ')}; options may only lower this server's limits.`);
  return parsed.data;
};

/**
 * Read a multipart request (`readMultipartUpload` of libs/transport): the document in field `file` (streamed into DATA_DIR/uploads/.incoming, hashed on
 * the way, at most `maxBytes` and within the disk quota), optional `options` (JSON overrides, which may lower
 * the operator's limits in `defaults` but not raise them). An unsupported extension is refused before anything
 * is stored; a refused request leaves nothing behind; the content itself is checked by the conversion.
 */
export const receiveDocument = async (request: FastifyRequest, limits: UploadLimits): Promise<ReceivedDocument> => {
  let options: ConversionJobOptions = {};
  const { file } = await readMultipartUpload(request, {
    field: (name, value) => {
      if (name === 'options') options = parseOptions(value, limits.defaults);
    },
    file: async (part) => {
      const extension = extname(part.filename).toLowerCase();
      if (!SUPPORTED_EXTENSIONS.includes(extension)) {
        throw new AppError(
          ConversionErrorCode.unsupported_file_type,
          `Unsupported file format: ${extension || '(no extension)'}. Supported: ${SUPPORTED_EXTENSIONS.join(' ')}`,
          { httpStatus: 415 },
        );
      }
      const roomBytes =
        limits.quotaBytes === undefined
          ? undefined
          : limits.quotaBytes - (await conversionStorageBytes(limits.dataDir));
      if (roomBytes !== undefined && roomBytes <= 0) throw insufficientStorage();
      return receiveConversionFile(limits.dataDir, part.file, part.filename, {
        maxBytes: limits.maxBytes,
        ...(roomBytes !== undefined ? { roomBytes } : {}),
      });
    },
    discard: discardReceivedFile,
    tooLarge: () =>
      new AppError(ConversionErrorCode.too_large, `The document is larger than ${limits.maxBytes} bytes.`, {
        httpStatus: 413,
      }),
  });
  return { received: file, options };
};

/** `Accept: text/markdown` asks for the Markdown rendering instead of the JSON result. */
export const wantsMarkdown = (request: FastifyRequest): boolean =>
  /\btext\/markdown\b/i.test(request.headers.accept ?? '');
