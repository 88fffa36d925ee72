// SPDX-License-Identifier: AGPL-3.0-or-later
import { resolve } from 'node:path';
import { extractionDocTools, type DocSearchMode } from '@lectern/contracts';
import type { OcrEngine, PdfEngine } from '@lectern/conversion';
import {
  mcpTimeouts,
  serviceConversion,
  toolDeadlines,
  unboundTools,
  type EmbedderOptions,
  type McpService,
  type McpTimeouts,
  type Platform,
} from '@lectern/platform';
import { LECTERN_VERSION } from '@lectern/runtime';
import type { DocToolsDeps } from './deps.js';
import { docToolsSettings, type DocToolsEnv } from './doc-tools.env.js';
import { createDocTools, type DocTools } from './doc-tools.js';
import { conversionMarkdownSource, httpMarkdownSource } from './markdown-source.js';
import { sweepInterruptedIndexBuilds } from './recover-builds.js';
import { docToolRegistrations } from './tools/doc-tool-registrations.js';

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
  ocrEngine?: OcrEngine | undefined;
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

/**
 * extraction-api's MCP server (spec 003's `mcp-tools` role at `/mcp`): the four document tools its agent uses,
 * open to outside agents too (without tools every tool answers `not_implemented`). `doc_index_build` is bounded by
 * `timeouts.ingestMs` (DOC_INDEX_TIMEOUT_S), the others by MCP_TOOL_TIMEOUT_S (default 60 s, spec 003 section 7).
 */
export const docToolsMcpService = (tools?: DocTools, timeouts: McpTimeouts = {}): McpService => ({
  name: 'extraction-api',
  version: LECTERN_VERSION,
  instructions:
    'Lectern document tools (spec 003): doc_index_build a document, then per field doc_search and doc_read the ' +
    'chunks it finds (locators h{n}-c{m} / h{n}-t{m}), and json_validate_and_normalize the result against its schema.',
  tools: tools ? docToolRegistrations(tools) : unboundTools(extractionDocTools),
  deadlines: toolDeadlines(['doc_index_build'], timeouts),
});

/** Spec 003's document tools composed on a platform: what extraction-api serves at `/mcp`. */
export interface DocToolsModule {
  deps: DocToolsDeps;
  tools: DocTools;
  /** The MCP server of the four tools (extraction-api's `/mcp`). */
  mcpService: McpService;
  /**
   * Recovery at start: temporary files of index builds a killed process left (never served: see doc-index.ts) are
   * removed; when replicas share DATA_DIR (REDIS_URL) only those older than the index timeout. Never throws.
   */
  recover(): Promise<void>;
}

/**
 * The document tools from their variables on `platform`: Markdown from the converter at MARKITDOWN_URL when set,
 * else the conversion job (on converter workers when the platform has Redis, else here). Their shutdown steps
 * (conversion pools, embedders) are the platform's.
 */
export const docToolsModule = (platform: Platform, env: DocToolsEnv): DocToolsModule => {
  const deps = docToolsDeps(platform, docToolsSettings(env));
  const tools = createDocTools(deps);
  return {
    deps,
    tools,
    mcpService: docToolsMcpService(tools, mcpTimeouts(env, env.DOC_INDEX_TIMEOUT_S)),
    recover: async () => {
      await sweepInterruptedIndexBuilds(deps.cacheDir, {
        olderThanMs: env.REDIS_URL ? deps.indexTimeoutMs : 0,
        log: platform.log,
      }).catch((err: unknown) => platform.log.error({ err }, 'index cache recovery at start failed'));
    },
  };
};
