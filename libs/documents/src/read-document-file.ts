// SPDX-License-Identifier: AGPL-3.0-or-later
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { basename } from 'node:path';
import { AppError } from '@lectern/contracts';
import { readFileHandle } from '@lectern/runtime';
import { isInside } from './resolve-inside-roots.js';

export interface DocumentFile {
  bytes: Uint8Array;
  /** SHA-256 (hex) of `bytes`, fed in 8192-byte blocks as spec 000 FR-008 says. */
  sha256: string;
}

/**
 * Read a file already resolved inside the roots (`resolveInsideRoots`) once, from one descriptor: opened
 * without following a final symlink, checked on the descriptor (a regular file, at most `maxBytes`, its
 * real path still inside a root), read and hashed from that descriptor. The bytes then go to the
 * conversion, so the file is read and hashed once per ingest, and a file swapped after the check is
 * either refused or never read.
 */
export async function readDocumentFile(
  path: string,
  roots: readonly string[],
  maxBytes: number,
): Promise<DocumentFile> {
  const name = basename(path);
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(
    (e: unknown) => {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ELOOP')
        throw new AppError('forbidden_path', 'Path is not allowed: it became a symbolic link', { httpStatus: 403 });
      throw new AppError('file_not_found', `File not found: ${name}`, { httpStatus: 404, cause: e });
    },
  );
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new AppError('unsupported_file_type', `Not a regular file: ${name}`, { httpStatus: 415 });
    if (info.size > maxBytes)
      throw new AppError('too_large', `${name} is ${info.size} bytes (limit ${maxBytes})`, { httpStatus: 413 });
    // Linux names an open descriptor's file in /proc; elsewhere the checks above are what holds.
    const real = await realpath(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
    if (real !== undefined) {
      const realRoots = await Promise.all(roots.map((r) => realpath(r).catch(() => undefined)));
      if (!realRoots.some((r) => r !== undefined && isInside(real, r))) {
        throw new AppError('forbidden_path', 'Path is not allowed: outside the allowed document roots', {
          httpStatus: 403,
        });
      }
    }
    const content = await readFileHandle(handle, info.size);
    const hash = createHash('sha256');
    for (let i = 0; i < content.length; i += 8192) hash.update(content.subarray(i, i + 8192));
    return { bytes: content, sha256: hash.digest('hex') };
  } finally {
    await handle.close();
  }
}
