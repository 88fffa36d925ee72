import { basename, resolve } from 'node:path';
import {
  AppError,
  type ConversionResult,
  type IngestDocumentInput as IngestDocumentInputSchema,
  type IngestDocumentOutput,
} from '@lectern/contracts';
import { chunkPages, countWords, markdownPages, sectionAt, sectionPaths } from '@lectern/chunking';
import {
  assertSupportedFile,
  buildChunkRecords,
  classifyDocument,
  documentId,
  formatIngestedAt,
  readDocumentFile,
  resolveInsideRoots,
} from '@lectern/documents';
import { jobOptions } from '@lectern/conversion-job';
import type { z } from 'zod';
import type { DocumentStoreDeps, ProgressFn } from './deps.js';
import { VectorStoreDocumentRegistry, type RegistryEntry } from './registry.js';
import { ensureProjectCollection } from './project-collection.js';

export type IngestDocumentInput = z.input<typeof IngestDocumentInputSchema>;
export type IngestDocumentResult = z.infer<typeof IngestDocumentOutput>;

const withTimeout = async <T>(ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> => {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new AppError('timeout', `Ingestion did not finish within ${Math.round(ms / 1000)} s (INGEST_TIMEOUT_S)`));
    }, ms);
  });
  try {
    return await Promise.race([work(controller.signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
};

/** Every page lacked a text layer (the conversion OCR'd it, or left it empty when OCR was off or skipped). */
const isPureScan = (result: ConversionResult): boolean =>
  result.pages.every((p) => p.method === 'ocr' || p.char_count < 10);

/**
 * Spec 000 skips image-based documents (average image ratio > threshold) to avoid OCR'ing drawings. A scanned
 * *text* document (a letter, a report) is image-based too, but users expect it searchable. So a document whose
 * pages have no text layer at all is OCR'd, and kept only if the OCR reads as prose: at least 30 real words a
 * page and a mean confidence of 60 or more (maps and drawings yield a few labels at low confidence).
 */
const readsAsScannedText = (result: ConversionResult): boolean => {
  const ocrPages = result.pages.filter((p) => p.method === 'ocr');
  if (ocrPages.length === 0) return false;
  const words = ocrPages.reduce((n, p) => n + p.text.split(/\s+/).filter((w) => /[A-Za-z]{3,}/.test(w)).length, 0);
  const confidence = ocrPages.reduce((n, p) => n + (p.ocr_confidence ?? 0), 0) / ocrPages.length;
  return words / ocrPages.length >= 30 && confidence >= 60;
};

/**
 * Spec 000 FR-001: validate, hash, idempotency check, image-based skip, extraction with OCR fallback,
 * chunking (800/200, page tracking), batch embedding, chunk upsert, and the registry entry written last.
 */
export const ingestDocument = async (
  deps: DocumentStoreDeps,
  input: IngestDocumentInput,
  progress: ProgressFn = () => undefined,
): Promise<IngestDocumentResult> => {
  const project = input.project ?? deps.defaultProject;
  const file = await resolveInsideRoots(input.file_path, deps.roots);
  if (file.kind !== 'file') throw new AppError('file_not_found', `Not a file: ${input.file_path}`);
  assertSupportedFile(file.path);
  const { bytes, sha256: hash } = await readDocumentFile(file.path, deps.roots, deps.maxDocumentBytes);
  const docId = documentId(input.application_ref, hash);
  const registry = new VectorStoreDocumentRegistry(deps.store, project);

  // Same file + same application in flight here: one waits for the other, then sees it registered.
  return deps.locks.run(`${project}:${docId}`, async () => {
    const existing = await registry.findByHash(input.application_ref, hash);
    if (existing) {
      return {
        status: 'already_ingested',
        document_id: docId,
        message: 'Document has already been ingested with the same content',
      };
    }
    return withTimeout(deps.ingestTimeoutMs, async (signal) => {
      await progress(0, undefined, 'converting');
      // One conversion job decides per page: text layer first, OCR only for pages without one — and not for
      // an image-based document with a text layer elsewhere (a drawing: spec 000 FR-001 step 3 skips it
      // before any OCR is spent on it). A pure scan is OCR'd and kept only if it reads as prose.
      const converted = await deps.conversion.convert(
        { kind: 'read', path: file.path, filename: basename(file.path), bytes, sha256: hash },
        // Settings equal to the defaults are left to the converting worker: the job id then matches the
        // converter's own `POST /tasks` of the same file, which therefore converts once.
        jobOptions({ enableOcr: deps.enableOcr, imageRatioThreshold: deps.imageRatioThreshold }),
        {
          signal,
          onProgress: (p) =>
            void progress(p.page ?? 0, p.pages, `${p.stage} page ${p.page ?? '?'} of ${p.pages ?? '?'}`),
        },
      );
      const skipped = {
        status: 'skipped' as const,
        reason: 'image_based' as const,
        image_ratio: Number(converted.average_image_ratio.toFixed(3)),
        total_pages: converted.page_count,
      };
      if (
        converted.image_based &&
        (!isPureScan(converted) || !deps.enableOcr || converted.is_rendering || !readsAsScannedText(converted))
      ) {
        return skipped;
      }
      const totalChars = converted.pages.reduce((n, p) => n + p.text.trim().length, 0);
      if (totalChars === 0) throw new AppError('no_content', `No text could be extracted from ${basename(file.path)}`);

      // Spec 000's 800/200 splitter over the converter's Markdown (cut back into pages along its page map): the
      // text the converter structured and cleaned, whose heading offsets give each chunk its section.
      const fromMarkdown = converted.markdown.trim() !== '';
      const { pages: mdPages, toMarkdownOffset } = markdownPages(converted);
      const chunks = chunkPages(
        fromMarkdown ? mdPages : converted.pages.map((p) => ({ page_number: p.page_number, text: p.text })),
      );
      const paths = sectionPaths(converted.headings);
      if (chunks.length === 0)
        throw new AppError('no_chunks', `Chunking produced no chunks for ${basename(file.path)}`);

      const sample = converted.pages
        .map((p) => p.text)
        .join('\n')
        .slice(0, 5000);
      const documentType = input.document_type ?? classifyDocument(basename(file.path), sample).document_type;
      const collection = await ensureProjectCollection(deps, project);
      const embedder = await deps.embedders.for(collection.fingerprint);

      const vectors = await embedder.embedBatch(
        chunks.map((c) => c.text),
        { onProgress: (done, total) => void progress(done, total, `embedded ${done} of ${total} chunks`) },
      );
      if (signal.aborted) throw new AppError('timeout', 'Ingestion timed out');
      const records = buildChunkRecords(
        {
          document_id: docId,
          application_ref: input.application_ref,
          source_file: basename(file.path),
          document_type: documentType,
          extraction_method: converted.method,
        },
        chunks,
      );
      await progress(chunks.length, chunks.length, 'storing chunks');
      await deps.store.upsert(
        collection.name,
        records.map((r, i) => ({
          id: r.id,
          vector: vectors[i] as Float32Array,
          text: r.text,
          // Offsets make get_document_text's overlap removal exact; search output drops them.
          payload: {
            ...r.metadata,
            start_offset: r.start_offset,
            end_offset: r.end_offset,
            // Spec 004's fields, so find_chunks/query_hybrid cite these chunks too.
            page_start: chunks[i]?.pages[0] ?? chunks[i]?.first_page,
            page_end: chunks[i]?.pages[chunks[i].pages.length - 1] ?? chunks[i]?.first_page,
            ...(fromMarkdown
              ? sectionAt(converted.headings, paths, toMarkdownOffset(r.start_offset))
              : { section_heading: '', section_path: [] }),
          },
        })),
        { fingerprint: collection.fingerprint },
      );
      const entry: RegistryEntry = {
        document_id: docId,
        // The path as the client gave it (normalised), not the resolved real path behind symlinks.
        file_path: resolve(input.file_path),
        file_hash: hash,
        application_ref: input.application_ref,
        document_type: documentType,
        chunk_count: chunks.length,
        ingested_at: formatIngestedAt(deps.now?.() ?? new Date()),
        extraction_method: converted.method,
        contains_drawings: converted.contains_drawings,
        source_file: basename(file.path),
        total_chars: totalChars,
        total_words: converted.pages.reduce((n, p) => n + countWords(p.text), 0),
        page_count: converted.page_count,
      };
      await registry.put(entry); // last: the registry believes only in fully stored chunks
      deps.log.info(
        { document_id: docId, chunks: chunks.length, method: converted.method, project },
        'document ingested',
      );
      return {
        status: 'success',
        document_id: docId,
        chunks_created: chunks.length,
        extraction_method: converted.method,
        contains_drawings: converted.contains_drawings,
        total_chars: totalChars,
        total_words: entry.total_words,
      };
    });
  });
};
