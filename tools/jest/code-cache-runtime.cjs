// SPDX-License-Identifier: AGPL-3.0-or-later
// jest's runtime (jest-runtime), keeping V8's compiled code of every module a jest worker loads, so that the next
// test file in the same worker does not parse and compile it again.
//
// Every test file gets its own module registry: each file evaluates its whole module graph again (the repository's
// libraries and the npm packages they import: fastify, zod, bullmq, the MCP SDK…), and jest compiles each module
// from its source again for that — `vm.compileFunction` for CommonJS, a `vm.SourceTextModule` for ES modules, both
// without a code cache. Here, per worker process and in memory only:
// - CommonJS: the module is compiled as a `vm.Script` of the same wrapper function jest compiles (same parameters,
//   the source on the wrapper's first line so its lines and columns stay as they are), with V8's code cache of an
//   earlier compile of the same file and source; after the module's first run the cache is taken again, now holding the
//   functions V8 compiled lazily while it ran.
// - ES modules: `vm.SourceTextModule` is given the code cache of an earlier construction of the same file and
//   source (taken before evaluation, as V8 requires for modules).
// What runs is unchanged: the same source, evaluated afresh in the file's own registry and context; only V8's
// compilation is skipped. A cache V8 rejects (another V8 version or flags) is dropped and the module compiled as
// jest would. docs/benchmarks/test-suite.md, round 5.
// When LECTERN_TEST_CODE_CACHE_DIR names a directory (the plain tier's globalSetup makes one per run), the caches
// are also written there, one file per key, and a worker looks there before compiling: the run's workers share
// them, so a worker started late (or replaced for its heap) does not compile again what another already compiled
// (round 6). Written aside and renamed, so a reader sees a whole file or none.
'use strict';

const vm = require('node:vm');
const { createHash } = require('node:crypto');
const { appendFileSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const JestRuntime = require('jest-runtime').default;

/** @type {Map<string, Buffer>} code caches of this worker, by file and a digest of its (transformed) source */
const codeCache = new Map();

/** The directory of the run's shared caches, or undefined (memory only). */
const diskDir = process.env['LECTERN_TEST_CODE_CACHE_DIR'] || undefined;

/** @param {string} key */
const diskPath = (key) => join(/** @type {string} */ (diskDir), createHash('sha1').update(key).digest('hex'));

/**
 * The code cache of a key: this worker's, else the run's on disk (kept in memory from then on).
 * @param {string} key @param {string} file
 */
const lookup = (key, file) => {
  const inMemory = codeCache.get(key);
  if (inMemory || !diskDir) return inMemory;
  let data;
  try {
    data = readFileSync(diskPath(key));
  } catch {
    return undefined;
  }
  codeCache.set(key, data);
  stats.fromDisk.push(file);
  return data;
};

/** @param {string} key @param {Buffer} data */
const keep = (key, data) => {
  codeCache.set(key, data);
  if (!diskDir) return;
  const path = diskPath(key);
  const aside = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(aside, data);
    renameSync(aside, path);
  } catch {
    // a full or vanished directory costs only the sharing
  }
};

/** The files compiled from a cache (hits) and without one (misses) in the current test file, for the spec. */
let stats = {
  hits: /** @type {string[]} */ ([]),
  misses: /** @type {string[]} */ ([]),
  resolved: /** @type {string[]} */ ([]),
  /** hits whose cache this worker read from the run's directory (another worker, or an earlier one, compiled it) */
  fromDisk: /** @type {string[]} */ ([]),
};

/**
 * Node 20 loses a module's dynamic-import callback when it is compiled from a code cache (`import()` then fails:
 * "A dynamic import callback was not specified"), for `vm.Script` and `vm.SourceTextModule` alike. Sources that
 * may import dynamically (or eval code that might) are compiled as jest compiles them, without a cache; a false
 * match only costs the cache.
 */
