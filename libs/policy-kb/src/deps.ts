// SPDX-License-Identifier: AGPL-3.0-or-later
import type { PolicyUploads } from './policy-uploads.js';
import type { ConversionSubmitter } from '@lectern/conversion-job';
import type { KeyedMutex } from '@lectern/document-store';
import type { EmbedderProvider } from '@lectern/embedding';
import type { PolicyRegistry } from '@lectern/policy-registry';
import type { Logger } from '@lectern/runtime';
import type { VectorStore } from '@lectern/vector-store';

/** What reading the policy KB needs: the registry (source of truth) and the store holding the chunks. */
export interface PolicyStoreDeps {
  registry: PolicyRegistry;
  store: VectorStore;
  /** The chunk collection (`policyCollection(POLICY_KB_PROJECT)`). */
  collection: string;
  /** Today, for the default revision of `get_policy_section` (tests pin it). */
  now?: () => Date;
}

export interface PolicySearchDeps extends PolicyStoreDeps {
  embedders: EmbedderProvider;
}

/** Every policy KB use case's deps; apps compose them through `@lectern/platform`. */
export interface PolicyKbDeps extends PolicySearchDeps {
  /** The `conversion` job (in-process or on converter workers). */
  conversion: Pick<ConversionSubmitter, 'convert'>;
  /** Allowed roots of `ingest_policy_revision`'s file paths. */
  roots: readonly string[];
  enableOcr: boolean;
  ingestTimeoutMs: number;
  maxDocumentBytes: number;
  locks: KeyedMutex;
  log: Logger;
  /** The admin API's revision uploads (distributed: in the blob store too); unset: DATA_DIR alone. */
  uploads?: PolicyUploads;
}

export type { ProgressFn } from '@lectern/ingestion';
