// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Embedder } from '@lectern/embedding';
import { createPlatform, type Platform } from '@lectern/platform';
import { silentLogger, TEST_MODEL_ID, testModelDir } from '@lectern/testing';
import { documentStoreDeps } from './document-store.module.js';
import type { DocumentStoreDeps } from './deps.js';
import { createProject } from './projects.js';

/**
 * A spec 004 project on a real platform (SQLite store, in-process conversion, the generated test model) in a fresh
 * temporary data directory with a `library` folder inside the allowed root, for specs that ingest generated PDFs.
 */
export interface ProjectFixture {
  readonly dataDir: string;
  /** The library folder (inside the configured root) the spec writes its files to. */
  readonly docs: string;
  readonly platform: Platform;
  readonly deps: DocumentStoreDeps;
  readonly embedder: Embedder;
  close(): Promise<void>;
}

export async function openProjectFixture(options: {
  /** The temporary directory's name prefix. */
  prefix: string;
  project: string;
  /** The heading chunker's token limit; the embedder's own limit when absent. */
  maxTokens?: number;
  /** The server's retrieval trim (FR-010); the default policy when absent. */
  retrievalMaxChars?: number;
}): Promise<ProjectFixture> {
  const dataDir = mkdtempSync(join(tmpdir(), options.prefix));
  const docs = join(dataDir, 'library');
  mkdirSync(docs);
  const platform = createPlatform({ dataDir, log: silentLogger() });
  const deps = documentStoreDeps(platform, {
    embedding: { model: TEST_MODEL_ID, modelDir: testModelDir() },
    roots: [dataDir],
    defaultProject: 'application_docs',
    enableOcr: false,
    imageRatioThreshold: 0.7,
    ingestTimeoutMs: 60_000,
    maxDocumentBytes: 1e8,
    ...(options.retrievalMaxChars === undefined ? {} : { retrievalMaxChars: options.retrievalMaxChars }),
  });
  const embedder = await deps.embedders.configured();
  await createProject(deps, {
    project: options.project,
    chunking: {
      kind: 'heading',
      max_tokens: options.maxTokens ?? embedder.maxTokens,
      overlap_tokens: 0,
      heading_context: false,
    },
    fingerprint: embedder.fingerprint,
  });
  return {
    dataDir,
    docs,
    platform,
    deps,
    embedder,
    close: async () => {
      await platform.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
