// SPDX-License-Identifier: AGPL-3.0-or-later
// The jest runtime with V8 code caches (code-cache-runtime.cjs): a real jest run of two test files in one worker,
// importing the same ES module and CommonJS module — the second file's modules are compiled from the cache, and
// still run as compiled (dynamic imports included, which Node 20 loses on a cached compile); and two jest processes
// sharing the caches through a directory (LECTERN_TEST_CODE_CACHE_DIR).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const repo = join(import.meta.dirname, '..', '..');

const testFile = `
import { twice } from './esm-fixture.mjs';
import cjs from './cjs-fixture.cjs';
import lazyCjs from './lazy-cjs.cjs';

test('modules compiled from the cache run as compiled', async () => {
  expect(twice(21)).toBe(42);
  expect(cjs.triple(2)).toBe(6);
  // dynamic imports from an ES module and from a CommonJS module
  expect(await (await import('./dynamic-fixture.mjs')).load()).toBe('lazy');
  expect(await lazyCjs.lazyValue()).toBe('lazy');
  // a CommonJS module's stack frames keep their lines and columns (line 1, column of \`new Error\`: 30)
  expect(() => cjs.fail()).toThrow(expect.objectContaining({ stack: expect.stringContaining('cjs-fixture.cjs:1:30)') }));
});
`;

const files: Record<string, string> = {
  'a.spec.mjs': testFile,
  'b.spec.mjs': testFile,
  'esm-fixture.mjs': 'export const twice = (n) => [n, n].reduce((a, b) => a + b, 0);\n',
  'cjs-fixture.cjs': "exports.fail = () => { throw new Error('here'); };\nexports.triple = (n) => n * 3;\n",
  'lazy-cjs.cjs': "exports.lazyValue = () => import('./lazy.mjs').then((m) => m.value);\n",
  'dynamic-fixture.mjs': "export const load = async () => (await import('./lazy.mjs')).value;\n",
  'lazy.mjs': "export const value = 'lazy';\n",
};

describe('code-cache-runtime', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'lectern-code-cache-'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** jest in band over the fixtures (or those matching `pattern`), logging each test file's cache use to `stats`. */
  const runJest = (stats: string, env: Record<string, string>, pattern?: string) => {
    const config = {
      rootDir: dir,
      runtime: join(repo, 'tools', 'jest', 'code-cache-runtime.cjs'),
      testMatch: ['<rootDir>/*.spec.mjs'],
      transform: {},
      testEnvironment: 'node',
    };
    return spawnSync(
      process.execPath,
      ['--experimental-vm-modules', '--no-warnings', join(repo, 'node_modules', 'jest', 'bin', 'jest.js')].concat([
        '--config',
        JSON.stringify(config),
        '--runInBand',
        '--ci',
        '--no-watchman',
        '--cacheDirectory',
        join(dir, 'jest-cache'),
        ...(pattern ? [pattern] : []),
      ]),
      { cwd: repo, encoding: 'utf8', env: { ...process.env, LECTERN_TEST_CODE_CACHE_STATS: stats, ...env } },
    );
  };

  type Stats = { hits: string[]; misses: string[]; resolved: string[]; fromDisk: string[] };
  /** per test file: the files it compiled from a cache and without one (fixtures of this dir only) */
  const readStats = (stats: string) => {
    const ours = (list: string[]) => list.filter((f) => f.startsWith(dir)).map((f) => f.slice(dir.length + 1));
    return readFileSync(stats, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Stats)
      .map((s) => ({
        hits: ours(s.hits).sort(),
        misses: ours(s.misses).sort(),
        resolved: ours(s.resolved).sort(),
        fromDisk: ours(s.fromDisk).sort(),
      }));
  };
  const cacheable = ['cjs-fixture.cjs', 'esm-fixture.mjs', 'lazy.mjs'];

  it('compiles the second test file’s modules from the first one’s cache, and they run the same', () => {
    const stats = join(dir, 'stats.txt');
    // memory only: no shared directory, whatever the run around this test set
    const run = runJest(stats, { LECTERN_TEST_CODE_CACHE_DIR: '' });
    expect(run.stderr).toMatch(/Tests:\s+2 passed, 2 total/);
    expect(run.status).toBe(0);
    const [first, second] = readStats(stats);
    expect(first).toEqual({ hits: [], misses: cacheable, resolved: [], fromDisk: [] });
    // sources with import() (the test files, dynamic-fixture.mjs, lazy-cjs.cjs) are never compiled with a cache;
    // the fixtures' own imports of ./lazy.mjs are resolved as the first file resolved them
    expect(second).toEqual({ hits: cacheable, misses: [], resolved: ['lazy.mjs', 'lazy.mjs'], fromDisk: [] });
  });

  it('shares the caches between processes through LECTERN_TEST_CODE_CACHE_DIR: a new worker compiles nothing again', () => {
    const shared = mkdtempSync(join(tmpdir(), 'lectern-code-cache-shared-'));
    try {
      const env = { LECTERN_TEST_CODE_CACHE_DIR: shared };
      const firstStats = join(dir, 'stats-first.txt');
      const secondStats = join(dir, 'stats-second.txt');
      // two jest processes one after the other, each running one test file: the second starts with an empty memory
      const first = runJest(firstStats, env, 'a\\.spec');
      expect(first.stderr).toMatch(/Tests:\s+1 passed, 1 total/);
      expect(readStats(firstStats)).toEqual([{ hits: [], misses: cacheable, resolved: [], fromDisk: [] }]);
      // one cache file a cacheable module (and each npm module jest loads into the test file), none half-written
      expect(readdirSync(shared).filter((f) => /^[0-9a-f]{40}$/.test(f)).length).toBeGreaterThanOrEqual(3);
      expect(readdirSync(shared).filter((f) => f.endsWith('.tmp'))).toEqual([]);
      const second = runJest(secondStats, env, 'a\\.spec');
      expect(second.stderr).toMatch(/Tests:\s+1 passed, 1 total/);
      expect(second.status).toBe(0);
      expect(readStats(secondStats)).toEqual([{ hits: cacheable, misses: [], resolved: [], fromDisk: cacheable }]);
    } finally {
      rmSync(shared, { recursive: true, force: true });
    }
  });
});
