// SPDX-License-Identifier: AGPL-3.0-or-later
import { resolve } from 'node:path';
import type { IngestDocumentInput as IngestDocumentInputSchema, IngestDocumentOutput } from '@lectern/contracts';
import { chunkPages, countWords, markdownPages, sectionAt, sectionPaths } from '@lectern/chunking';
import {
  assertSupportedFile,
  buildChunkRecords,
  classifyDocument,
  documentId,
  formatIngestedAt,
} from '@lectern/documents';
import {
  containsDrawings,
  conversionJob,
  imageBasedRule,
  prepareDocument,
  readSource,
  requireText,
  runBounded,
  storeChunks,
  totalChars,
  type IngestContext,
} from '@lectern/ingestion';
import { AppError } from '@lectern/contracts';
import type { z } from 'zod';
import type { DocumentStoreDeps } from './deps.js';
import { VectorStoreDocumentRegistry, type RegistryEntry } from './registry.js';
import { ensureProjectCollection } from './project-collection.js';

export type IngestDocumentInput = z.input<typeof IngestDocumentInputSchema>;
export type IngestDocumentResult = z.infer<typeof IngestDocumentOutput>;

/**
 * Spec 000 FR-001 over the shared pipeline: validate, hash, idempotency check (under the document's lock), the
 * conversion job with OCR fallback, the image-based rule (`SCANNED_PDF_POLICY`), chunking (800/200 over the
 * converter's Markdown, page tracking), batch embedding, chunk upsert, and the registry entry written last.
 */
export const ingestDocument = async (
  deps: DocumentStoreDeps,
  input: IngestDocumentInput,
  ctx: IngestContext = {},
): Promise<IngestDocumentResult> => {
  const project = input.project ?? deps.defaultProject;
  const source = await readSource({
    path: input.file_path,
    roots: deps.roots,
    maxBytes: deps.maxDocumentBytes,
    accept: assertSupportedFile,
  });
  const docId = documentId(input.application_ref, source.sha256);
  const registry = new VectorStoreDocumentRegistry(deps.store, project);

  // Same file + same application in flight here: one waits for the other, then sees it registered.
  return deps.locks.run(`${project}:${docId}`, async () => {
    if (await registry.findByHash(input.application_ref, source.sha256)) {
      return {
        status: 'already_ingested',
        document_id: docId,
        message: 'Document has already been ingested with the same content',
      };
    }
    return runBounded(ctx, { ms: deps.ingestTimeoutMs, setting: 'INGEST_TIMEOUT_S' }, async (bound) => {
      const prepared = await prepareDocument(
        source,
        {
          // One conversion job decides per page: text layer first, OCR only for pages without one — and not for an
          // image-based document with a text layer elsewhere (a drawing).
          convert: conversionJob(deps.conversion, {
            enableOcr: deps.enableOcr,
            imageRatioThreshold: deps.imageRatioThreshold,
          }),
          rule: (converted, { filename }) => {
            const skipped = imageBasedRule(deps.scannedPdfPolicy ?? 'ocr', deps.enableOcr)(converted);
            if (!skipped) requireText(converted, filename);
            return skipped;
          },
          // Spec 000's 800/200 splitter over the converter's Markdown (cut back into pages along its page map): the
          // text the converter structured and cleaned, whose heading offsets give each chunk its section.
          chunk: (converted) => {
            const fromMarkdown = converted.markdown.trim() !== '';
            const { pages, toMarkdownOffset } = markdownPages(converted);
            const chunks = chunkPages(
              fromMarkdown ? pages : converted.pages.map((p) => ({ page_number: p.page_number, text: p.text })),
            );
            const paths = sectionPaths(converted.headings);
            return chunks.map((c) => ({
              ...c,
              section: fromMarkdown
                ? sectionAt(converted.headings, paths, toMarkdownOffset(c.start_offset))
                : { section_heading: '', section_path: [] },
            }));
          },
        },
        bound,
      );
      if (prepared.skipped) return prepared.skipped;
      const { converted, chunks } = prepared;
      if (chunks.length === 0) throw new AppError('no_chunks', `Chunking produced no chunks for ${source.filename}`);

      const sample = converted.pages
        .map((p) => p.text)
        .join('\n')
        .slice(0, 5000);
      const documentType = input.document_type ?? classifyDocument(source.filename, sample).document_type;
      const collection = await ensureProjectCollection(deps, project);
      const records = buildChunkRecords(
        {
          document_id: docId,
          application_ref: input.application_ref,
          source_file: source.filename,
          document_type: documentType,
          extraction_method: converted.method,
        },
        chunks,
      );
      const drawings = containsDrawings(converted);
      const entry: RegistryEntry = {
        document_id: docId,
        // The path as the client gave it (normalised), not the resolved real path behind symlinks.
        file_path: resolve(input.file_path),
        file_hash: source.sha256,
        application_ref: input.application_ref,
        document_type: documentType,
        chunk_count: chunks.length,
        ingested_at: formatIngestedAt(deps.now?.() ?? new Date()),
        extraction_method: converted.method,
        contains_drawings: drawings,
        source_file: source.filename,
        total_chars: totalChars(converted),
        total_words: converted.pages.reduce((n, p) => n + countWords(p.text), 0),
        page_count: converted.page_count,
      };
      await storeChunks(
        {
          store: deps.store,
          collection: collection.name,
          fingerprint: collection.fingerprint,
          embedder: await deps.embedders.for(collection.fingerprint),
          chunks: records.map((r, i) => {
            const c = chunks[i];
            return {
              id: r.id,
              text: r.text,
              // Offsets make get_document_text's overlap removal exact; search output drops them.
              payload: {
                ...r.metadata,
                start_offset: r.start_offset,
                end_offset: r.end_offset,
                // Spec 004's fields, so find_chunks/query_hybrid cite these chunks too.
                page_start: c?.pages[0] ?? c?.first_page,
                page_end: c?.pages[c.pages.length - 1] ?? c?.first_page,
                ...c?.section,
                // The document's running headers, which the converter leaves out of the text: a lexical title signal.
                ...(converted.running_headers?.length ? { running_header: converted.running_headers.join(' / ') } : {}),
              },
            };
          }),
          record: () => registry.put(entry), // last: the registry believes only in fully stored chunks
          reportStoring: true,
          log: deps.log,
        },
        bound,
      );
      deps.log.info(
        { document_id: docId, chunks: chunks.length, method: converted.method, project },
        'document ingested',
      );
      return {
        status: 'success',
        document_id: docId,
        chunks_created: chunks.length,
        extraction_method: converted.method,
        contains_drawings: drawings,
        total_chars: entry.total_chars,
        total_words: entry.total_words,
      };
    });
  });
};
