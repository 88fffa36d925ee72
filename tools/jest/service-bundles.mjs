// SPDX-License-Identifier: AGPL-3.0-or-later
// The four services compiled once for the tests that start them as processes (libs/testing's `spawnService` and
// `serviceArgs`): each app's `src/main.ts` bundled by esbuild into `tmp/jest-services/<app>.mjs` (git-ignored), with a
// record of the sources it was built from beside it (`<app>.mjs.json`). Started from its bundle, a service costs
// one parse of one file instead of tsx compiling and loading ~400 TypeScript modules in every spawned process (the
// kill -9, distributed-mode and restart suites start dozens). Built by both tiers' jest globalSetup; a test run
// without it, or after a source changed, starts the service through tsx as before (serviceArgs checks the record).
// Repository modules keep their own `import.meta.url` (repositorySourcesPlugin), so worker threads, the native mupdf
// addon and package files are found as when run from source. Not the production build: that is the image's and
// `npm start`'s business; this only spares the tests the compilation.
import { mkdirSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  dependencyExternals,
  metafileInputs,
  repoRoot,
  repositorySourcesPlugin,
  writeFileAside,
} from '../../libs/runtime/src/esm-bundle.mjs';

/** Where the bundles are (libs/testing/src/service-args.ts reads the same place). */
export const serviceBundleDir = join(repoRoot, 'tmp', 'jest-services');

/** The apps with a `src/main.ts`. */
const apps = () =>
  readdirSync(join(repoRoot, 'apps'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(repoRoot, 'apps', d.name, 'src', 'main.ts')))
    .map((d) => d.name)
    .filter((name) => name !== 'cli'); // the command line has its own compiled build (apps/cli/bin/cli-build.mjs)

/** Builds every service's bundle; returns the apps built. */
export async function buildServiceBundles() {
  const { build } = await import('esbuild');
  mkdirSync(serviceBundleDir, { recursive: true });
  const names = apps();
  await Promise.all(
    names.map(async (app) => {
      const builtMs = Date.now();
      const result = await build({
        entryPoints: [join(repoRoot, 'apps', app, 'src', 'main.ts')],
        bundle: true,
        format: 'esm',
        platform: 'node',
        target: 'node20',
        write: false,
        metafile: true,
        external: dependencyExternals(),
        tsconfig: join(repoRoot, 'tsconfig.json'),
        absWorkingDir: repoRoot,
        plugins: [repositorySourcesPlugin()],
        logLevel: 'silent',
      });
      const code = result.outputFiles[0]?.contents;
      if (!code) throw new Error(`esbuild produced no output for apps/${app}`);
      const out = join(serviceBundleDir, `${app}.mjs`);
      const configs = ['package.json', 'tsconfig.json', 'tsconfig.base.json'].map((f) => join(repoRoot, f));
      // a process reading at the same moment sees the old file or the new one, never half of one
      writeFileAside(out, code);
      writeFileAside(
        `${out}.json`,
        JSON.stringify({ builtMs, inputs: [...metafileInputs(result.metafile, repoRoot), ...configs] }),
      );
    }),
  );
  return names;
}
