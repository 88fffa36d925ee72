// SPDX-License-Identifier: AGPL-3.0-or-later
import { corporaDir, corpusFile, corpusTier, sharedDir, sharedModelDir } from './paths.js';

describe('libs/testing paths in the plain tier', () => {
  it('is the plain tier (set by tools/jest/plain-tier.setup.mjs)', () => {
    expect(process.env['LECTERN_TEST_TIER']).toBe('plain');
    expect(corpusTier()).toBe(false);
  });

  it('refuses every read of ../shared, saying how to fix the test', () => {
    for (const read of [
      () => sharedDir(),
      () => corporaDir(),
      () => corpusFile('x.pdf'),
      () => sharedModelDir('potion-base-2M'),
    ]) {
      expect(read).toThrow(/read from a plain-tier test: name the spec \*\.corpus\.spec\.ts/);
    }
  });

  it('in the corpus tier, finds ../shared through LECTERN_SHARED_DIR and names a missing file', () => {
    const saved = { ...process.env };
    try {
      process.env['LECTERN_TEST_TIER'] = 'corpus';
      process.env['LECTERN_SHARED_DIR'] = '/nonexistent/shared';
      delete process.env['CORPORA_DIR'];
      expect(sharedDir()).toBe('/nonexistent/shared');
      expect(() => corpusFile('a', 'b.pdf')).toThrow('corpus file missing: /nonexistent/shared/corpora/a/b.pdf');
      expect(() => sharedModelDir('potion-base-2M')).toThrow(
        'shared model missing: /nonexistent/shared/models/potion-base-2M',
      );
    } finally {
      for (const k of ['LECTERN_TEST_TIER', 'LECTERN_SHARED_DIR', 'CORPORA_DIR']) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
    }
  });
});
