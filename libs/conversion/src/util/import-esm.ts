// SPDX-License-Identifier: AGPL-3.0-or-later
/** Where the command line's bin puts its `import()` (apps/cli/bin/lectern.cjs). */
const HOST_IMPORT = Symbol.for('lectern.import');

/**
 * `import(specifier)` of a package that is an ES module only (mupdf). Here, not in libs/runtime: the inline PDF
 * engine's module is imported dynamically, and esbuild keeps whole every module a dynamic import reaches through a
 * barrel (`@lectern/runtime` would bring every contract schema into the command line's convert program). The compiled command line runs as a
 * CommonJS script with V8's code cache (apps/cli/bin/lectern.cjs), where Node 20 has no dynamic `import()` (a script
 * compiled from a code cache loses its import callback), so its bin lends its own; everywhere else (services run from
 * source, worker threads, tests) this is a plain `import()`.
 */
export function importEsm<T>(specifier: string): Promise<T> {
  const host = (globalThis as { [HOST_IMPORT]?: (specifier: string) => Promise<unknown> })[HOST_IMPORT];
  return (host ? host(specifier) : import(specifier)) as Promise<T>;
}
