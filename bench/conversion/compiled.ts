// SPDX-License-Identifier: AGPL-3.0-or-later
// The conversion benches run their child program compiled, as a service runs its build (tools/build.mjs): ES modules
// by esbuild, npm packages left as imports, no tsx loader thread or module hooks in what is timed.
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import type * as Esbuild from 'esbuild';
import { dependencyExternals, repoRoot, repositorySourcesPlugin } from '../../libs/runtime/src/esm-bundle.mjs';

/**
 * Compiles `entry` (a bench program) into `.compiled/` beside it (git-ignored; npm packages resolve from the
 * repository's node_modules); answers the program's path.
 * Split at its dynamic imports: what it imports with `import()` (and the npm packages that imports) is loaded when
 * the program asks for it, not before its first line, so the program can read the CPU its own modules cost.
 */
export async function compiledConvertOne(entry: string): Promise<string> {
  const outdir = join(dirname(entry), '.compiled');
  const { build } = createRequire(import.meta.url)('esbuild') as typeof Esbuild;
  // async: esbuild runs plugins in its asynchronous API only
  await build({
    entryPoints: [entry],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: dependencyExternals(),
    tsconfig: join(repoRoot, 'tsconfig.json'),
    absWorkingDir: repoRoot,
    // each repository module keeps its own import.meta.url (the worker entries and the native addon beside it);
    // side effects kept, as in the production build
    plugins: [repositorySourcesPlugin({ treeShake: false })],
    logLevel: 'warning',
  });
  return join(outdir, `${basename(entry, '.ts')}.js`);
}
