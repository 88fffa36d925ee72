// SPDX-License-Identifier: AGPL-3.0-or-later
import { lstat, readdir, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The two directories conversions write into the shared data directory; the quota and the expiry cover both. In
 * `uploads` only the conversion job's own entries count — `.incoming/<uuid>` and the content-addressed
 * `<sha256>/` — since other services keep their uploads there too and must not lose them to this sweep
 * (extraction tasks under `uploads/<task_id>/` as spec 003 places them, policy revisions under `uploads/policies/`).
 */
const AREAS: ReadonlyArray<{ dir: string; owns: (name: string) => boolean }> = [
  { dir: 'uploads', owns: (name) => name === '.incoming' || /^[0-9a-f]{64}$/.test(name) },
  { dir: 'conversions', owns: () => true },
];

interface Walked {
  path: string;
  size: number;
  mtimeMs: number;
}

/** Files under `dir` (symlinks are not followed: only what is stored here counts), depth-first; `owns` picks the top-level entries. */
async function* walk(dir: string, owns: (name: string) => boolean = () => true): AsyncGenerator<Walked> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!owns(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else {
      const info = await lstat(path).catch(() => undefined);
      if (info) yield { path, size: info.size, mtimeMs: info.mtimeMs };
    }
  }
}

/** Bytes stored in `DATA_DIR/uploads` and `DATA_DIR/conversions` (what the disk quota limits). */
export const conversionStorageBytes = async (dataDir: string): Promise<number> => {
  let total = 0;
  for (const area of AREAS) for await (const file of walk(join(dataDir, area.dir), area.owns)) total += file.size;
  return total;
};

/** Empty directories under `dir` (not `dir` itself) unchanged since `before`, deepest first (a new one may be about to fill). */
const removeEmptyDirs = async (
  dir: string,
  before: number,
  owns: (name: string) => boolean = () => true,
): Promise<void> => {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isDirectory() || !owns(entry.name)) continue;
    const path = join(dir, entry.name);
    await removeEmptyDirs(path, before);
    const info = await lstat(path).catch(() => undefined);
    if (info && info.mtimeMs < before) await rmdir(path).catch(() => undefined);
  }
};

/**
 * Delete conversion results and uploads older than `ttlMs` (by modification time): results a client did not
 * fetch in time, and uploads a crashed or stalled job left behind. Returns how many files were deleted.
 */
export const sweepConversionStorage = async (dataDir: string, ttlMs: number, now = Date.now()): Promise<number> => {
  let removed = 0;
  for (const area of AREAS) {
    for await (const file of walk(join(dataDir, area.dir), area.owns)) {
      if (now - file.mtimeMs <= ttlMs) continue;
      await rm(file.path, { force: true });
      removed += 1;
    }
    await removeEmptyDirs(join(dataDir, area.dir), now - Math.min(ttlMs, 60_000), area.owns);
  }
  return removed;
};

export interface StorageJanitor {
  stop(): void;
}

/** Sweeps expired conversion files every `intervalMs` (the timer never keeps the process alive). */
export const startStorageJanitor = (options: {
  dataDir: string;
  ttlMs: number;
  intervalMs: number;
  onError?: (error: unknown) => void;
  onSwept?: (removed: number) => void;
}): StorageJanitor => {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweepConversionStorage(options.dataDir, options.ttlMs)
      .then((removed) => (removed > 0 ? options.onSwept?.(removed) : undefined), options.onError)
      .finally(() => {
        running = false;
      });
  }, options.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
};
