// SPDX-License-Identifier: AGPL-3.0-or-later
// Compiling the repository's TypeScript into ES modules with esbuild (what tsx itself compiles with), shared by
// the worker-thread bundles (worker-bundle.ts) and the `lectern` command line's bundle (apps/cli/bin). Plain
// JavaScript: the command line's bin loads it before anything can compile TypeScript.
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository's root directory. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Every package the repository depends on stays an import of a bundle (resolved from node_modules as usual):
 * native addons, WASM files and worker scripts of packages are found beside their own code. `inline`: pure
 * JavaScript packages compiled into the bundle instead (one file parsed rather than dozens resolved and loaded).
 * @param {string[]} [inline]
 * @returns {string[]}
 */
export function dependencyExternals(inline = []) {
  /** @type {Record<string, Record<string, string> | undefined>} */
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  return Object.keys({ ...pkg['dependencies'], ...pkg['devDependencies'] })
    .filter((name) => !inline.includes(name))
    .flatMap((name) => [name, `${name}/*`]);
}

/**
 * Whether every file a bundle was built from still exists and is no newer than the build.
 * @param {number} builtMs when the build started (a file saved during it counts as newer)
 * @param {string[]} inputs absolute paths
 */
export function inputsUnchanged(builtMs, inputs) {
  return inputs.every((f) => existsSync(f) && statSync(f).mtimeMs <= builtMs);
}

/**
 * Writes `data` beside `file` and renames it into place: a process starting at the same moment reads the old file
 * or the new one, never half of one.
 * @param {string} file
 * @param {string | Uint8Array} data
 */
export function writeFileAside(file, data) {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}

/**
 * The absolute paths of a build's inputs (esbuild's metafile names them relative to the working directory).
 * @param {{ inputs: Record<string, unknown> }} metafile
 * @param {string} workingDir
 */
export const metafileInputs = (metafile, workingDir) => Object.keys(metafile.inputs).map((f) => resolve(workingDir, f));

const sourceRoots = [join(repoRoot, 'libs') + sep, join(repoRoot, 'apps') + sep];
const isRepoSource = (/** @type {string} */ path) =>
  sourceRoots.some((root) => path.startsWith(root)) && !path.includes(`${sep}node_modules${sep}`);

/** The repository path of a module, with `/` separators (a URL path) whatever the platform. */
const posix = (/** @type {string} */ path) => path.split(sep).join('/');

/**
 * An esbuild plugin for bundles that gather modules of many directories (the command line's, the production build's):
 * - each repository module keeps its own `import.meta.url`, so the paths it resolves from it (the native mupdf addon,
 *   worker entries, package.json) hold wherever the bundle is. Without `relocatable`, the file's absolute URL is
 *   written in at build time (a bundle that runs on this machine only: the command line's `.bundle/`). With it, the
 *   URL is computed at run time relative to the bundle's own location (`relocatable.outDir`, the directory the
 *   output file is written to): the module's source path under the installation root, whether or not the source is
 *   there (an installed package has none), so `dist/` can be moved with the tree it was built in;
 * - with `treeShake` (the default), repository modules are declared free of side effects, so a module none of whose
 *   exports is used is left out (the contracts' schemas of other services, the loggers of a command that logs nothing).
 * @param {{ relocatable?: { outDir: string; format: 'esm' | 'cjs' }; treeShake?: boolean }} [options]
 * @returns {import('esbuild').Plugin}
 */
export function repositorySourcesPlugin({ relocatable, treeShake = true } = {}) {
  /** @param {string} path */
  const urlOf = (path) => {
    if (!relocatable) return JSON.stringify(pathToFileURL(path).href);
    // CommonJS: reach node:url through `process.getBuiltinModule` (Node >= 20.16), not the module's `require`, which
    // any local variable named `require` in the rewritten module would shadow
    const base =
      relocatable.format === 'esm'
        ? 'import.meta.url'
        : 'globalThis.process.getBuiltinModule("node:url").pathToFileURL(__filename)';
    return `new URL(${JSON.stringify(posix(relative(relocatable.outDir, path)))}, ${base}).href`;
  };
  return {
    name: 'lectern-repository-sources',
    setup(build) {
      build.onResolve({ filter: /^(\.|@lectern\/)/ }, async (args) => {
        if (args.pluginData === 'lectern-resolving') return undefined;
        const found = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: 'lectern-resolving',
        });
        if (found.errors.length || found.external || !isRepoSource(found.path))
          return found.errors.length ? { errors: found.errors } : found;
        if (!treeShake) return found;
        // an entry point keeps its side effects (it is the program)
        return { ...found, sideEffects: args.kind === 'entry-point' };
      });
      build.onLoad({ filter: /\.(ts|mts|js|mjs)$/ }, (args) => {
        if (!isRepoSource(args.path)) return undefined;
        const source = readFileSync(args.path, 'utf8');
        return {
          contents: source.replaceAll('import.meta.url', urlOf(args.path)),
          loader: /\.m?ts$/.test(args.path) ? 'ts' : 'js',
        };
      });
    },
  };
}
