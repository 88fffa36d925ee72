// SPDX-License-Identifier: AGPL-3.0-or-later
export { createDocTools } from './doc-tools.js';
export type { DocTools } from './doc-tools.js';
export type { DocToolsDeps, ProgressFn } from './deps.js';
export { conversionMarkdownSource, httpMarkdownSource } from './markdown-source.js';
export type {
  HttpMarkdownSourceOptions,
  MarkdownCall,
  MarkdownDocument,
  MarkdownSource,
  SourceFile,
} from './markdown-source.js';
export { docToolRegistrations } from './tools/doc-tool-registrations.js';
export { indexIdOf, indexMarkdown } from './build-index.js';
export type { MarkdownIndexFacts } from './build-index.js';
export { loadIndex, searchableText, INDEX_VERSION } from './doc-index.js';
export type { IndexedChunk, LoadedIndex } from './doc-index.js';
export { rankChunks, snippetOf } from './search-index.js';
export { normalizeString, validateAndNormalize } from './validate-normalize.js';
export { bm25Scorer, inverseDocumentFrequencies, tfidfScore, tokenize, termStats, BM25_DEFAULTS } from './terms.js';
export { docToolsDeps, docToolsMcpService, docToolsModule } from './doc-tools.module.js';
export type { DocToolsModule, DocToolsSettings } from './doc-tools.module.js';
export { DocToolsEnvSchema, docToolsEnvShape, docToolsSettings } from './doc-tools.env.js';
export type { DocToolsEnv } from './doc-tools.env.js';
export { sweepInterruptedIndexBuilds } from './recover-builds.js';
