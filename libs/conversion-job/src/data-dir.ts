// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError, CommonErrorCodes } from '@lectern/contracts';
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';

const forbidden = (path: string): AppError =>
  new AppError(CommonErrorCodes.forbiddenPath, `Path "${path}" is not inside the shared data directory.`, {
    httpStatus: 403,
  });

const inside = (root: string, target: string): boolean => {
  const rel = relative(root, target);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
};

/**
 * Resolve a path from a job payload (relative to the shared DATA_DIR) to an absolute path inside it.
 * Payloads cross process boundaries, so they are untrusted: absolute paths, `..`, NUL bytes and symlinks
 * leading out of the directory are `forbidden_path`. A path that does not exist resolves lexically
 * (the caller then reports it missing).
 */
export const resolveDataPath = async (dataDir: string, relPath: string): Promise<string> => {
  if (relPath.includes('\0') || isAbsolute(relPath)) throw forbidden(relPath);
  const root = resolve(dataDir);
  const target = resolve(root, relPath);
  if (!inside(root, target)) throw forbidden(relPath);
  const realRoot = await realpath(root).catch(() => root);
  const realTarget = await realpath(target).catch(() => undefined);
  if (realTarget !== undefined && !inside(realRoot, realTarget)) throw forbidden(relPath);
  return target;
};

/** A file name safe to use as a path segment, keeping the extension (which selects the converter). */
export const safeFilename = (filename: string): string => {
  const base = filename.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}._ ()-]/gu, '_')
    .replace(/^\.+/, '')
    .slice(-200);
  return cleaned.length > 0 ? cleaned : 'document';
};
