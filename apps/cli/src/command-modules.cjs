// SPDX-License-Identifier: AGPL-3.0-or-later
// Which module under `commands/` registers each top-level command of `lectern`. Read by cli.ts (which loads only
// the module a command line needs) and by the bin (apps/cli/bin/lectern.cjs, which runs the program compiled for
// that module): plain CommonJS, so that the bin reads it before anything can compile TypeScript and without
// starting Node's ES module loader.
'use strict';

/** Top-level command -> its module, `commands/<module>.command.ts`; help lists them in this order. */
const COMMAND_MODULES = Object.freeze({
  embed: 'embed',
  models: 'models',
  docstore: 'docstore',
  convert: 'convert',
  mcp: 'mcp',
  project: 'project',
  ingest: 'project',
  reindex: 'project',
  search: 'project',
  inspect: 'project',
  validate: 'project',
  rebuild: 'project',
  audit: 'project',
  extract: 'extract',
  policy: 'policy',
  queue: 'queue',
  start: 'start',
});

/**
 * The command modules a command line needs: the one of the command it names; none for `--version`; every one
 * otherwise (help, an unknown command), in help's order.
 * @param {readonly string[]} argv the arguments after the program name
 * @returns {string[]}
 */
function modulesFor(argv) {
  const named = argv.find((a) => !a.startsWith('-'));
  const all = [...new Set(Object.values(COMMAND_MODULES))];
  if (named !== undefined && Object.hasOwn(COMMAND_MODULES, named))
    return [COMMAND_MODULES[/** @type {keyof typeof COMMAND_MODULES} */ (named)]];
  if (named === undefined && argv.some((a) => a === '-V' || a === '--version')) return [];
  return all;
}

module.exports = { COMMAND_MODULES, modulesFor };