const mayImportDynamically = (source) => /\bimport\s*\(|\beval\s*\(/.test(source);

/** @param {string} filename @param {string} source */
const cacheKey = (filename, source) => `${filename}\0${createHash('sha1').update(source).digest('base64')}`;

const NativeSourceTextModule = vm.SourceTextModule;

if (NativeSourceTextModule && !NativeSourceTextModule.lecternCodeCache) {
  /** jest-runtime constructs its ES modules as `new vm.SourceTextModule(code, options)`, read from `vm` each time. */
  class CachedSourceTextModule extends NativeSourceTextModule {
    static lecternCodeCache = true;

    /** @param {string} source @param {vm.SourceTextModuleOptions} [options] */
    constructor(source, options = {}) {
      const key =
        typeof options.identifier === 'string' && !mayImportDynamically(source)
          ? cacheKey(options.identifier, source)
          : undefined;
      const cachedData = key === undefined ? undefined : lookup(key, options.identifier);
      if (cachedData) {
        try {
          super(source, { ...options, cachedData });
          stats.hits.push(options.identifier);
          return;
        } catch {
          codeCache.delete(key);
        }
      }
      super(source, options);
      if (key === undefined) return;
      stats.misses.push(options.identifier);
      keep(key, this.createCachedData());
    }
  }
  vm.SourceTextModule = CachedSourceTextModule;
}

/**
 * Resolved paths by project resolver, module system ('esm' | 'cjs'), referrer and specifier. jest's resolver caches
 * what it resolves across a worker's test files, except names a `moduleNameMapper` entry matches — here every
 * `@lectern/*` import and every relative `./x.js` one — which it resolves again from the file system, with stat
 * calls, for every import of every test file. Only successful resolutions are kept (a missing module still fails
 * as it would, and is looked up again).
 * @type {WeakMap<object, Map<string, string>>}
 */
const resolved = new WeakMap();

class CodeCacheRuntime extends JestRuntime {
  /** @param {object} resolver @param {string} kind @param {string} from @param {string} to */
  static resolvedCache(resolver, kind, from, to) {
    let cache = resolved.get(resolver);
    if (!cache) resolved.set(resolver, (cache = new Map()));
    return { cache, key: `${kind}\0${from}\0${to}` };
  }

  /** @param {string} from @param {string | undefined} to */
  async _resolveModule(from, to) {
    if (!to) return super._resolveModule(from, to);
    const { cache, key } = CodeCacheRuntime.resolvedCache(this._resolver, 'esm', from, to);
    const hit = cache.get(key);
    if (hit !== undefined) {
      stats.resolved.push(hit);
      return hit;
    }
    const path = await super._resolveModule(from, to);
    cache.set(key, path);
    return path;
  }

  /** @param {string} from @param {string | undefined} to */
  _resolveCjsModule(from, to) {
    if (!to) return super._resolveCjsModule(from, to);
    const { cache, key } = CodeCacheRuntime.resolvedCache(this._resolver, 'cjs', from, to);
    const hit = cache.get(key);
    if (hit !== undefined) {
      stats.resolved.push(hit);
      return hit;
    }
    const path = super._resolveCjsModule(from, to);
    cache.set(key, path);
    return path;
  }

  /**
   * jest's own `createScriptFromCode`, compiling with a code cache. Returns the module's wrapper function, or null
   * once the environment has been torn down (as jest's does).
   * @param {string} scriptSource
   * @param {string} filename
   */
  createScriptFromCode(scriptSource, filename) {
    const vmContext = this._environment.getVmContext();
    if (vmContext == null) return null;
    if (this._resolver.isCoreModule(filename) || mayImportDynamically(scriptSource)) {
      return super.createScriptFromCode(scriptSource, filename);
    }
    const parameters = this.constructInjectedModuleParameters();
    // the source starts on the wrapper's first line, right after it, so that with the negative column offset its
    // lines and columns in stack traces are those jest's compileFunction gives
    const prefix = `(function (${parameters.join(', ')}) {`;
    const wrapped = `${prefix}${scriptSource}\n})`;
    const key = cacheKey(filename, wrapped);
    const cachedData = lookup(key, filename);
    let script;
    try {
      script = new vm.Script(wrapped, {
        filename,
        columnOffset: -prefix.length,
        cachedData,
      });
    } catch {
      // a syntax error, reported by jest's own compile exactly as without this runtime
      return super.createScriptFromCode(scriptSource, filename);
    }
    if (cachedData && script.cachedDataRejected) codeCache.delete(key);
    const compiled = script.runInContext(vmContext);
    if (cachedData && !script.cachedDataRejected) {
      stats.hits.push(filename);
      return compiled;
    }
    stats.misses.push(filename);
    // first compile of this source in this worker: keep the cache once the module has run (lazy functions included)
    return function runAndKeepCache(...args) {
      try {
        return compiled.apply(this, args);
      } finally {
        keep(key, script.createCachedData());
      }
    };
  }

  /** @param {ConstructorParameters<typeof JestRuntime>} args */
  constructor(...args) {
    super(...args);
    stats = { hits: [], misses: [], resolved: [], fromDisk: [] }; // a jest worker runs one test file at a time
  }

  teardown() {
    super.teardown();
    // one JSON line per test file: which files it compiled from a cache and which without, and how many imports
    // it resolved from the cache (the runtime's spec)
    const file = process.env['LECTERN_TEST_CODE_CACHE_STATS'];
    if (file) appendFileSync(file, `${JSON.stringify({ test: this._testPath, ...stats })}\n`);
  }
}

module.exports = CodeCacheRuntime;
module.exports.default = CodeCacheRuntime;
