// SPDX-License-Identifier: AGPL-3.0-or-later
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sweepStaleIncoming } from './sweep-incoming.js';

describe('sweepStaleIncoming (recovery at start)', () => {
  it('removes uploads a killed process left half received, never a recent one (another request may own it)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sweep-incoming-'));
    try {
      expect(await sweepStaleIncoming(dataDir)).toEqual([]); // no uploads dir at all
      const incoming = join(dataDir, 'uploads', '.incoming');
      for (const name of ['old', 'fresh']) {
        mkdirSync(join(incoming, name), { recursive: true });
        writeFileSync(join(incoming, name, 'a.pdf'), 'partial');
      }
      const hourAgo = new Date(Date.now() - 3_600_000);
      utimesSync(join(incoming, 'old'), hourAgo, hourAgo);
      expect(await sweepStaleIncoming(dataDir)).toEqual(['old']);
      expect(readdirSync(incoming)).toEqual(['fresh']);
      expect(existsSync(join(dataDir, 'uploads'))).toBe(true);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
