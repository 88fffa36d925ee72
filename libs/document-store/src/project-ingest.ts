// SPDX-License-Identifier: AGPL-3.0-or-later
import { createHash } from 'node:crypto';
import { basename, relative } from 'node:path';
import type { CitationMetaSchema, ConversionResult } from '@lectern/contracts';
import type { z } from 'zod';
import { applyOutline, chunkMarkdown, projectChunkId, type MarkdownChunk, type OutlineEntry } from '@lectern/chunking';
import { readPdfOutline } from '@lectern/conversion';
import {
  conversionJob,
  prepareDocument,
  readSource,
  runBounded,
  storeChunks,
  type IngestContext,
} from '@lectern/ingestion';
import type { Embedder } from '@lectern/embedding';
import type { StoredPoint } from '@lectern/vector-store';
import type { DocumentStoreDeps } from './deps.js';
import { matchCitation, type CslItem } from './citations.js';
import { DEFAULT_MAX_RESULT_CHARS } from './project-chunks.js';
import { assertSameModel, type ResolvedProject } from './projects.js';

type CitationMeta = z.infer<typeof CitationMetaSchema>;

/** Payload mark of chunks written by spec 004's ingest (no spec 000 registry entry manages them). */
export const PROJECT_INGEST_ORIGIN = 'project_ingest';

/** The stable document id of spec 004 (FR-003's doc id): the file's content, so a renamed file is the same document. */
export const projectDocumentId = (sha256: string): string => `doc_${sha256.slice(0, 24)}`;

export interface ProjectIngestContext {
  resolved: ResolvedProject;
  /** The embedder this run writes with; compared with the project's model before anything is embedded (FR-005). */
  embedder: Embedder;
  /** The directory given to the command: files must be inside it; paths are recorded relative to it. */
  root: string;
  references: readonly CslItem[] | null;
  titleThreshold: number;
  /**
   * The citation of this document, already known (a `rebuild --policy` re-chunking a stored document keeps the one
   * it was ingested with): no matching against `references`.
   */
  citation?: CitationMeta | null;
}

export interface DocumentOutcome {
  doc_id: string;
  /** The file, relative to the ingest root. */
  file: string;
  chunks: number;
  /** Chunks embedded and written (new or changed). */
  written: number;
  /**
   * Stale chunks removed: this document's that its earlier chunking no longer produces, and every chunk of an earlier
   * version of the same source file (another content hash, so another doc id) that this version replaced.
   */
  removed: number;
  /** Doc ids of earlier versions of this source file whose chunks this run replaced (FR-019, SC-008). */
  replaced: string[];
  page_count: number;
  citekey: string | null;
  /** How the citation was matched, or the hint when it was not (references given). */
  citation: { by: 'doi' | 'title'; score: number } | { unmatched: string } | null;
  duration_ms: number;
}

const payloadFor = (
  project: string,
  docId: string,
  file: string,
  sourcePath: string,
  c: MarkdownChunk,
  citation: CitationMeta | null,
  runningHeaders: readonly string[] | undefined,
) => ({
  document_id: docId,
  project,
  source_file: basename(file),
  // Where the document came from (absolute; `rebuild --policy` re-chunks from it). Redacted by inspect, never returned by search.
  source_path: sourcePath,
  chunk_index: c.chunk_index,
  page_start: c.page_start,
  page_end: c.page_end,
  section_heading: c.section_heading,
  section_path: c.section_path,
  tags: citation?.tags ?? [],
  token_count: c.token_count,
  // Whether the embedded text had the section path first (heading context), so a re-embedding does the same.
  heading_context: c.embed_text !== c.text,
  origin: PROJECT_INGEST_ORIGIN,
  ...(citation ? { citation } : {}),
  // The converter's running headers (left out of the text): the store's keyword side credits a query naming them.
  ...(runningHeaders?.length ? { running_header: runningHeaders.join(' / ') } : {}),
});

const fingerprintOf = (payload: Record<string, unknown>, text: string): string =>
  createHash('sha256')
    .update(JSON.stringify({ ...payload, text }))
    .digest('hex');

