// SPDX-License-Identifier: AGPL-3.0-or-later
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '@lectern/testing';
import { buildUi, UI_BUDGET_GZIP_BYTES, UI_SOURCE_DIR } from './ui-build.js';

describe('console UI build', () => {
  let outDir: string;
  beforeAll(() => {
    outDir = mkdtempSync(join(tmpdir(), 'console-build-'));
  });
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('bundles the UI within its budget: the first page is under 300 KB gzip, with no inline script', async () => {
    const built = await buildUi(outDir);
    expect(built.gzipBytes['app.js']).toBeGreaterThan(10_000);
    expect(built.totalGzipBytes).toBeLessThan(UI_BUDGET_GZIP_BYTES);
    const html = readFileSync(join(outDir, 'index.html'), 'utf8');
    // every script is a file of the console's own origin (the CSP allows nothing else)
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBe(1);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/src="\/[^"]+"/);
      expect(body!.trim()).toBe('');
    }
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('type-checks (the UI has its own tsconfig: DOM types and preact JSX)', () => {
    const tsc = spawnSync(
      process.execPath,
      [join(repoRoot(), 'node_modules/typescript/bin/tsc'), '-p', join(UI_SOURCE_DIR, 'tsconfig.json'), '--noEmit'],
      { encoding: 'utf8' },
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });
});
