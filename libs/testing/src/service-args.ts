// SPDX-License-Identifier: AGPL-3.0-or-later
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './paths.js';

/** Where the jest globalSetup puts the services' bundles (tools/jest/service-bundles.mjs). */
const bundleDir = (): string => join(repoRoot(), 'tmp', 'jest-services');

/** The V8 code cache the production launcher preloads (tools/compile-cache.cjs), for the CommonJS bundles. */
const compileCache = (): string => join(repoRoot(), 'tools', 'compile-cache.cjs');

/** Whether the record says the bundle was built after its last source change (every source still there). */
const fresh = (bundle: string): boolean => {
  const record = `${bundle}.json`;
  if (!existsSync(bundle) || !existsSync(record)) return false;
  try {
    const { builtMs, inputs } = JSON.parse(readFileSync(record, 'utf8')) as { builtMs: number; inputs: string[] };
    return inputs.every((f) => existsSync(f) && statSync(f).mtimeMs <= builtMs);
  } catch {
    return false;
  }
};

/**
 * The node arguments that run an app's entry (`apps/<app>/src/main.ts`, relative to the repository) as its own
 * process: its bundle compiled by the test run's globalSetup when one is there and newer than every source it was
 * built from — the same program without tsx compiling it in every spawned process —, else the TypeScript through tsx,
 * as `npm start` runs it. The bundle is CommonJS and runs with the production launcher's V8 code cache
 * (tools/compile-cache.cjs; its directory, shared by every start, is NODE_COMPILE_CACHE's or the system temp dir's).
 * Any other entry runs through tsx. `bundles`: where the bundles are (tests of this).
 */
export const serviceArgs = (entry: string, bundles: string = bundleDir()): string[] => {
  const m = /^apps\/([a-z-]+)\/src\/main\.ts$/.exec(entry);
  if (m?.[1]) {
    const bundle = join(bundles, `${m[1]}.cjs`);
    if (fresh(bundle)) return ['--require', compileCache(), bundle];
  }
  return ['--import', 'tsx', entry];
};
