// SPDX-License-Identifier: AGPL-3.0-or-later
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** An upload left in `uploads/.incoming` longer than this is no request's any more (the longest upload: 20 × 30 s). */
export const STALE_INCOMING_MS = 15 * 60_000;

/**
 * Recovery at start: remove the partly received uploads a killed process left in `DATA_DIR/uploads/.incoming/`
 * (a request's private directory, normally removed when it is answered). Only entries untouched for
 * `olderThanMs` go: another service on the same DATA_DIR may be receiving one right now. Never throws; returns
 * what it removed.
 */
export const sweepStaleIncoming = async (
  dataDir: string,
  olderThanMs = STALE_INCOMING_MS,
  now = Date.now(),
): Promise<string[]> => {
  const dir = join(dataDir, 'uploads', '.incoming');
  const removed: string[] = [];
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    try {
      const info = await stat(join(dir, name));
      if (now - info.mtimeMs < olderThanMs) continue;
      await rm(join(dir, name), { recursive: true, force: true });
      removed.push(name);
    } catch {
      // gone meanwhile, or unreadable: the next start tries again
    }
  }
  return removed;
};
