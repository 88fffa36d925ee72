// SPDX-License-Identifier: AGPL-3.0-or-later
import type { DocSearchMode } from '@lectern/contracts';
import type { EmbedderProvider } from '@lectern/embedding';
import type { Logger } from '@lectern/runtime';
import type { MarkdownSource } from './markdown-source.js';

/** What the document tools need; an app composes it through `@lectern/platform` (`docToolsDeps`). */
export interface DocToolsDeps {
  /** `DATA_DIR/cache`: one directory per index, named by its index_id. */
  cacheDir: string;
  /** Allowed roots of `doc_index_build`'s `file_path`. */
  roots: readonly string[];
  /** Largest document accepted, checked on the opened file before it is read. */
  maxDocumentBytes: number;
  /** Where Markdown comes from: the conversion job path, or a converter over HTTP (`MARKITDOWN_URL`). */
  markdown: MarkdownSource;
  /** The embedder of `hybrid` search (unset: hybrid answers `invalid_arguments`). */
  embedders?: EmbedderProvider | undefined;
  /** Longest `doc_index_build` (conversion included) before it fails with `timeout`. */
  indexTimeoutMs: number;
  /** `doc_search`'s mode when the call names none. */
  defaultMode: DocSearchMode;
  log: Logger;
}

/** Progress reporting of `doc_index_build` (mapped onto MCP progress notifications by the tool layer). */
export type { ProgressFn } from '@lectern/ingestion';
