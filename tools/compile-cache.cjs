// SPDX-License-Identifier: AGPL-3.0-or-later
// A V8 code cache for the CommonJS modules a compiled service loads (issue 27, docs/benchmarks/startup.md), preloaded
// by the launcher (`node --require tools/compile-cache.cjs dist/apps/<app>/src/main.cjs`): the services' start-up CPU
// goes mostly into compiling the npm packages' sources (`wrapSafe`), the same bytes at every start.
//
// Node 22.1+ does this itself (`module.enableCompileCache`, NODE_COMPILE_CACHE): there this file only turns it on.
// On Node 20 it wraps `Module.prototype._compile` the way the `v8-compile-cache` package does (not a dependency here;
// hand-written, ~60 lines): each module's source is compiled through `vm.Script` with the cached data kept in
// NODE_COMPILE_CACHE's directory (else <tmpdir>/lectern-node-compile-cache), one file per module keyed by its path and
// a hash of its source, so a changed file is compiled afresh; a cache that V8 rejects is rewritten. The cache is
// written 10 s after start (or at exit), so that it holds the functions the start-up compiled, not only top levels;
// past 20 000 entries (LECTERN_COMPILE_CACHE_MAX_ENTRIES) the directory is emptied first (~1 100 entries, ~6 MiB per
// version of the services). Any error of the
// cache itself (an unwritable directory) falls back to Node's own compile: it can only save time, never fail a start.
// LECTERN_COMPILE_CACHE=0 turns it off; LECTERN_COMPILE_CACHE_DEBUG=1 prints its hits and misses at exit.
'use strict';
const Module = require('node:module');
const { createHash } = require('node:crypto');
const { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { dirname, join } = require('node:path');
const { setTimeout } = require('node:timers');
const vm = require('node:vm');

const dir = process.env.NODE_COMPILE_CACHE || join(tmpdir(), 'lectern-node-compile-cache');

if (process.env.LECTERN_COMPILE_CACHE === '0') {
  // off
} else if (typeof Module.enableCompileCache === 'function') {
  Module.enableCompileCache(dir);
} else if (vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER !== undefined) {
  // the loader constant is flagged experimental on Node 20 (stable in 22): that one warning is not printed
  const emitWarning = process.emitWarning;
  process.emitWarning = function filtered(warning, ...rest) {
    if (String(warning).includes('USE_MAIN_CONTEXT_DEFAULT_LOADER')) return;
    return emitWarning.call(process, warning, ...rest);
  };
  const cacheDir = join(dir, `v8-${process.versions.v8}-${process.arch}`);
  let writable = true;
  try {
    mkdirSync(cacheDir, { recursive: true });
  } catch {
    writable = false;
  }
  /** @type {Array<{ script: import('node:vm').Script, file: string }>} */
  const pending = [];
  const stats = { hits: 0, misses: 0 };
  if (process.env.LECTERN_COMPILE_CACHE_DEBUG === '1')
    process.once('exit', () => process.stderr.write(`compile cache: ${stats.hits} hits, ${stats.misses} misses\n`));
  // bounded: entries of files that changed or moved (another version, another install) are never read again, so a
  // directory past this many entries is emptied before new ones are written (the next start fills it again)
  const maxEntries = Number(process.env.LECTERN_COMPILE_CACHE_MAX_ENTRIES) || 20_000;
  const flush = () => {
    if (pending.length === 0) return;
    try {
      const entries = readdirSync(cacheDir);
      if (entries.length + pending.length > maxEntries)
        for (const entry of entries) rmSync(join(cacheDir, entry), { force: true });
    } catch {
      return;
    }
    for (const { script, file } of pending.splice(0)) {
      try {
        const tmp = `${file}.${process.pid}.tmp`;
        writeFileSync(tmp, script.createCachedData());
        renameSync(tmp, file);
      } catch {
        return;
      }
    }
  };
  setTimeout(flush, Number(process.env.LECTERN_COMPILE_CACHE_DELAY_MS) || 10_000).unref();
  process.once('exit', flush);
  const original = Module.prototype._compile;
  Module.prototype._compile = function compileWithCache(content, filename) {
    // only plain CommonJS files from disk (not `node:` internals, not a source Node rewrote, not a JSON)
    if (!writable || typeof filename !== 'string' || (!filename.endsWith('.js') && !filename.endsWith('.cjs')))
      return original.call(this, content, filename);
    // a module that calls import(): V8 code compiled from a cache loses the dynamic import callback on Node 20
    // (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING, measured), so such a module is compiled by Node as usual
    if (content.includes('import(')) return original.call(this, content, filename);
    const key = createHash('sha1').update(filename).update('\0').update(content).digest('hex');
    const file = join(cacheDir, `${key}.bin`);
    let cachedData;
    try {
      cachedData = readFileSync(file);
    } catch {
      cachedData = undefined;
    }
    let script;
    try {
      script = new vm.Script(Module.wrap(content), {
        filename,
        cachedData,
        importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
      });
    } catch {
      return original.call(this, content, filename); // a syntax error: Node's own compile reports it
    }
    // written once the start-up has run (the functions compiled by then are in the cache, not only the top level)
    if (cachedData === undefined || script.cachedDataRejected) {
      pending.push({ script, file });
      stats.misses += 1;
    } else stats.hits += 1;
    const mod = this; // eslint-disable-line @typescript-eslint/no-this-alias -- the module the wrapper runs as
    const require = (id) => mod.require(id);
    require.resolve = (request, options) => Module._resolveFilename(request, mod, false, options);
    require.resolve.paths = (request) => Module._resolveLookupPaths(request, mod);
    require.main = process.mainModule;
    require.extensions = Module._extensions;
    require.cache = Module._cache;
    const wrapper = script.runInThisContext({ displayErrors: true });
    return wrapper.call(mod.exports, mod.exports, require, mod, filename, dirname(filename));
  };
}
