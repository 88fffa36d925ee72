// SPDX-License-Identifier: AGPL-3.0-or-later
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  AppError,
  CommonErrorCodes,
  IngestUploadFieldsSchema,
  IngestUploadResultSchema,
  type IngestUploadResult,
} from '@lectern/contracts';
import { ingestDocument, type DocumentStoreDeps } from '@lectern/document-store';
import { safeFilename } from '@lectern/conversion-job';
import {
  describeZodError,
  errorResponse,
  jsonSchemaOf,
  multipartBodyOf,
  receiveUpload,
  requestSignal,
} from '@lectern/transport';
import type { FastifyInstance } from 'fastify';

const isPdf = async (path: string): Promise<boolean> => {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(5);
    await handle.read(head, 0, 5, 0);
    return head.toString('latin1') === '%PDF-';
  } finally {
    await handle.close();
  }
};

/**
 * Keep the original for the page route. A refusal (larger than BLOB_MAX_BYTES, BLOB_QUOTA_BYTES reached) or a
 * failure is logged and the ingest still succeeds: the document is searchable, only its pages cannot be drawn.
 */
const keepOriginal = async (deps: DocumentStoreDeps, project: string, documentId: string, path: string) => {
  if (!deps.keptFiles) return;
  try {
    await deps.keptFiles.keep(project, documentId, path);
  } catch (err) {
    deps.log.warn({ err, document_id: documentId }, 'the uploaded original was not kept: its pages cannot be drawn');
  }
};

/** Where uploads wait for their ingest (deleted after it): inside DATA_DIR, never a client-chosen path. */
export const uploadsDir = (dataDir: string): string => resolve(dataDir, 'uploads', 'api');

/**
 * `POST /api/documents`: ingest by upload, for clients that cannot put a file on the server's disk. The same use
 * case and result as the `ingest_document` tool, with the upload's directory added to the allowed roots for this
 * call only; the upload is deleted afterwards, whatever the outcome. A PDF that was ingested is first kept as the
 * document's original (`keptFiles`, the blob store) so that its pages can be drawn; it is deleted with the document.
 */
export const registerUploadDocumentRoute = (
  app: FastifyInstance,
  deps: DocumentStoreDeps & { dataDir: string },
): void => {
  const dir = uploadsDir(deps.dataDir);
  app.post(
    '/api/documents',
    {
      schema: {
        summary: 'Ingest a document by upload (the ingest_document tool, for a file the client sends)',
        consumes: ['multipart/form-data'],
        body: multipartBodyOf(IngestUploadFieldsSchema),
        response: {
          200: { description: 'The ingest_document result', ...jsonSchemaOf(IngestUploadResultSchema) },
          400: errorResponse('Invalid fields, or the document could not be ingested (the error code says why)'),
          413: errorResponse('The document is larger than MAX_DOCUMENT_BYTES; nothing was stored'),
          415: errorResponse('Not multipart/form-data, or an unsupported file type'),
          507: errorResponse(
            'The server ran out of disk space (insufficient_storage); nothing of the document was kept',
          ),
        },
      },
    },
    async (request, reply): Promise<IngestUploadResult> => {
      // Aborted when the client hangs up, the service shuts down, or INGEST_TIMEOUT_S has passed (the route's
      // deadline, as the ingest_document tool's): an upload whose client left is not ingested.
      const signal = requestSignal(request, reply, { timeoutMs: deps.ingestTimeoutMs });
      const upload = await receiveUpload(request, {
        uploadsDir: dir,
        maxBytes: deps.maxDocumentBytes,
        safeName: safeFilename,
      });
      try {
        const fields = IngestUploadFieldsSchema.safeParse(upload.fields);
        if (!fields.success)
          throw new AppError(CommonErrorCodes.invalidArguments, `Invalid fields: ${describeZodError(fields.error)}`);
        signal.throwIfAborted();
        const result = await ingestDocument(
          { ...deps, roots: [...deps.roots, dir] },
          { ...fields.data, file_path: upload.path },
          { signal },
        );
        if (result.status === 'success' && result.document_id && (await isPdf(upload.path)))
          await keepOriginal(deps, fields.data.project ?? deps.defaultProject, result.document_id, upload.path);
        return IngestUploadResultSchema.parse(result);
      } finally {
        await upload.discard();
      }
    },
  );
};
