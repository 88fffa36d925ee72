// SPDX-License-Identifier: AGPL-3.0-or-later
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@lectern/runtime';

/** What `writeIndex` and `writeEmbeddings` leave behind when their process dies mid-write (see doc-index.ts). */
const BUILD_LEFTOVER = /^\.(building|replaced)-/;
const EMBEDDINGS_LEFTOVER = /^\.embeddings-[0-9a-f]+\.json$/;

const olderThan = async (path: string, cutoff: number): Promise<boolean> =>
  stat(path).then(
    (s) => s.mtimeMs <= cutoff,
    () => false,
  );

/**
 * Start-up recovery of the document tools' index cache (issue 24). An index is never served half-written: it is
 * written into a `.building-*` directory renamed into place, and `index.json` is checked before use, so a build
 * killed mid-way leaves no index (the next `doc_index_build` builds it whole). What it does leave — the temporary
 * `.building-*`/`.replaced-*` directories and `.embeddings-*.json` files — is removed here when older than
 * `olderThanMs` (0 when this process owns DATA_DIR; the index timeout when replicas share it, so a build running
 * elsewhere keeps its directory). Returns how many were removed; idempotent.
 */
export const sweepInterruptedIndexBuilds = async (
  cacheDir: string,
  options: { olderThanMs: number; log: Logger; now?: number },
): Promise<number> => {
  const cutoff = (options.now ?? Date.now()) - options.olderThanMs;
  let entries: string[];
  try {
    entries = await readdir(cacheDir);
  } catch {
    return 0; // no cache yet
  }
  const leftovers: string[] = [];
  for (const name of entries) {
    const path = join(cacheDir, name);
    if (BUILD_LEFTOVER.test(name)) {
      if (await olderThan(path, cutoff)) leftovers.push(path);
      continue;
    }
    if (name.startsWith('.')) continue;
    const inside = await readdir(path).catch(() => [] as string[]);
    for (const file of inside)
      if (EMBEDDINGS_LEFTOVER.test(file) && (await olderThan(join(path, file), cutoff)))
        leftovers.push(join(path, file));
  }
  for (const path of leftovers) await rm(path, { recursive: true, force: true });
  if (leftovers.length > 0)
    options.log.warn(
      { removed: leftovers.length, cache_dir: cacheDir },
      'interrupted index builds removed from the cache (no index was served from them)',
    );
  return leftovers.length;
};
