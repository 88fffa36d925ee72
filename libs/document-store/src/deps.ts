import type { ConversionResult } from '@lectern/contracts';
import type { Logger } from '@lectern/runtime';
import type { VectorStore } from '@lectern/vector-store';
import type { EmbedderPool } from './embedder-pool.js';
import type { KeyedMutex } from './keyed-mutex.js';

export interface ConvertRequest {
  path: string;
  enableOcr: boolean;
  imageRatioThreshold: number;
  signal?: AbortSignal;
  onProgress?: (p: { stage: string; page?: number; pages?: number }) => void;
}

/** Conversion as the use cases see it: in-process (`libs/conversion`) or through the `conversion` queue. */
export type ConvertPort = (request: ConvertRequest) => Promise<ConversionResult>;

/** Everything the document-store use cases need; the app composes it from config. */
export interface DocumentStoreDeps {
  store: VectorStore;
  embedders: EmbedderPool;
  convert: ConvertPort;
  /** Allowed roots for client-supplied file paths. */
  roots: readonly string[];
  /** Project of spec 000's tools when the call names none (`DOCUMENT_STORE_PROJECT`). */
  defaultProject: string;
  enableOcr: boolean;
  imageRatioThreshold: number;
  ingestTimeoutMs: number;
  locks: KeyedMutex;
  log: Logger;
  now?: () => Date;
}

/** Progress reporting of long use cases (mapped onto MCP progress notifications by the tool layer). */
export type ProgressFn = (progress: number, total: number | undefined, message: string) => void | Promise<void>;
