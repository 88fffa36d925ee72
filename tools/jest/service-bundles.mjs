// SPDX-License-Identifier: AGPL-3.0-or-later
// The four services compiled once for the tests that start them as processes (libs/testing's `spawnService` and
// `serviceArgs`): each app's `src/main.ts` bundled by esbuild into `tmp/jest-services/<app>.cjs` (git-ignored), with a
// record of the sources it was built from beside it (`<app>.cjs.json`). Started from its bundle, a service costs
// one parse of one file instead of tsx compiling and loading ~400 TypeScript modules in every spawned process (the
// kill -9, distributed-mode and restart suites start dozens). Built by both tiers' jest globalSetup; a test run
// without it, or after a source changed, starts the service through tsx as before (serviceArgs checks the record).
// CommonJS, as the production build's apps (tools/build.mjs), and started with its V8 code cache
// (tools/compile-cache.cjs): Node's ES module loader then does not parse every CommonJS package once more to find its
// exports, and the packages' compiled code is shared by every start of the run (one cache directory). Measured on one
// document-store-mcp start to "Server listening" (docs/benchmarks/test-suite.md, round 3): ~1.5 CPU-s as an ES
// module bundle, ~1.26 as CommonJS, ~1.1 with the code cache warm. Like the production build, the packages of
// distributed mode (bullmq, ioredis, the Qdrant client) load on first use, not at every embedded start.
// Repository modules keep their own `import.meta.url` (repositorySourcesPlugin), so worker threads, the native mupdf
// addon and package files are found as from source. Not the production build: that is the image's and
// `npm start`'s business (it also compiles the workers and marks the process compiled); this only spares the tests
// the compilation.
import { mkdirSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  dependencyExternals,
  metafileInputs,
  repoRoot,
  repositorySourcesPlugin,
  writeFileAside,
} from '../../libs/runtime/src/esm-bundle.mjs';
import { LAZY_HELPER, LAZY_PACKAGES } from '../build.mjs';

/** Where the bundles are (libs/testing/src/service-args.ts reads the same place). */
export const serviceBundleDir = join(repoRoot, 'tmp', 'jest-services');

/** `require("<package>")` of the packages the production build loads on first use (tools/build.mjs). */
const lazyRequire = new RegExp(
  `\\brequire\\("(${LAZY_PACKAGES.map((name) => name.replace(/[/.]/g, '\\$&')).join('|')})"\\)`,
  'g',
);

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
        format: 'cjs',
        platform: 'node',
        target: 'node20',
        write: false,
        metafile: true,
        external: dependencyExternals(),
        tsconfig: join(repoRoot, 'tsconfig.json'),
        absWorkingDir: repoRoot,
        banner: { js: LAZY_HELPER },
        plugins: [repositorySourcesPlugin()],
        logLevel: 'silent',
      });
      const text = result.outputFiles[0]?.text;
      if (!text) throw new Error(`esbuild produced no output for apps/${app}`);
      const code = text.replace(lazyRequire, (call) => `__lecternLazy(() => ${call})`);
      const out = join(serviceBundleDir, `${app}.cjs`);
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
