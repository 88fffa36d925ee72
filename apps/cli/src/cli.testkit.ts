// SPDX-License-Identifier: AGPL-3.0-or-later
import { documentStoreDeps } from '@lectern/document-store';
import { createPlatform } from '@lectern/platform';
import { fixturesDir, silentLogger } from '@lectern/testing';

/** A document store on `dataDir` as the CLI's checks see it (embedded, default model, roots: the test fixtures). */
export const openDocumentStore = (dataDir: string) => {
  const platform = createPlatform({ dataDir, log: silentLogger() });
  const deps = documentStoreDeps(platform, {
    embedding: { model: 'auto' },
    roots: [fixturesDir()],
    defaultProject: 'application_docs',
    enableOcr: false,
    imageRatioThreshold: 0.7,
    ingestTimeoutMs: 120_000,
    maxDocumentBytes: 1e9,
  });
  return { platform, deps };
};
