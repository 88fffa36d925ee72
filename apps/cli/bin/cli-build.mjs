// SPDX-License-Identifier: AGPL-3.0-or-later
// Compiles the `lectern` command line (apps/cli/.bundle/, git-ignored; lectern.cjs runs it), so that a command
// starts without tsx compiling hundreds of TypeScript modules (~1 s) and loads only what it uses. One program per
// command module (`convert`, `project`, ...: the program with that module's commands alone, with only the repository
// code it uses, zod and commander compiled in), `all` (every command: help, unknown commands) and `base` (none:
// `--version`); each built the first time it is needed and again whenever one of its sources changed. One program
// per command rather than esbuild's code splitting: its shared chunks gather code by file, so the conversion
// command loaded every command's contracts, the logger and a second copy of the schemas. A program is a CommonJS
// script, so that lectern.cjs can run it with V8's code cache (Node 20's ES module loader keeps none).
// Plain JavaScript: it runs before anything can compile TypeScript.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  dependencyExternals,
  metafileInputs,
  repoRoot,
  repositorySourcesPlugin,
  writeFileAside,
} from '../../../libs/runtime/src/esm-bundle.mjs';
import { COMMAND_MODULES } from '../src/command-modules.cjs';

const cliDir = join(repoRoot, 'apps', 'cli');
const commandsDir = join(cliDir, 'src', 'commands');
const bundleDir = join(cliDir, '.bundle');
/** Builds older than this (other than the current ones) are deleted: a long-running `lectern mcp` may still load modules of its own build. */
const KEEP_OLD_BUILDS_MS = 24 * 60 * 60 * 1000;

/** @typedef {{ dir: string; builtMs: number; inputs: string[] }} ProgramBuild the pointer file `<program>.json` */

/**
 * commander requires `node:child_process` when it loads (~1.7 ms of every command's start-up: Node's net, stream and
 * dgram modules come with it) for one use, spawning executable subcommands, which `lectern` has none of: the
 * compiled program requires it when commander would spawn. Hand-written because no option of commander or esbuild
 * defers one `require`; where commander's source no longer has that line, it is compiled as it is.
 * @type {import('esbuild').Plugin}
 */
const lazyCommanderSpawn = {
  name: 'lectern-lazy-commander-spawn',
  setup(b) {
    b.onLoad({ filter: /[/\\]commander[/\\]lib[/\\]command\.js$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replace(
        "const childProcess = require('node:child_process');",
        "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };",
      ),
      loader: 'js',
    }));
  },
};

/**
 * zod compiled in brings every one of its ~50 locales (`z.locales`: 200 KB, 40% of the convert program, read and
 * checked against its code cache on every run); the command line speaks English only (zod sets `en` itself, from
 * `locales/en.js`), so its locale table holds `en` alone. Hand-written because zod has no build without its
 * locales; where zod's locale table is not where it was, it is compiled as it is.
 * @type {import('esbuild').Plugin}
 */
const englishOnlyZod = {
  name: 'lectern-english-only-zod',
  setup(b) {
    b.onLoad({ filter: /[/\\]zod[/\\]v4[/\\]locales[/\\]index\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const en = 'export { default as en } from "./en.js";';
      return { contents: source.includes(en) ? en : source, loader: 'js' };
    });
  },
};

/**
 * The esbuild options that compile `src/main.ts` with the commands of `program` (lectern.cjs's `programFor`).
 * @param {string} program
 * @param {{ relocatable?: { outDir: string; format: 'cjs' } }} [options] relocatable: for the production build
 *   (tools/build.mjs), whose programs find the repository's files relative to themselves
 * @returns {import('esbuild').BuildOptions}
 */
function programOptions(program, { relocatable } = {}) {
  /** @type {import('esbuild').Plugin} */
  const onlyItsCommands = {
    name: 'lectern-program-commands',
    setup(b) {
      // cli.ts's `await import('./commands/<name>.command.js')` of this program's command becomes a static import:
      // esbuild keeps whole every module a dynamic import reaches, unused schemas and all, but leaves out what a
      // static import does not use
      if (program !== 'all' && program !== 'base') {
        const cli = join(cliDir, 'src', 'cli.ts');
        b.onLoad({ filter: /[/\\]cli\.ts$/ }, (args) => {
          if (args.path !== cli) return undefined;
          const dynamic = `await import('./commands/${program}.command.js')`;
          const source = readFileSync(cli, 'utf8');
          if (!source.includes(dynamic)) throw new Error(`cli.ts does not load ${program} as \`${dynamic}\``);
          const code = `import * as __lectern_command from './commands/${program}.command.js';\n${source.replace(dynamic, '__lectern_command')}`;
          return { contents: code, loader: 'ts' };
        });
      }
      // a command this program never loads (modulesFor, src/command-modules.cjs)
      b.onResolve({ filter: /^\.\/commands\/[a-z-]+\.command\.js$/ }, (args) => {
        const name = basename(args.path, '.command.js');
        return program === 'all' || program === name
          ? undefined
          : { path: `./not-in-this-program/${name}.mjs`, external: true };
      });
    },
  };
  return {
    entryPoints: { main: join(cliDir, 'src', 'main.ts') },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    metafile: true,
    // smaller to read and to check against its code cache; names kept for stack traces
    minifyWhitespace: true,
    minifySyntax: true,
    // zod and commander compiled in: the program loads them whatever the command (zod as a package: ~60
    // modules, ~27 ms; commander ~15 ms). zod keeps its registry of schema metadata on globalThis, so the MCP
    // SDK's own copy still reads our schemas' descriptions. Every other package is `require`d (all are
    // CommonJS or dual) but mupdf, an ES module only, which the program imports through the bin (`importEsm`).
    external: dependencyExternals(['zod', 'commander']),
    tsconfig: join(repoRoot, 'tsconfig.json'),
    absWorkingDir: repoRoot,
    plugins: [onlyItsCommands, lazyCommanderSpawn, englishOnlyZod, repositorySourcesPlugin({ relocatable })],
    logLevel: 'silent',
  };
}

