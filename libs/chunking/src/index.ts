// SPDX-License-Identifier: AGPL-3.0-or-later
export {
  RecursiveCharacterTextSplitter,
  splitText,
  SPEC000_SEPARATORS,
  SPEC000_CHUNK_SIZE,
  SPEC000_CHUNK_OVERLAP,
} from './recursive-character-splitter.js';
export type { KeepSeparator, SplitterOptions, TextSpan } from './recursive-character-splitter.js';
export { chunkPages, joinPages } from './page-chunker.js';
export type { ChunkPagesOptions, PageChunk, PageText } from './page-chunker.js';
export { reassembleChunks } from './reassemble.js';
export type { ReassembleOptions, StoredChunk } from './reassemble.js';
export { codePointLength, countWords, isPythonSpace, pythonStrip } from './python-text.js';
export { pageAt } from './page-map.js';
export {
  chunkMarkdown,
  embeddingText,
  markdownPages,
  pageFurniture,
  projectChunkId,
  SECTION_PATH_SEPARATOR,
  sectionAt,
  sectionPaths,
  stripComments,
} from './markdown-chunker.js';
export type { ChunkIdParts, MarkdownChunk, MarkdownChunkOptions, MarkdownDocument } from './markdown-chunker.js';
export { chunkByLocator, LOCATOR_MAX_CHARS, LOCATOR_MIN_CHARS } from './locator-chunker.js';
export type {
  LocatorChunk,
  LocatorChunkMeta,
  LocatorChunking,
  LocatorChunkOptions,
  LocatorHeading,
} from './locator-chunker.js';
export { applyOutline } from './outline-sections.js';
export type { OutlineEntry, SectionedChunk } from './outline-sections.js';
