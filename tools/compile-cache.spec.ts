// SPDX-License-Identifier: AGPL-3.0-or-later
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const HOOK = join(process.cwd(), 'tools', 'compile-cache.cjs');

/** The V8 code cache the launcher preloads into every service on Node 20 (tools/compile-cache.cjs). */
describe('tools/compile-cache.cjs', () => {
  let dir: string;
  const cacheDir = () => join(dir, 'cache');
  const run = (env: Record<string, string> = {}) => {
    const result = spawnSync(
      process.execPath,
      ['--require', HOOK, '-e', `require(${JSON.stringify(join(dir, 'main.cjs'))}).then((v) => console.log(v))`],
      {
        encoding: 'utf8',
        env: { ...process.env, NODE_COMPILE_CACHE: cacheDir(), LECTERN_COMPILE_CACHE_DEBUG: '1', ...env },
      },
    );
    expect({ status: result.status, stderr: result.status === 0 ? '' : result.stderr }).toEqual({
      status: 0,
      stderr: '',
    });
    return { out: result.stdout.trim(), stats: /compile cache: (\d+) hits, (\d+) misses/.exec(result.stderr) };
  };
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'compile-cache-'));
    writeFileSync(join(dir, 'dep.cjs'), 'module.exports = { answer: 42 };\n');
    // require, require.resolve and __dirname work from a cached module; one that calls import() (compiled by Node:
    // a cached one loses its import callback on Node 20) still imports
    writeFileSync(
      join(dir, 'main.cjs'),
      [
        "const { answer } = require('./dep.cjs');",
        "const resolved = require.resolve('./dep.cjs') === __dirname + '/dep.cjs';",
        "module.exports = require('./importer.cjs').then((kind) => `${answer} ${resolved} ${kind}`);",
      ].join('\n'),
    );
    writeFileSync(join(dir, 'importer.cjs'), "module.exports = import('./esm.mjs').then((m) => m.kind);\n");
    writeFileSync(join(dir, 'esm.mjs'), "export const kind = 'esm';\n");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const nodeHasItsOwn = typeof (nodeModule as unknown as Record<string, unknown>)['enableCompileCache'];

  it('compiles modules from the cache on the second start, and afresh when a file changed', () => {
    const first = run();
    expect(first.out).toBe('42 true esm');
    if (nodeHasItsOwn === 'function') return; // Node 22.1+: Node's own cache (not this hook's counts)
    expect(first.stats?.slice(1)).toEqual(['0', '2']);
    expect(readdirSync(readdirSync(cacheDir()).map((d) => join(cacheDir(), d))[0]!)).toHaveLength(2);
    const second = run();
    expect(second.out).toBe('42 true esm');
    expect(second.stats?.slice(1)).toEqual(['2', '0']);
    writeFileSync(join(dir, 'dep.cjs'), 'module.exports = { answer: 43 };\n');
    const changed = run();
    expect(changed.out).toBe('43 true esm');
    expect(changed.stats?.slice(1)).toEqual(['1', '1']);
    const entries = () => readdirSync(readdirSync(cacheDir()).map((d) => join(cacheDir(), d))[0]!);
    expect(entries()).toHaveLength(3); // dep.cjs's old entry stays until the directory is full
    // full (3 entries, at most 3): emptied, then the new entry written
    writeFileSync(join(dir, 'dep.cjs'), 'module.exports = { answer: 44 };\n');
    expect(run({ LECTERN_COMPILE_CACHE_MAX_ENTRIES: '3' }).out).toBe('44 true esm');
    expect(entries()).toHaveLength(1);
  });
});
