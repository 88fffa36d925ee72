// SPDX-License-Identifier: AGPL-3.0-or-later
// globalSetup of the plain tier (`npm run jest`): the services compiled once for the tests that spawn them
// (service-bundles.mjs), before any worker starts, so that parallel suites never build them at the same time; and
// the tiny generated test embedding model (libs/testing test-model-files.mjs) written once into a temp dir, named by
// LECTERN_TEST_MODEL_DIR for the workers (which inherit this process's environment) and the services they spawn;
// and an empty directory for the run's shared V8 code caches (code-cache-runtime.cjs), named by
// LECTERN_TEST_CODE_CACHE_DIR for the workers, unless the caller named one.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_MODEL_DIR_VARIABLE, writeTestModel } from '../../libs/testing/src/test-model-files.mjs';
import { buildServiceBundles } from './service-bundles.mjs';

/** The run's shared code cache directory (code-cache-runtime.cjs reads the same variable). */
export const CODE_CACHE_DIR_VARIABLE = 'LECTERN_TEST_CODE_CACHE_DIR';
/** Set when this setup made that directory, so that the teardown removes it (and not one the caller named). */
export const CODE_CACHE_DIR_OWNED = 'LECTERN_TEST_CODE_CACHE_DIR_OWNED';

export default async function plainTierSetup() {
  process.env[TEST_MODEL_DIR_VARIABLE] = writeTestModel(mkdtempSync(join(tmpdir(), 'lectern-test-model-')));
  if (!process.env[CODE_CACHE_DIR_VARIABLE]) {
    process.env[CODE_CACHE_DIR_VARIABLE] = mkdtempSync(join(tmpdir(), 'lectern-jest-code-cache-'));
    process.env[CODE_CACHE_DIR_OWNED] = '1';
  }
  await buildServiceBundles();
}
