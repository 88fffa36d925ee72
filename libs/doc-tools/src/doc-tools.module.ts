import { resolve } from 'node:path';
import type { DocSearchMode } from '@lectern/contracts';
import type { PdfEngine } from '@lectern/conversion';
import { conversionMarkdownSource, httpMarkdownSource, type DocToolsDeps } from '@lectern/doc-tools';
import type { EmbedderOptions, Platform } from './platform.js';
import { serviceConversion } from './service-conversion.js';

export interface DocToolsSettings {
  /** Allowed roots of `doc_index_build`'s file paths (default: the data directory, where uploads are). */
  roots: readonly string[];
  maxDocumentBytes: number;
  indexTimeoutMs: number;
  defaultMode: DocSearchMode;
  /** Set: Markdown from this converter over HTTP (spec 003's `MARKITDOWN_URL`); unset: the conversion job path. */
  markitdownUrl?: string | undefined;
  markitdownApiKey?: string | undefined;
  /** The embedder of hybrid search. */
  embedding: EmbedderOptions;
  pdfEngine?: PdfEngine | undefined;
  enableOcr: boolean;
}

/**
 * The document tools' deps: indexes under `<dataDir>/cache`, Markdown from the platform's conversion job (in this
 * process when embedded, on converter workers when distributed) unless a converter URL is configured, the
 * platform's embedders for hybrid search.
 */
export const docToolsDeps = (platform: Platform, s: DocToolsSettings): DocToolsDeps => ({
  cacheDir: resolve(platform.dataDir, 'cache'),
  roots: s.roots.length > 0 ? s.roots : [platform.dataDir],
  maxDocumentBytes: s.maxDocumentBytes,
  indexTimeoutMs: s.indexTimeoutMs,
  defaultMode: s.defaultMode,
  markdown: s.markitdownUrl
    ? httpMarkdownSource({ baseUrl: s.markitdownUrl, apiKey: s.markitdownApiKey })
    : conversionMarkdownSource(serviceConversion(platform, s)),
  embedders: platform.embedders(s.embedding),
  log: platform.log,
});
