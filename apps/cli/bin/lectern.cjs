#!/usr/bin/env node
// SPDX-License-Identifier: AGPL-3.0-or-later
// The `lectern` bin. Runs the command line compiled (cli-build.mjs: one program per command module, built on first
// use and whenever a source changed) with V8's code cache; where no compiled program can be had (a read-only
// checkout, esbuild missing, `LECTERN_CLI_BUNDLE=0`), the TypeScript sources through tsx, with the repository's
// tsconfig so `@lectern/*` paths resolve from any working directory. A CommonJS script, and the path to a compiled
// program requires nothing but Node's own modules and the command table: Node's ES module loader is not started
// (~4 ms) unless something imports an ES module. A one-shot `lectern convert` of a short PDF is measured against
// PyMuPDF's whole process (issue 18; docs/benchmarks/conversion.md, "Start-up").
'use strict';
const { existsSync, readFileSync, renameSync, statSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');
const { pathToFileURL } = require('node:url');
const vm = require('node:vm');
const { modulesFor } = require('../src/command-modules.cjs');

const cliDir = join(__dirname, '..');
const bundleDir = join(cliDir, '.bundle');

/**
 * Which program a command line runs: that of the one command module it needs, `base` for none (`--version`), else
 * `all` (help, an unknown command): the modules cli.ts registers for the same arguments.
 * @param {string[]} argv
 */
function programFor(argv) {
  const modules = modulesFor(argv);
  return modules.length === 1 ? /** @type {string} */ (modules[0]) : modules.length === 0 ? 'base' : 'all';
}

/**
 * The program's current build when it is newer than every file it was built from (cli-build.mjs writes the
 * pointer `<program>.json`); null otherwise.
 * @param {string} program
 */
function currentProgram(program) {
  try {
    /** @type {{ dir: string; builtMs: number; inputs: string[] }} */
    const current = JSON.parse(readFileSync(join(bundleDir, `${program}.json`), 'utf8'));
    const main = join(bundleDir, current.dir, 'main.cjs');
    // esm-bundle.mjs's inputsUnchanged, written out: one module fewer to load on every run
    const fresh =
      existsSync(main) && current.inputs.every((f) => existsSync(f) && statSync(f).mtimeMs <= current.builtMs);
    return fresh ? main : null;
  } catch {
    return null;
  }
}

/**
 * Runs a compiled program as a CommonJS module with V8's code cache kept beside it (`main.cjs.v8cache`, written
 * at exit by the first run of a build, or when V8 rejects it: another Node version or V8 flags), so later runs
 * neither parse nor compile what the first one ran. Node 20 gives such a script no dynamic `import()` (the program's
 * are `require`s, cli-build.mjs); an ES-module-only package (mupdf) is imported through this module's `import()`,
 * lent to the program (`importEsm`, libs/conversion/src/util/import-esm.ts).
 * @param {string} file
 */
function runCompiled(file) {
  /** @type {Record<symbol, unknown>} */ (globalThis)[Symbol.for('lectern.import')] = (
    /** @type {string} */ specifier,
  ) => import(specifier);
  const cacheFile = `${file}.v8cache`;
  /** @type {Buffer | undefined} */
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`;
  const script = new vm.Script(wrapped, { filename: file, ...(cachedData ? { cachedData } : {}) });
  if (!cachedData || script.cachedDataRejected) {
    process.once('exit', () => {
      try {
        // written aside and renamed: a process starting at the same moment reads no half-written cache
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(tmp, script.createCachedData());
        renameSync(tmp, cacheFile);
      } catch {
        // a read-only build directory: the next run compiles again
      }
    });
  }
  const module = { exports: {} };
  /** @type {(exports: object, require: NodeJS.Require, module: object, filename: string, dirname: string) => void} */
  const run = script.runInThisContext();
  run(module.exports, createRequire(file), module, file, dirname(file));
}

/** The installation root: the repository, or the installed package. */
const root = join(cliDir, '..', '..');

/**
 * The compiled program: in an installed package (no TypeScript sources beside it), the production build's
 * (`dist/apps/cli/programs/`, tools/build.mjs); in a checkout, this command line's own build, built when missing or
 * stale; null when it cannot be built.
 */
async function compiledProgram() {
  const program = programFor(process.argv.slice(2));
  if (!existsSync(join(root, 'tsconfig.json'))) {
    const packaged = join(root, 'dist', 'apps', 'cli', 'programs', `${program}.cjs`);
    if (existsSync(packaged)) return packaged;
    process.stderr.write(`lectern: ${packaged} is missing: this installation is incomplete\n`);
    process.exit(1);
  }
  if (process.env['LECTERN_CLI_BUNDLE'] === '0') return null;
  try {
    return (
      currentProgram(program) ??
      (await (await import(pathToFileURL(join(__dirname, 'cli-build.mjs')).href)).buildProgram(program))
    );
  } catch {
    return null;
  }
}

async function main() {
  const compiled = await compiledProgram();
  if (compiled) {
    runCompiled(compiled);
    return;
  }
  const { register } = await import('tsx/esm/api');
  register({ tsconfig: join(__dirname, '..', '..', '..', 'tsconfig.json') });
  // A URL string, so the type-checker (checkJs) does not resolve a `.ts` import it cannot take.
  await import(pathToFileURL(join(__dirname, '..', 'src', 'main.ts')).href);
}

// a failure here (tsx missing) is an unhandled rejection: Node prints it and exits 1
void main();
