// SPDX-License-Identifier: AGPL-3.0-or-later
// The tiny generated Model2Vec test model (test-model-files.mjs) for tests that need "some embedder", not USE-lite's or
// any semantic ranking. The plain tier's globalSetup generates it once per run; outside it, the first call does.
import { TEST_MODEL_DIMENSION, TEST_MODEL_ID, testModelDir, wordPieceTokenizerJson } from './test-model-files.mjs';

export { TEST_MODEL_DIMENSION, TEST_MODEL_ID, testModelDir, wordPieceTokenizerJson };

/** The variables that make a service (in-process config or spawned process) embed with the test model. */
// a type, not an interface, so that it is assignable to a service's `Record<string, string>` environment
export type TestModelEnv = Record<'EMBEDDING_MODEL' | 'EMBEDDING_MODEL_DIR', string>;

/** `EMBEDDING_MODEL` and `EMBEDDING_MODEL_DIR` for the test model: spread into a service's env. */
export const testModelEnv = (): TestModelEnv => ({
  EMBEDDING_MODEL: TEST_MODEL_ID,
  EMBEDDING_MODEL_DIR: testModelDir(),
});

/**
 * For a whole spec file: sets the test model's variables in `process.env` from `beforeAll` to `afterAll` (then
 * restores them), so that services spawned with the parent's environment (`spawnService`, `killScenario`) and
 * in-process ones reading `process.env` embed with it. Call at the top of the file, before the hooks that start
 * services.
 */
export const withTestModel = (): void => {
  const saved: Partial<Record<keyof TestModelEnv, string | undefined>> = {};
  beforeAll(() => {
    for (const [name, value] of Object.entries(testModelEnv()) as [keyof TestModelEnv, string][]) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
  });
  afterAll(() => {
    for (const [name, value] of Object.entries(saved) as [keyof TestModelEnv, string | undefined][]) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
};