/** Every program: one per command module, `all` and `base`. */
export const PROGRAMS = [...new Set(Object.values(COMMAND_MODULES)), 'all', 'base'];

/**
 * Compiles one program for the production build (tools/build.mjs) into `outFile` (a CommonJS script that finds the
 * repository's files relative to itself and marks the process as running compiled code: worker threads then start
 * from the build's compiled workers too). Answers the esbuild metafile.
 * @param {string} program
 * @param {string} outFile
 * @param {string} banner
 */
export async function buildDistProgram(program, outFile, banner) {
  const { build: esbuild } = await import('esbuild');
  const result = await esbuild({
    ...programOptions(program, { relocatable: { outDir: dirname(outFile), format: 'cjs' } }),
    entryPoints: [join(cliDir, 'src', 'main.ts')],
    outfile: outFile,
    banner: { js: banner },
  });
  return /** @type {import('esbuild').Metafile} */ (result.metafile);
}

/**
 * Compiles `src/main.ts` with the commands of `program` (lectern.cjs's `programFor`) into a new build directory,
 * makes it the current one and answers its `main.cjs`.
 * @param {string} program
 * @returns {Promise<string>}
 */
export async function buildProgram(program) {
  const { build: esbuild } = await import('esbuild');
  mkdirSync(bundleDir, { recursive: true });
  const builtMs = Date.now();
  const dir = `${program}-${builtMs}-${process.pid}`;
  const result = await esbuild({
    ...programOptions(program),
    outdir: join(bundleDir, dir),
    outExtension: { '.js': '.cjs' },
  });
  // the configuration and this build script: a program built otherwise is built again
  const configs = [
    ...['package.json', 'tsconfig.json', 'tsconfig.base.json'].map((f) => join(repoRoot, f)),
    fileURLToPath(import.meta.url),
  ];
  /** @type {ProgramBuild} */
  const current = {
    dir,
    builtMs,
    inputs: [
      ...metafileInputs(/** @type {import('esbuild').Metafile} */ (result.metafile), repoRoot),
      ...configs,
      commandsDir,
    ],
  };
  // a process starting at the same moment reads the old pointer or the new one
  writeFileAside(join(bundleDir, `${program}.json`), JSON.stringify(current));
  for (const old of readdirSync(bundleDir)) {
    const path = join(bundleDir, old);
    if (old.startsWith(`${program}-`) && old !== dir && statSync(path).mtimeMs < builtMs - KEEP_OLD_BUILDS_MS)
      rmSync(path, { recursive: true, force: true });
  }
  return join(bundleDir, dir, 'main.cjs');
}

/**
 * Run as a script (`node apps/cli/bin/cli-build.mjs`): builds every program now and runs each once (`--help`) so
 * that its code cache is written too. The image does this at build time: at run time its source tree is
 * read-only to the non-root user, so nothing could be built or cached there.
 */
async function buildAll() {
  const { execFileSync } = await import('node:child_process');
  const commands = [...new Set(Object.values(COMMAND_MODULES))];
  const bin = join(cliDir, 'bin', 'lectern.cjs');
  for (const program of [...commands, 'all', 'base']) {
    const main = await buildProgram(program);
    // the program's first run writes its code cache (lectern.cjs)
    execFileSync(
      process.execPath,
      [bin, ...(program === 'all' ? ['--help'] : program === 'base' ? ['--version'] : [program, '--help'])],
      { stdio: 'ignore' },
    );
    process.stdout.write(
      `built ${join('apps', 'cli', '.bundle', basename(join(main, '..')), 'main.cjs')}${existsSync(`${main}.v8cache`) ? ' (code cache written)' : ''}\n`,
    );
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await buildAll();
