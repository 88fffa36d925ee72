// SPDX-License-Identifier: AGPL-3.0-or-later
// globalSetup of the corpus tier (`npm run test:corpus`): the shared corpora and models must be there. Fails the
// whole run, naming the missing directory, instead of letting suites skip or fail one by one. Then, as in the plain
// tier, the services are compiled once for the tests that spawn them (service-bundles.mjs).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildServiceBundles } from './service-bundles.mjs';

export default async function corpusTierSetup() {
  // No test reaches the model hub (see plain-tier.setup.mjs); the workers and spawned services inherit it.
  process.env.EMBEDDING_AUTO_FETCH ??= '0';
  const root = resolve(import.meta.dirname, '..', '..');
  const shared = resolve(process.env.LECTERN_SHARED_DIR ?? process.env.SHARED_DIR ?? join(root, '..', 'shared'));
  /** @type {Array<[string, string]>} */
  const needed = [
    ['corpora', resolve(process.env.CORPORA_DIR ?? join(shared, 'corpora'))],
    ['models', join(shared, 'models')],
  ];
  const missing = needed.filter(([, dir]) => !existsSync(dir));
  if (missing.length > 0)
    throw new Error(
      `test:corpus needs the shared test data; missing: ${missing.map(([what, dir]) => `${what} at ${dir}`).join(', ')}. ` +
        'Place ../shared beside the repository or set LECTERN_SHARED_DIR (and CORPORA_DIR for the corpora).',
    );
  await buildServiceBundles();
}
