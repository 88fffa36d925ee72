// SPDX-License-Identifier: AGPL-3.0-or-later
import { open } from 'node:fs/promises';
import { AppError, CommonErrorCodes, ProjectIdSchema } from '@lectern/contracts';
import { findTextQuads, renderPagePng, PAGE_IMAGE_LIMITS } from '@lectern/conversion';
import { VectorStoreDocumentRegistry, type DocumentStoreDeps } from '@lectern/document-store';
import { resolveInsideRoots } from '@lectern/documents';
import { readFileHandle } from '@lectern/runtime';
import { describeZodError, errorResponse } from '@lectern/transport';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

const PageParams = z.object({
  document_id: z.string().min(1).max(256),
  page: z.coerce.number().int().min(1).max(1_000_000),
});
const PageQuery = z.object({
  /** A text to highlight on the page (a search result's passage, a cited snippet). */
  highlight: z.string().min(1).max(PAGE_IMAGE_LIMITS.maxNeedleChars).optional(),
  dpi: z.coerce.number().int().min(PAGE_IMAGE_LIMITS.minDpi).max(PAGE_IMAGE_LIMITS.maxDpi).optional(),
  project: ProjectIdSchema.optional(),
});
const QuadsQuery = PageQuery.omit({ dpi: true }).extend({ highlight: PageQuery.shape.highlight.unwrap() });

/** `GET …/quads`: where the text is on the page, in PDF points (origin top-left), with the page's size. */
export const PageQuadsResponseSchema = z.object({
  document_id: z.string(),
  page: z.number().int(),
  page_width: z.number(),
  page_height: z.number(),
  quads: z.array(z.array(z.number())),
});

const parse = <S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> => {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success)
    throw new AppError(CommonErrorCodes.invalidArguments, `Invalid ${what}: ${describeZodError(parsed.error)}`, {
      httpStatus: 400,
    });
  return parsed.data;
};

/**
 * The bytes of a registered document's file, read inside the allowed roots again (the registry's path may be stale
 * or swapped since ingest). An upload (`POST /api/documents`) is deleted after its ingest: its original kept in the
 * blob store (`keptFiles`) is read instead; `source_file_missing` when there is neither.
 */
const documentBytes = async (deps: DocumentStoreDeps, documentId: string, project: string): Promise<Uint8Array> => {
  const entry = await new VectorStoreDocumentRegistry(deps.store, project).get(documentId);
  if (!entry) throw new AppError('document_not_found', `Document not found: ${documentId}`, { httpStatus: 404 });
  let path: string;
  try {
    path = (await resolveInsideRoots(entry.file_path, deps.roots)).path;
  } catch (cause) {
    const kept = await deps.keptFiles?.get(project, documentId);
    if (kept) return kept;
    throw new AppError(
      'source_file_missing',
      'The document’s file is no longer on the server, so its pages cannot be drawn.',
      { httpStatus: 404, cause },
    );
  }
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    if (size > deps.maxDocumentBytes)
      throw new AppError('too_large', 'The document is larger than MAX_DOCUMENT_BYTES.', { httpStatus: 413 });
    return await readFileHandle(handle, size);
  } finally {
    await handle.close();
  }
};

/**
 * A registered document's pages for people (issue 29's console): `GET /api/documents/{id}/pages/{page}.png` draws
 * the page (with `highlight` drawn where that text is), and `GET /api/documents/{id}/pages/{page}/quads?highlight=`
 * says where the text is so a page can draw its own boxes. Both through `@lectern/conversion`'s page-image
 * functions (mupdf's text search and renderer): no second copy of rendering here.
 */
export const registerDocumentPagesRoute = (app: FastifyInstance, deps: DocumentStoreDeps): void => {
  const common = {
    400: errorResponse('Invalid document id, page, dpi or highlight'),
    404: errorResponse('document_not_found, page_not_found, or source_file_missing (the file is gone)'),
    415: errorResponse('not_a_pdf: page images exist for PDF documents only'),
  };
  app.get(
    '/api/documents/:document_id/pages/:page(^\\d{1,6}).png',
    {
      schema: {
        summary: 'A page of a registered document as a PNG, optionally with a text highlighted',
        produces: ['image/png'],
        response: { 200: { description: 'The page (PNG)', type: 'string', format: 'binary' }, ...common },
      },
    },
    async (request, reply) => {
      const { document_id, page } = parse(PageParams, request.params, 'path');
      const query = parse(PageQuery, request.query, 'query');
      const bytes = await documentBytes(deps, document_id, query.project ?? deps.defaultProject);
      const highlights = query.highlight ? (await findTextQuads(bytes, page, query.highlight)).quads : [];
      const png = await renderPagePng(bytes, { page, highlights, ...(query.dpi ? { dpi: query.dpi } : {}) });
      return reply.type('image/png').header('cache-control', 'private, max-age=60').send(png);
    },
  );
  app.get(
    '/api/documents/:document_id/pages/:page(^\\d{1,6})/quads',
    {
      schema: {
        summary: 'Where a text is on a page of a registered document (PDF points, origin top-left)',
        response: { 200: { description: 'The quads and the page size', type: 'object' }, ...common },
      },
    },
    async (request) => {
      const { document_id, page } = parse(PageParams, request.params, 'path');
      const query = parse(QuadsQuery, request.query, 'query');
      const bytes = await documentBytes(deps, document_id, query.project ?? deps.defaultProject);
      const found = await findTextQuads(bytes, page, query.highlight);
      return PageQuadsResponseSchema.parse({ document_id, page, ...found });
    },
  );
};
