// SPDX-License-Identifier: AGPL-3.0-or-later
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import type * as Esbuild from 'esbuild';
import { dependencyExternals, inputsUnchanged, metafileInputs, repoRoot, writeFileAside } from './esm-bundle.mjs';

const bundles = new Map<string, string | null>();

/** The bundle is newer than every file it was built from (recorded beside it). */
const fresh = (out: string, inputsFile: string): boolean => {
  if (!existsSync(out) || !existsSync(inputsFile)) return false;
  return inputsUnchanged(statSync(out).mtimeMs, JSON.parse(readFileSync(inputsFile, 'utf8')) as string[]);
};

/**
 * A TypeScript worker entry compiled once into one ES module beside it (`.<name>.bundle.mjs`, git-ignored; the
 * repository's own modules and `@lectern/*` paths inlined, npm packages left as imports), rebuilt when any of its
 * sources changed. Starting a worker from it takes ~30 ms and ~60 MB, against ~190 ms and ~90 MB for tsx compiling
 * the module in every worker thread. Placed in the entry's directory, so `import.meta.url`-relative paths of
 * modules in that directory (the native mupdf addon) still hold. Returns null when it cannot be built or written
 * (a read-only source tree): the caller then starts the worker through tsx. esbuild is what tsx itself compiles with.
 */
export function workerBundle(entry: string): string | null {
  if (process.env['LECTERN_TS_WORKERS'] === 'tsx') return null;
  const known = bundles.get(entry);
  if (known !== undefined) return known;
  const out = join(dirname(entry), `.${basename(entry, '.ts')}.bundle.mjs`);
  const inputsFile = `${out}.inputs.json`;
  let result: string | null = out;
  try {
    if (!fresh(out, inputsFile)) {
      const { buildSync } = createRequire(import.meta.url)('esbuild') as typeof Esbuild;
      const built = buildSync({
        entryPoints: [entry],
        bundle: true,
        format: 'esm',
        platform: 'node',
        target: 'node20',
        write: false,
        metafile: true,
        external: dependencyExternals(),
        tsconfig: join(repoRoot, 'tsconfig.json'),
        absWorkingDir: repoRoot,
        logLevel: 'silent',
      });
      const code = built.outputFiles[0]?.contents;
      if (!code) throw new Error('esbuild produced no output');
      const inputs = metafileInputs(built.metafile, repoRoot);
      // processes starting the same worker at once never read half a file
      writeFileAside(out, code);
      writeFileAside(inputsFile, JSON.stringify(inputs));
    }
  } catch {
    result = null;
  }
  bundles.set(entry, result);
  return result;
}
