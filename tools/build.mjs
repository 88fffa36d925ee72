#!/usr/bin/env node
// SPDX-License-Identifier: AGPL-3.0-or-later
// `npm run build`: the production build. Compiles into `dist/`, with esbuild (type-checking stays `npm run typecheck`):
// - every app (`apps/<name>/src/main.ts` but the command line's; tools/build-state.mjs's `sourceApps`) into one
//   CommonJS script, `dist/apps/<name>/src/main.cjs`, the npm packages left as `require`s: a service then starts
//   without Node's ES module loader, which parses every CommonJS package an ES module imports once more to find its
//   exports (measured: 1.8 CPU-s to a healthy converter as an ES module, 1.25 as CommonJS; docs/benchmarks/startup.md);
//   a package that is an ES module only (mupdf) is loaded by `import()`, which a CommonJS script keeps;
// - every worker-thread entry the services start (`libs/**/*.worker.ts`, not the test-only ones) into
//   `dist/<its path>.js`, where `tsWorker` (libs/runtime) starts it from when the process runs compiled code;
// - the `lectern` command line: one CommonJS program per command module (apps/cli/bin/cli-build.mjs) into
//   `dist/apps/cli/programs/<program>.cjs`, which the bin runs in an installed package;
// - `dist/source.tar.gz`, the source of this build, which the services serve at `GET /source` (AGPL-3.0 §13).
// Each module of a bundle keeps its own `import.meta.url`, computed relative to the bundle (the module's source path
// under the root): the native mupdf addon, worker entries and package.json are found in a checkout and in an
// installed package alike. `dist/build-info.json`, written last, lists what the build read (tools/build-state.mjs
// tells from it whether the build is stale: `npm start` and `lectern start` build first when it is).
//   node tools/build.mjs           build
//   node tools/build.mjs --if-stale  build only when stale (prints why)
import { readdirSync, rmSync, mkdirSync, writeFileSync, renameSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUILD_INFO, DIST, ROOT, hasSources, readBuildInfo, sourceApps, staleReason } from './build-state.mjs';

/** Set by every compiled bundle: `tsWorker` then starts worker threads from dist/ (libs/runtime/src/ts-worker.ts). */
const BANNER = 'globalThis[Symbol.for("lectern.compiled")] = true;';

/**
 * The packages of distributed mode, which an embedded service (no REDIS_URL, no QDRANT_URL) never uses but would load
 * at start (~0.2 CPU-s per service measured: docs/benchmarks/startup.md): in the apps' CommonJS bundles their
 * `require("<name>")` becomes a proxy that loads the package on first use. esbuild compiles the sources' named
 * imports (`import { Redis } from 'ioredis'`) to property reads on the required object (`import_ioredis.Redis`) at
 * each use, so the package loads when distributed mode first constructs one of its classes.
 */
export const LAZY_PACKAGES = ['bullmq', 'ioredis', '@qdrant/js-client-rest'];
export const LAZY_HELPER =
  'var __lecternLazy = (load) => { let m; const get = () => (m ??= load()); return new Proxy({}, {' +
  ' get: (_, k) => get()[k], has: (_, k) => k in get(), ownKeys: () => Reflect.ownKeys(get()),' +
  ' getOwnPropertyDescriptor: (_, k) => { const d = Reflect.getOwnPropertyDescriptor(get(), k);' +
  ' return d && { ...d, configurable: true }; } }); };';
/** Rewrites a CommonJS bundle's requires of `LAZY_PACKAGES` to lazy ones; answers how many it rewrote. */
const lazyRequires = (/** @type {string} */ file) => {
  let count = 0;
  const names = LAZY_PACKAGES.map((name) => name.replace(/[/.]/g, '\\$&')).join('|');
  const text = readFileSync(file, 'utf8').replace(new RegExp(`\\brequire\\("(${names})"\\)`, 'g'), (call) => {
    count += 1;
    return `__lecternLazy(() => ${call})`;
  });
  if (count > 0) writeFileSync(file, text);
  return count;
};

const posix = (/** @type {string} */ path) => path.split(sep).join('/');

/**
 * The worker entries the services start (test-only workers, `test-model/` and `*-echo.worker.ts`, are left out).
 * @param {string} [dir]
 * @returns {string[]}
 */
export const workerEntries = (dir = join(ROOT, 'libs')) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return d.name === 'node_modules' || d.name === 'test-model' ? [] : workerEntries(path);
    return d.name.endsWith('.worker.ts') && !d.name.includes('-echo.') ? [path] : [];
  });

/** Where a source module's compiled bundle goes: the same path under dist/, `.ts` → `.js`. */
const outFileOf = (/** @type {string} */ source) => join(DIST, relative(ROOT, source)).replace(/\.ts$/, '.js');

/**
 * Builds everything into dist/; answers the build's record.
 * @param {{ log?: (line: string) => void }} [options]
 */
