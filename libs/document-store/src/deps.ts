// SPDX-License-Identifier: AGPL-3.0-or-later
import type { ConversionSubmitter } from '@lectern/conversion-job';
import type { EmbedderProvider } from '@lectern/embedding';
import type { ScannedPdfPolicy } from '@lectern/ingestion';
import type { Logger } from '@lectern/runtime';
import type { VectorStore } from '@lectern/vector-store';
import type { KeyedMutex } from './keyed-mutex.js';
import type { AuditLog } from './audit.js';
import type { KeptDocumentFiles } from './kept-files.js';
import type { ProjectCache } from './projects.js';

/** Conversion as the use cases see it: the `conversion` job (in-process or on converter workers). */
export type ConversionPort = Pick<ConversionSubmitter, 'convert'>;

/** What reading use cases need: the store and the default project. */
export interface StoreDeps {
  store: VectorStore;
  /** Project of spec 000's tools when the call names none (`DOCUMENT_STORE_PROJECT`). */
  defaultProject: string;
  /** Project records reused by reading calls (see `resolveProject`); without it every call reads the record. */
  projectCache?: ProjectCache;
  /** Spec 004 FR-013's audit records (retrievals are queued and written in batches). */
  audit?: AuditLog;
}

/** What searching use cases need: the store and the embedders. */
export interface SearchDeps extends StoreDeps {
  embedders: EmbedderProvider;
  now?: () => Date;
}

/** Everything the document-store use cases need; an app composes it through `@lectern/platform`. */
export interface DocumentStoreDeps extends SearchDeps {
  conversion: ConversionPort;
  /** Allowed roots for client-supplied file paths. */
  roots: readonly string[];
  enableOcr: boolean;
  imageRatioThreshold: number;
  /** What becomes of a scanned (image-based) PDF: `ocr` keeps a scan that reads as prose (default), `skip` skips it. */
  scannedPdfPolicy?: ScannedPdfPolicy;
  ingestTimeoutMs: number;
  /** Largest document accepted (MAX_DOCUMENT_BYTES), checked on the opened file before reading it. */
  maxDocumentBytes: number;
  locks: KeyedMutex;
  log: Logger;
  /** Uploaded documents' original PDFs, kept for drawing their pages and deleted with the document (issue 29). */
  keptFiles?: KeptDocumentFiles;
  /** Spec 004 FR-011: the deadline of each spec 004 tool call (clamped to 8-15 s; TOOL_TIMEOUT_S). */
  toolDeadlineMs?: number;
  /** Spec 004 FR-010: the most characters a retrieved chunk's text keeps (RETRIEVAL_MAX_CHARS). */
  retrieval?: { maxResultChars: number };
}

/** Progress reporting of long use cases (mapped onto MCP progress notifications by the tool layer). */
export type { ProgressFn } from '@lectern/ingestion';
