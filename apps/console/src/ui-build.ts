// SPDX-License-Identifier: AGPL-3.0-or-later
import { copyFile, mkdir, readFile, rename, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';

const HERE = dirname(fileURLToPath(import.meta.url));
/** The UI's sources (preact, TSX). */
export const UI_SOURCE_DIR = resolve(HERE, '..', 'ui');
/** Where `npm start` builds the UI (git-ignored). */
export const DEFAULT_UI_OUT_DIR = resolve(HERE, '..', '.ui');

/**
 * The bundle budget of the first page (index.html + app.js + app.css, gzip): the whole UI is one bundle, so this is
 * everything the browser downloads before the first page shows. Kept by ui-build.spec.ts.
 */
export const UI_BUDGET_GZIP_BYTES = 300 * 1024;

/**
 * `@lectern/contracts` is shared with the servers, and one of its modules (the conversion queue's job id) imports
 * `node:crypto`. The UI never calls that function, so Node built-ins resolve to a module whose functions throw,
 * rather than the UI keeping a second copy of the schemas it parses answers with.
 */
const nodeBuiltinsStub: Plugin = {
  name: 'node-builtins-stub',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, namespace: 'node-stub' }));
    b.onLoad({ filter: /.*/, namespace: 'node-stub' }, (args) => ({
      contents: `const unavailable = () => { throw new Error(${JSON.stringify(`${args.path} is not available in the browser`)}); };
export const createHash = unavailable; export default {};`,
      loader: 'js',
    }));
  },
};

export interface UiBuild {
  outDir: string;
  /** gzip size of each file served for the first page. */
  gzipBytes: Record<string, number>;
  totalGzipBytes: number;
}

/**
 * Bundle the UI with esbuild (minified, ES2022, one file; preact's JSX), next to its index.html and stylesheet.
 * Written to a temporary name and renamed into place, so a server reading `outDir` never sees half a bundle.
 */
export const buildUi = async (outDir: string = DEFAULT_UI_OUT_DIR): Promise<UiBuild> => {
  await mkdir(outDir, { recursive: true });
  await build({
    entryPoints: [join(UI_SOURCE_DIR, 'main.tsx')],
    outfile: join(outDir, 'app.js.tmp'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfig: join(UI_SOURCE_DIR, 'tsconfig.json'),
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [nodeBuiltinsStub],
    logLevel: 'silent',
  });
  await rename(join(outDir, 'app.js.tmp'), join(outDir, 'app.js'));
  for (const file of ['index.html', 'app.css']) await copyFile(join(UI_SOURCE_DIR, file), join(outDir, file));
  const gzipBytes: Record<string, number> = {};
  for (const file of ['index.html', 'app.js', 'app.css'])
    gzipBytes[file] = gzipSync(await readFile(join(outDir, file)), { level: 9 }).length;
  const totalGzipBytes = Object.values(gzipBytes).reduce((a, b) => a + b, 0);
  return { outDir, gzipBytes, totalGzipBytes };
};

/** Whether `outDir` holds a build at least as new as every UI source (npm start rebuilds otherwise). */
export const uiBuildIsFresh = async (outDir: string, sources: readonly string[]): Promise<boolean> => {
  try {
    const built = (await stat(join(outDir, 'app.js'))).mtimeMs;
    for (const source of sources) if ((await stat(source)).mtimeMs > built) return false;
    return true;
  } catch {
    return false;
  }
};
