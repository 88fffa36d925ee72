// SPDX-License-Identifier: AGPL-3.0-or-later
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { AppError, type DocIndexBuildInput, type DocIndexBuildOutput } from '@lectern/contracts';
import { chunkByLocator } from '@lectern/chunking';
import { asStorageError, prepareDocument, readSource, runBounded, type IngestContext } from '@lectern/ingestion';
import type { z } from 'zod';
import type { DocToolsDeps } from './deps.js';
import { INDEX_VERSION, readIndexMeta, writeIndex, type IndexMeta } from './doc-index.js';
import type { IndexCache } from './index-cache.js';

type Input = z.infer<typeof DocIndexBuildInput>;
type Output = z.input<typeof DocIndexBuildOutput>;

/** The index of a file: its fingerprint, or (with a cache_key) the SHA-256 of fingerprint and key. */
export const indexIdOf = (fingerprint: string, cacheKey: string | null): string =>
  cacheKey === null ? fingerprint : createHash('sha256').update(`${fingerprint}\n${cacheKey}`).digest('hex');

const toOutput = (meta: IndexMeta, extraNotes: string[] = []): Output => ({
  index_id: meta.index_id,
  doc_fingerprint: meta.doc_fingerprint,
  doc_type: meta.doc_type,
  page_count: meta.page_count,
  chunk_count: meta.chunk_count,
  toc: meta.headings.map((h) => ({ locator: h.locator, title: h.title, level: h.level })),
  notes: [...meta.notes, ...extraNotes],
});

export interface MarkdownIndexFacts {
  indexId: string;
  fingerprint: string;
  docType: IndexMeta['doc_type'];
  pageCount: number | null;
  notes: string[];
  filename: string;
  cacheKey: string | null;
}

/** Chunk Markdown by locator (spec 003 section 6), compute IDF, write the index under `cacheDir/{indexId}/`. */
export const indexMarkdown = async (
  cacheDir: string,
  markdown: string,
  facts: MarkdownIndexFacts,
): Promise<IndexMeta> => writeChunkedIndex(cacheDir, chunkByLocator(markdown), facts);

/** The index of chunks already cut by locator: its meta and files (a temporary directory renamed into place). */
const writeChunkedIndex = async (
  cacheDir: string,
  { chunks, headings }: ReturnType<typeof chunkByLocator>,
  facts: MarkdownIndexFacts,
): Promise<IndexMeta> => {
  const meta: IndexMeta = {
    version: INDEX_VERSION,
    index_id: facts.indexId,
    doc_fingerprint: facts.fingerprint,
    doc_type: facts.docType,
    page_count: facts.pageCount,
    chunk_count: chunks.length,
    headings: headings.map((h) => ({ locator: h.locator, title: h.title, level: h.level, headings: h.headings })),
    notes: [...facts.notes, ...(chunks.length === 0 ? ['The document has no text to index'] : [])],
    filename: facts.filename,
    cache_key: facts.cacheKey,
    built_at: new Date().toISOString(),
  };
  await writeIndex(cacheDir, meta, chunks);
  return meta;
};

/**
 * Spec 003 tool A over the shared pipeline: fingerprint the file (read once inside the roots), answer from
 * `DATA_DIR/cache/{index_id}/` when it holds this index, else `prepareDocument` (Markdown from the service's
 * source, chunked by locator) bounded by DOC_INDEX_TIMEOUT_S and the caller's signal, and write the index.
 */
export const buildIndex = async (
  deps: DocToolsDeps,
  cache: IndexCache,
  input: Input,
  ctx: IngestContext = {},
): Promise<Output> => {
  const source = await readSource({
    path: input.file_path,
    roots: deps.roots,
    maxBytes: deps.maxDocumentBytes,
    notAFile: (path) => new AppError('file_not_found', `Not a file: ${basename(path)}`, { httpStatus: 404 }),
  });
  const indexId = indexIdOf(source.sha256, input.cache_key);
  const cached = await readIndexMeta(deps.cacheDir, indexId);
  if (cached) return toOutput(cached, ['Index loaded from cache']);

  return cache.once(indexId, async () => {
    const again = await readIndexMeta(deps.cacheDir, indexId);
    if (again) return toOutput(again, ['Index loaded from cache']);
    const deadline = { ms: deps.indexTimeoutMs, setting: 'DOC_INDEX_TIMEOUT_S', what: `Indexing ${source.filename}` };
    return runBounded(ctx, deadline, async (bound) => {
      // MCP progress must increase: conversion is 0-80 of 100 (by page when the converter says), then chunking, done.
      let last = -1;
      const report = async (value: number, message: string) => {
        if (value <= last) return;
        last = value;
        await bound.progress(value, 100, message);
      };
      await report(0, `converting ${source.filename}`);
      const { converted: doc, chunks } = await prepareDocument(
        source,
        {
          convert: (file, call) => deps.markdown.toMarkdown(file, call),
          chunk: (md) => [chunkByLocator(md.markdown)],
          onConversionProgress: (p) => {
            if (p.page !== undefined && p.pages)
              void report(Math.round((80 * p.page) / p.pages), `${p.stage}: page ${p.page}/${p.pages}`);
          },
        },
        { ...bound, progress: () => undefined },
      );
      await report(90, 'chunking');
      const meta = await writeChunkedIndex(deps.cacheDir, chunks[0] ?? chunkByLocator(doc.markdown), {
        indexId,
        fingerprint: source.sha256,
        docType: doc.docType,
        pageCount: doc.pageCount,
        notes: doc.notes,
        filename: source.filename,
        cacheKey: input.cache_key,
      }).catch((error: unknown) => {
        throw asStorageError(error);
      });
      cache.drop(indexId);
      await report(100, 'indexed');
      deps.log.info(
        { index_id: indexId, chunks: meta.chunk_count, headings: meta.headings.length, doc_type: doc.docType },
        'document indexed',
      );
      return toOutput(meta);
    });
  });
};
