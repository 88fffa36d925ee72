// SPDX-License-Identifier: AGPL-3.0-or-later
export {
  classifyDocument,
  isArchitecturalRendering,
  normaliseFilename,
  MIN_CONTENT_HITS,
  CONTENT_SAMPLE_CHARS,
} from './classify-document.js';
export type { ClassificationConfidence, DocumentClassification } from './classify-document.js';
export { DOCUMENT_TYPE_RULES, RENDERING_PATTERNS } from './document-type.rules.js';
export type { DocumentTypeRule } from './document-type.rules.js';
export { sanitizeRef, documentId, chunkId, documentIdOfChunk, sha256File } from './document-ids.js';
export { resolveInsideRoots, isInside } from './resolve-inside-roots.js';
export { readDocumentFile } from './read-document-file.js';
export type { DocumentFile } from './read-document-file.js';
export type { ResolvedPath } from './resolve-inside-roots.js';
export { SUPPORTED_EXTENSIONS, isSupportedFile, assertSupportedFile } from './supported-file.js';
export { buildChunkRecords } from './chunk-records.js';
export type { ChunkedDocument, ChunkRecord } from './chunk-records.js';
export { RegistryEntrySchema, formatIngestedAt } from './registry.schema.js';
export type { RegistryEntry, DocumentRegistry } from './registry.schema.js';
/** Word count as chunk metadata computes it (Python's `len(text.split())`). */
export { countWords } from '@lectern/chunking';
export { POLICY_COLLECTION_SUFFIX, REGISTRY_COLLECTION_SUFFIX, policyCollection } from './internal-collections.js';
