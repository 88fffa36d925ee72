// SPDX-License-Identifier: AGPL-3.0-or-later
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { AppError } from '@lectern/contracts';

export interface ResolvedPath {
  /** The real path (symlinks resolved) of the file or directory. */
  path: string;
  /** The real path of the allowed root that contains it. */
  root: string;
  /** The caller decides what a directory means (ingest refuses it; a CLI may walk it). */
  kind: 'file' | 'directory';
}

const FORBIDDEN = 'forbidden_path';

const forbidden = (reason: string): AppError =>
  new AppError(FORBIDDEN, `Path is not allowed: ${reason}`, { httpStatus: 403 });

const code = (e: unknown): string | undefined => (e as NodeJS.ErrnoException | undefined)?.code;

/** Is `child` (a real, normalised path) `root` itself or below it? `/data2` is not below `/data`. */
export function isInside(child: string, root: string): boolean {
  if (child === root) return true;
  const prefix = root.endsWith(sep) ? root : root + sep;
  return child.startsWith(prefix);
}

/**
 * Spec 000 / DESIGN "paths from clients are untrusted": resolve a client's `file_path` to its real path
 * and accept it only inside one of the allowed roots. Containment is decided on real paths, after every
 * symlink (of the path and of the roots) is resolved, so neither `..` nor a symlink can lead outside.
 *
 * - The path must be absolute and free of NUL bytes: otherwise `forbidden_path`.
 * - Roots are resolved against the working directory and through their symlinks; a root that does not
 *   exist contains nothing.
 * - A path that does not exist is `file_not_found`, but only once the part of it that does exist has been
 *   resolved inside a root: a missing path outside the roots is still `forbidden_path`, so the answer never
 *   tells what exists outside.
 * - Anything other than a regular file or directory (FIFO, socket, device) is `unsupported_file_type`.
 */
export async function resolveInsideRoots(inputPath: string, roots: readonly string[]): Promise<ResolvedPath> {
  if (typeof inputPath !== 'string' || inputPath === '') throw forbidden('the path is empty');
  if (inputPath.includes('\0')) throw forbidden('the path contains a NUL byte');
  if (!isAbsolute(inputPath)) throw forbidden('the path must be absolute');

  const realRoots: string[] = [];
  for (const root of roots) {
    if (root === '' || root.includes('\0')) continue;
    try {
      realRoots.push(await realpath(resolve(root)));
    } catch {
      // A missing or unreadable root allows nothing.
    }
  }
  const rootOf = (p: string): string | undefined => realRoots.find((r) => isInside(p, r));

  let real: string;
  try {
    real = await realpath(inputPath);
  } catch (e) {
    const c = code(e);
    if (c !== 'ENOENT' && c !== 'ENOTDIR') throw forbidden('the path cannot be resolved');
    // Resolve the longest existing ancestor, then append the missing rest lexically.
    const missing = await realMissingPath(inputPath);
    if (missing === undefined || !rootOf(missing)) throw forbidden('outside the allowed document roots');
    throw new AppError('file_not_found', `File not found: ${inputPath}`, { httpStatus: 404 });
  }

  const root = rootOf(real);
  if (!root) throw forbidden('outside the allowed document roots');
  const info = await stat(real).catch(() => {
    throw new AppError('file_not_found', `File not found: ${inputPath}`, { httpStatus: 404 });
  });
  if (info.isFile()) return { path: real, root, kind: 'file' };
  if (info.isDirectory()) return { path: real, root, kind: 'directory' };
  throw new AppError('unsupported_file_type', `Not a regular file: ${inputPath}`, { httpStatus: 415 });
}

/** Where a path that does not exist would be: its deepest existing ancestor's real path plus the rest. */
async function realMissingPath(inputPath: string): Promise<string | undefined> {
  const rest: string[] = [];
  let current = inputPath;
  for (;;) {
    const parent = dirname(current);
    rest.unshift(basename(current));
    if (parent === current) return undefined;
    try {
      return join(await realpath(parent), ...rest);
    } catch (e) {
      const c = code(e);
      if (c !== 'ENOENT' && c !== 'ENOTDIR') return undefined;
      current = parent;
    }
  }
}
