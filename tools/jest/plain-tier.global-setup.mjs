// SPDX-License-Identifier: AGPL-3.0-or-later
// globalSetup of the plain tier (`npm run jest`): the services compiled once for the tests that spawn them
// (service-bundles.mjs), before any worker starts, so that parallel suites never build them at the same time; and
// the tiny generated test embedding model (libs/testing test-model-files.mjs) written once into a temp dir, named by
// LECTERN_TEST_MODEL_DIR for the workers (which inherit this process's environment) and the services they spawn.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_MODEL_DIR_VARIABLE, writeTestModel } from '../../libs/testing/src/test-model-files.mjs';
import { buildServiceBundles } from './service-bundles.mjs';

export default async function plainTierSetup() {
  process.env[TEST_MODEL_DIR_VARIABLE] = writeTestModel(mkdtempSync(join(tmpdir(), 'lectern-test-model-')));
  await buildServiceBundles();
}