/** Every stored chunk id of a document with a hash of its text and payload. */
const storedChunks = async (
  deps: DocumentStoreDeps,
  collection: string,
  docId: string,
): Promise<Map<string, string>> => {
  const out = new Map<string, string>();
  let cursor: string | null = null;
  do {
    const page: { points: StoredPoint[]; next: string | null } = await deps.store.scroll(collection, {
      filter: { document_id: docId },
      limit: 1000,
      cursor,
    });
    for (const p of page.points) out.set(p.id, fingerprintOf(p.payload, p.text));
    cursor = page.next;
  } while (cursor);
  return out;
};

/**
 * Chunk ids of earlier versions of the file at `sourcePath`: its chunks under another doc id (the doc id is the
 * content hash, so a changed file is a new document). Spec 004 FR-019/SC-008: re-ingesting a changed file replaces
 * them rather than leaving both versions searchable. Only chunks spec 004's ingest wrote (`origin`) are touched.
 */
const earlierVersions = async (
  deps: DocumentStoreDeps,
  collection: string,
  sourcePath: string,
  docId: string,
): Promise<{ ids: string[]; docIds: string[] }> => {
  const ids: string[] = [];
  const docIds = new Set<string>();
  let cursor: string | null = null;
  do {
    const page: { points: StoredPoint[]; next: string | null } = await deps.store.scroll(collection, {
      filter: { source_path: sourcePath, origin: PROJECT_INGEST_ORIGIN },
      limit: 1000,
      cursor,
    });
    for (const p of page.points) {
      const other = p.payload['document_id'];
      if (typeof other === 'string' && other !== docId) {
        ids.push(p.id);
        docIds.add(other);
      }
    }
    cursor = page.next;
  } while (cursor);
  return { ids, docIds: [...docIds].sort() };
};

/**
 * Spec 004 ingest of one file into a project (FR-001-FR-007, FR-014, FR-019): converted once, chunked by
 * heading over the converter's Markdown within the model's token limit (its own tokenizer), enriched with the
 * matching CSL-JSON entry, and written idempotently: deterministic chunk ids; only new or changed chunks are
 * embedded and written, and chunks of an earlier chunking of this document that no longer exist are removed.
 * A changed file (same path, another content, so another doc id) replaces its earlier version: the new chunks are
 * written first, then the earlier version's removed, so a reader sees the old or the new (both only in the moment
 * between the two writes, never neither) and a failure before the end leaves the old ones as they were.
 * A document yielding no chunk is processed with 0 chunks.
 */