export async function build({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  if (!hasSources()) throw new Error('no sources to build here (an installed package runs its dist/ as packed)');
  const started = Date.now();
  const { build: esbuild } = await import('esbuild');
  const { dependencyExternals, repositorySourcesPlugin } = await import('../libs/runtime/src/esm-bundle.mjs');
  const { PROGRAMS, buildDistProgram } = await import('../apps/cli/bin/cli-build.mjs');
  // a build that starts now: a source saved while it runs is newer, so the next check builds again
  const builtMs = Date.now();
  rmSync(DIST, { recursive: true, force: true });
  mkdirSync(DIST, { recursive: true });

  const apps = sourceApps();
  /**
   * @param {string} entry
   * @param {'esm' | 'cjs'} format
   */
  const compile = async (entry, format) => {
    const outfile = outFileOf(entry).replace(/\.js$/, format === 'cjs' ? '.cjs' : '.js');
    const result = await esbuild({
      entryPoints: [entry],
      outfile,
      bundle: true,
      format,
      platform: 'node',
      target: 'node20',
      metafile: true,
      // names and lines kept for stack traces; whitespace only
      minifyWhitespace: true,
      external: dependencyExternals(),
      tsconfig: join(ROOT, 'tsconfig.json'),
      absWorkingDir: ROOT,
      banner: { js: format === 'cjs' ? `${BANNER}\n${LAZY_HELPER}` : BANNER },
      // side effects kept: a service's modules are all loaded anyway
      plugins: [repositorySourcesPlugin({ relocatable: { outDir: dirname(outfile), format }, treeShake: false })],
      logLevel: 'warning',
    });
    if (format === 'cjs') lazyRequires(outfile);
    return result.metafile;
  };
  const metafiles = await Promise.all([
    ...apps.map((app) => compile(join(ROOT, 'apps', app, 'src', 'main.ts'), 'cjs')),
    ...workerEntries().map((entry) => compile(entry, 'esm')),
    ...PROGRAMS.map((program) =>
      buildDistProgram(program, join(DIST, 'apps', 'cli', 'programs', `${program}.cjs`), BANNER),
    ),
  ]);
  // The console's browser UI (preact, TSX) is bundled here too, so a compiled start compiles nothing: its builder
  // (apps/console/src/ui-build.ts) is compiled like an app and run once, writing apps/console/.ui/ (shipped).
  if (apps.includes('console')) {
    const builderSource = join(ROOT, 'apps', 'console', 'src', 'ui-build.ts');
    metafiles.push(await compile(builderSource, 'cjs'));
    const { createRequire } = await import('node:module');
    const builder = createRequire(import.meta.url)(outFileOf(builderSource).replace(/\.js$/, '.cjs'));
    const ui = await builder.buildUi();
    log(`lectern: built the console UI (${ui.totalGzipBytes} bytes gzip)`);
  }
  // AGPL-3.0 §13: the source of this build, served by every service at GET /source (libs/transport/src/source.route.ts)
  // from the package's dist/, so an installed package and the image carry the source of the code they run.
  {
    const archiver = join(ROOT, 'libs', 'transport', 'src', 'source.route.ts');
    metafiles.push(await compile(archiver, 'cjs'));
    const { createRequire } = await import('node:module');
    const { buildSourceArchive } = createRequire(import.meta.url)(outFileOf(archiver).replace(/\.js$/, '.cjs'));
    const { name, version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const archive = await buildSourceArchive(ROOT, `${name}-${version}`);
    writeFileSync(join(DIST, 'source.tar.gz'), archive);
    log(`lectern: wrote dist/source.tar.gz (${archive.length} bytes)`);
  }
  const configs = [
    'package.json',
    'tsconfig.json',
    'tsconfig.base.json',
    'tools/build.mjs',
    'tools/build-state.mjs',
    'libs/runtime/src/esm-bundle.mjs',
    'apps/cli/bin/cli-build.mjs',
    'apps/cli/src/command-modules.cjs',
  ];
  const inputs = new Set(configs);
  for (const metafile of metafiles)
    for (const input of Object.keys(metafile.inputs)) if (!input.includes('node_modules/')) inputs.add(posix(input));
  const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
  /** @type {import('./build-state.mjs').BuildInfo} */
  const info = { version, builtMs, apps, programs: PROGRAMS, inputs: [...inputs].sort() };
  const tmp = `${BUILD_INFO}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(info, null, 1)}\n`);
  renameSync(tmp, BUILD_INFO);
  log(
    `lectern: built dist/ in ${Date.now() - started} ms: ${apps.length} apps, ${workerEntries().length} workers, ${PROGRAMS.length} command-line programs`,
  );
  return info;
}

/**
 * Builds when the build is stale (a checkout whose sources changed); answers the current build's record. An installed
 * package without a build cannot run: that is an error.
 */
export async function ensureBuilt({ log = (/** @type {string} */ line) => process.stderr.write(`${line}\n`) } = {}) {
  const info = readBuildInfo();
  const why = staleReason(info);
  if (why === null && info) return info;
  if (!hasSources()) throw new Error(`lectern: ${DIST} is missing or incomplete and there are no sources to build it`);
  log(`lectern: building dist/ (${why})...`);
  return build({ log });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    if (process.argv.includes('--if-stale')) await ensureBuilt();
    else await build();
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  }
}
