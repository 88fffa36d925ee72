// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import setup from './corpus-tier.global-setup.mjs';

describe('npm run test:corpus: global setup', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const k of ['LECTERN_SHARED_DIR', 'SHARED_DIR', 'CORPORA_DIR']) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  it('fails the run, naming each missing directory, when ../shared is not there', async () => {
    process.env['LECTERN_SHARED_DIR'] = '/nonexistent/shared';
    delete process.env['CORPORA_DIR'];
    await expect(setup()).rejects.toThrow(
      /missing: corpora at \/nonexistent\/shared\/corpora, models at \/nonexistent\/shared\/models/,
    );
  });

  it('passes when the corpora and models directories exist (CORPORA_DIR may point elsewhere)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'lectern-shared-'));
    try {
      mkdirSync(join(root, 'models'));
      mkdirSync(join(root, 'docs'));
      process.env['LECTERN_SHARED_DIR'] = root;
      process.env['CORPORA_DIR'] = join(root, 'docs');
      await expect(setup()).resolves.toBeUndefined();
      process.env['CORPORA_DIR'] = join(root, 'elsewhere');
      await expect(setup()).rejects.toThrow(/missing: corpora at .*elsewhere/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
