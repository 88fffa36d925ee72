// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sourceApps, staleReason } from './build-state.mjs';

type BuildInfo = { version: string; builtMs: number; apps: string[]; programs: string[]; inputs: string[] };
const stale = staleReason as (info: BuildInfo | null, root: string) => string | null;

/** Issue 27: `npm start` builds first when the build is stale, from a few `stat`s. */
describe('tools/build-state.mjs', () => {
  let root: string;
  const info = (builtMs: number): BuildInfo => ({
    version: '0.0.0',
    builtMs,
    apps: ['alpha', 'beta'],
    programs: [],
    inputs: ['tsconfig.json', 'apps/alpha/src/main.ts', 'apps/beta/src/main.ts'],
  });
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'lectern-build-state-'));
    for (const app of ['alpha', 'beta', 'cli']) {
      await mkdir(join(root, 'apps', app, 'src'), { recursive: true });
      await writeFile(join(root, 'apps', app, 'src', 'main.ts'), '');
    }
    await writeFile(join(root, 'tsconfig.json'), '{}');
    const past = new Date(Date.now() - 60_000);
    for (const f of ['tsconfig.json', 'apps/alpha/src/main.ts', 'apps/beta/src/main.ts'])
      await utimes(join(root, f), past, past);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('finds every app but the command line', () => {
    expect((sourceApps as (root: string) => string[])(root)).toEqual(['alpha', 'beta']);
  });

  it('is current when nothing changed since the build, stale when there is none', () => {
    expect(stale(info(Date.now()), root)).toBeNull();
    expect(stale(null, root)).toBe('no build yet');
  });

  it('is stale when a source is newer than the build or gone, or an app was added', async () => {
    const built = info(Date.now() - 30_000);
    expect(stale(built, root)).toBeNull();
    await writeFile(join(root, 'apps', 'beta', 'src', 'main.ts'), 'export {};');
    expect(stale(built, root)).toBe('apps/beta/src/main.ts changed');
    await rm(join(root, 'apps', 'beta', 'src', 'main.ts'));
    expect(stale(info(Date.now()), root)).toBe('the apps changed');
    await writeFile(join(root, 'apps', 'beta', 'src', 'main.ts'), '');
    await mkdir(join(root, 'apps', 'gamma', 'src'), { recursive: true });
    await writeFile(join(root, 'apps', 'gamma', 'src', 'main.ts'), '');
    expect(stale(info(Date.now()), root)).toBe('the apps changed');
  });

  it('an installed package (no sources) runs the build it was packed with', async () => {
    await rm(join(root, 'tsconfig.json'));
    expect(stale({ ...info(0), inputs: ['libs/gone.ts'] }, root)).toBeNull();
  });
});
