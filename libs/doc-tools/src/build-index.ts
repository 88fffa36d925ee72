import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { AppError, type DocIndexBuildInput, type DocIndexBuildOutput } from '@lectern/contracts';
import { chunkByLocator } from '@lectern/chunking';
import { readDocumentFile, resolveInsideRoots } from '@lectern/documents';
import type { z } from 'zod';
import type { DocToolsDeps, ProgressFn } from './deps.js';
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
): Promise<IndexMeta> => {
  const { chunks, headings } = chunkByLocator(markdown);
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
 * Spec 003 tool A: fingerprint the file, answer from `DATA_DIR/cache/{index_id}/` when it holds this index,
 * else convert to Markdown, chunk by locator, compute IDF and write the index.
 */
export const buildIndex = async (
  deps: DocToolsDeps,
  cache: IndexCache,
  input: Input,
  progress: ProgressFn = () => undefined,
  signal?: AbortSignal,
): Promise<Output> => {
  const file = await resolveInsideRoots(input.file_path, deps.roots);
  if (file.kind !== 'file')
    throw new AppError('file_not_found', `Not a file: ${basename(input.file_path)}`, { httpStatus: 404 });
  const filename = basename(file.path);
  const { bytes, sha256 } = await readDocumentFile(file.path, deps.roots, deps.maxDocumentBytes);
  const indexId = indexIdOf(sha256, input.cache_key);
  const cached = await readIndexMeta(deps.cacheDir, indexId);
  if (cached) return toOutput(cached, ['Index loaded from cache']);

  return cache.once(indexId, async () => {
    const again = await readIndexMeta(deps.cacheDir, indexId);
    if (again) return toOutput(again, ['Index loaded from cache']);
    const timeout = AbortSignal.timeout(deps.indexTimeoutMs);
    const bounded = signal ? AbortSignal.any([signal, timeout]) : timeout;
    // MCP progress must increase: conversion is 0-80 of 100 (by page when the converter says), then chunking, done.
    let last = -1;
    const report = async (value: number, message: string) => {
      if (value <= last) return;
      last = value;
      await progress(value, 100, message);
    };
    await report(0, `converting ${filename}`);
    let doc;
    try {
      doc = await deps.markdown.toMarkdown(
        { path: file.path, filename, bytes, sha256 },
        {
          signal: bounded,
          onProgress: (p) => {
            if (p.page !== undefined && p.pages)
              void report(Math.round((80 * p.page) / p.pages), `${p.stage}: page ${p.page}/${p.pages}`);
          },
        },
      );
    } catch (error) {
      if (timeout.aborted && !signal?.aborted) {
        throw new AppError(
          'timeout',
          `Indexing ${filename} took longer than ${Math.round(deps.indexTimeoutMs / 1000)} s.`,
          { httpStatus: 504, cause: error },
        );
      }
      throw error;
    }
    await report(90, 'chunking');
    const meta = await indexMarkdown(deps.cacheDir, doc.markdown, {
      indexId,
      fingerprint: sha256,
      docType: doc.docType,
      pageCount: doc.pageCount,
      notes: doc.notes,
      filename,
      cacheKey: input.cache_key,
    });
    cache.drop(indexId);
    await report(100, 'indexed');
    deps.log.info(
      { index_id: indexId, chunks: meta.chunk_count, headings: meta.headings.length, doc_type: doc.docType },
      'document indexed',
    );
    return toOutput(meta);
  });
};
