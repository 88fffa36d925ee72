// SPDX-License-Identifier: AGPL-3.0-or-later
// globalTeardown of the plain tier: removes the test model directory its globalSetup generated, and the run's code
// cache directory when the setup made it.
import { rmSync } from 'node:fs';
import { TEST_MODEL_DIR_VARIABLE } from '../../libs/testing/src/test-model-files.mjs';
import { CODE_CACHE_DIR_OWNED, CODE_CACHE_DIR_VARIABLE } from './plain-tier.global-setup.mjs';

export default async function plainTierTeardown() {
  const dir = process.env[TEST_MODEL_DIR_VARIABLE];
  if (dir) rmSync(dir, { recursive: true, force: true });
  const cacheDir = process.env[CODE_CACHE_DIR_VARIABLE];
  if (cacheDir && process.env[CODE_CACHE_DIR_OWNED] === '1') {
    rmSync(cacheDir, { recursive: true, force: true });
    delete process.env[CODE_CACHE_DIR_VARIABLE];
    delete process.env[CODE_CACHE_DIR_OWNED];
  }
}
