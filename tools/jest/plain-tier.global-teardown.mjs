// SPDX-License-Identifier: AGPL-3.0-or-later
// globalTeardown of the plain tier: removes the test model directory its globalSetup generated.
import { rmSync } from 'node:fs';
import { TEST_MODEL_DIR_VARIABLE } from '../../libs/testing/src/test-model-files.mjs';

export default async function plainTierTeardown() {
  const dir = process.env[TEST_MODEL_DIR_VARIABLE];
  if (dir) rmSync(dir, { recursive: true, force: true });
}
