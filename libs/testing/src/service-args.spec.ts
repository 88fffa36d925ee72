// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './paths.js';
import { serviceArgs } from './service-args.js';

describe('serviceArgs (how a test starts a service process)', () => {
  let dir: string;
  let source: string;
  const entry = 'apps/converter/src/main.ts';
  const tsx = ['--import', 'tsx', entry];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lectern-service-args-'));
    source = join(dir, 'main.ts');
    writeFileSync(source, 'export {};');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const build = (builtMs: number, inputs = [source]): string => {
    const bundle = join(dir, 'converter.cjs');
    writeFileSync(bundle, '');
    writeFileSync(`${bundle}.json`, JSON.stringify({ builtMs, inputs }));
    return bundle;
  };

  it('runs the bundle, with the V8 code cache preloaded, when it was built after every one of its sources', () => {
    const bundle = build(Date.now() + 1000);
    expect(serviceArgs(entry, dir)).toEqual(['--require', join(repoRoot(), 'tools', 'compile-cache.cjs'), bundle]);
  });

  it('runs the TypeScript through tsx when a source changed after the build, or is gone', () => {
    const builtMs = Date.now();
    build(builtMs);
    utimesSync(source, new Date(builtMs + 5000), new Date(builtMs + 5000));
    expect(serviceArgs(entry, dir)).toEqual(tsx);
    build(Date.now() + 10_000, [join(dir, 'deleted.ts')]);
    expect(serviceArgs(entry, dir)).toEqual(tsx);
  });

  it('runs through tsx without a bundle or its record, and for an entry that is not an app', () => {
    expect(serviceArgs(entry, dir)).toEqual(tsx);
    writeFileSync(join(dir, 'converter.cjs'), '');
    expect(serviceArgs(entry, dir)).toEqual(tsx);
    build(Date.now() + 1000);
    expect(serviceArgs('libs/vector-store/src/embedded/crash-writer.fixture.ts', dir)).toEqual([
      '--import',
      'tsx',
      'libs/vector-store/src/embedded/crash-writer.fixture.ts',
    ]);
  });
});
