// SPDX-License-Identifier: AGPL-3.0-or-later
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { repositorySourcesPlugin } from './esm-bundle.mjs';

const fixture = fileURLToPath(new URL('./shadowed-require.fixture.ts', import.meta.url));

describe('repositorySourcesPlugin, relocatable CommonJS', () => {
  let outDir: string;
  beforeAll(() => {
    outDir = mkdtempSync(join(tmpdir(), 'lectern-esm-bundle-'));
  });
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it("gives a module its own URL even where a local named `require` shadows the module's", async () => {
    const outfile = join(outDir, 'bundle.cjs');
    await build({
      entryPoints: [fixture],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile,
      logLevel: 'silent',
      plugins: [repositorySourcesPlugin({ relocatable: { outDir, format: 'cjs' } })],
    });
    const printed = execFileSync(process.execPath, [outfile], { encoding: 'utf8' }).trim();
    expect(printed).toBe(`url:${pathToFileURL(fixture).href}`);
  });
});