export const ingestProjectFile = async (
  deps: DocumentStoreDeps,
  ctx: ProjectIngestContext,
  path: string,
  call: IngestContext = {},
): Promise<DocumentOutcome> => {
  const started = Date.now();
  const { record, info } = ctx.resolved;
  assertSameModel(record, ctx.embedder.fingerprint);
  const source = await readSource({ path, roots: [ctx.root], maxBytes: deps.maxDocumentBytes });
  const docId = projectDocumentId(source.sha256);
  const rel = relative(ctx.root, source.path) || source.filename;
  // No deadline of its own (a long book may OCR for an hour on the command line): the caller's signal alone.
  return deps.locks.run(`${record.project}:${docId}`, () =>
    runBounded(call, undefined, async (bound) => {
      const maxTokens = Math.min(record.chunking.max_tokens ?? ctx.embedder.maxTokens, ctx.embedder.maxTokens);
      const { converted, chunks: headed } = await prepareDocument(
        source,
        {
          // Spec 004 ingests sources to cite (papers, books, manuals): an image-based one is a scan to read, never a
          // drawing to skip, so its text-less pages are OCR'd too (spec 000's drawing rule does not apply here).
          convert: conversionJob(deps.conversion, {
            enableOcr: deps.enableOcr,
            imageRatioThreshold: deps.imageRatioThreshold,
            ocrImageBased: deps.enableOcr,
          }),
          chunk: (result) =>
            chunkMarkdown(result, {
              countTokens: (t) => ctx.embedder.countTokens(t),
              maxTokens,
              overlapTokens: record.chunking.overlap_tokens ?? 0,
              headingContext: record.chunking.heading_context ?? false,
              // A chunk is never longer than a search result may show (FR-010's trim): an answer in a chunk's tail
              // would otherwise be found but cut off.
              maxChars: deps.retrieval?.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS,
            }),
          label: rel,
        },
        bound,
      );
      // Section paths from the PDF's outline where it has one (the author's table of contents), else the heading tree.
      const chunks = applyOutline(headed, await outlineOf(deps, source.bytes, rel));
      const { citation, how } = citationOf(deps, ctx, converted, source.filename, rel);
      const fp = info.fingerprint;
      const points = chunks.map((c) => {
        const payload = payloadFor(record.project, docId, rel, source.path, c, citation, converted.running_headers);
        const id = projectChunkId({
          docId,
          pageStart: c.page_start,
          pageEnd: c.page_end,
          sectionPath: c.section_path,
          modelId: fp.model_id,
          modelRevision: fp.revision,
          chunkIndex: c.chunk_index,
        });
        return { id, text: c.text, embedText: c.embed_text, payload, hash: fingerprintOf(payload, c.text) };
      });
      const existing = await storedChunks(deps, info.name, docId);
      const changed = points.filter((p) => existing.get(p.id) !== p.hash);
      const keep = new Set(points.map((p) => p.id));
      const stale = [...existing.keys()].filter((id) => !keep.has(id));
      let removed = 0;
      let replaced: string[] = [];
      // Only new or changed chunks are embedded and written; a chunk that existed is updated in place, never removed.
      await storeChunks(
        {
          store: deps.store,
          collection: info.name,
          fingerprint: fp,
          embedder: ctx.embedder,
          chunks: changed,
          existing: new Set(existing.keys()),
          // Stale chunks go last: a failure before this leaves extra chunks (removed by the next run), never missing ones.
          record: async (signal) => {
            const earlier = await earlierVersions(deps, info.name, source.path, docId);
            const gone = [...stale, ...earlier.ids];
            removed = gone.length > 0 ? await deps.store.deleteByIds(info.name, gone, { signal }) : 0;
            replaced = earlier.docIds;
            if (replaced.length > 0)
              deps.log.info(
                { project: record.project, file: rel, doc_id: docId, replaced, removed: earlier.ids.length },
                `${rel} changed: its earlier version's chunks were replaced`,
              );
          },
          label: rel,
          log: deps.log,
        },
        bound,
      );
      if (chunks.length === 0)
        deps.log.warn({ project: record.project, file: rel }, `${rel} produced no chunk (processed with 0 chunks)`);
      return {
        doc_id: docId,
        file: rel,
        chunks: chunks.length,
        written: changed.length,
        removed,
        replaced,
        page_count: converted.page_count,
        citekey: citation?.citekey ?? null,
        citation: how,
        duration_ms: Date.now() - started,
      };
    }),
  );
};

const PDF_MAGIC = '%PDF-';

/** A PDF's outline, or none (another format, or an outline mupdf cannot read: the heading tree then stands). */
const outlineOf = async (deps: DocumentStoreDeps, bytes: Uint8Array, rel: string): Promise<OutlineEntry[]> => {
  if (new TextDecoder().decode(bytes.subarray(0, 1024)).indexOf(PDF_MAGIC) < 0) return [];
  try {
    return await readPdfOutline(bytes);
  } catch (error) {
    deps.log.warn({ file: rel, error: String(error) }, `${rel}: outline unreadable, section paths from headings`);
    return [];
  }
};

/** The document's citation: the one given, or the matching CSL-JSON entry (by DOI, then title), logged either way. */
const citationOf = (
  deps: DocumentStoreDeps,
  ctx: ProjectIngestContext,
  converted: ConversionResult,
  filename: string,
  rel: string,
): { citation: CitationMeta | null; how: DocumentOutcome['citation'] } => {
  if (ctx.citation !== undefined) return { citation: ctx.citation, how: null };
  if (!ctx.references) return { citation: null, how: null };
  const project = ctx.resolved.record.project;
  const firstPageLimit = converted.page_map.find((e) => e.page > 2)?.offset ?? converted.markdown.length;
  const match = matchCitation(
    ctx.references,
    {
      metadata: converted.metadata,
      title: converted.title,
      firstPages: converted.markdown.slice(0, Math.min(firstPageLimit, 20_000)),
      headings: converted.headings.map((h) => h.title),
      filename,
    },
    ctx.titleThreshold,
  );
  if (!match.matched) {
    deps.log.warn({ project, file: rel, closest: match.closest }, `no citation metadata for ${rel}: ${match.hint}`);
    return { citation: null, how: { unmatched: match.hint } };
  }
  const how = { by: match.by, score: Math.round(match.score * 100) / 100 };
  deps.log.info(
    { project, file: rel, citekey: match.citation.citekey, by: match.by, score: how.score },
    'citation matched',
  );
  return { citation: match.citation, how };
};
