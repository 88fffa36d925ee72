// SPDX-License-Identifier: AGPL-3.0-or-later
import type { FileHandle } from 'node:fs/promises';

/**
 * Up to `size` bytes of an open file from its start (the size its `stat()` gave): one buffer, filled from the
 * descriptor until it is full or the file ends, so a file that grows after the check is never read past `size`.
 */
export async function readFileHandle(handle: FileHandle, size: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(size);
  let filled = 0;
  while (filled < bytes.length) {
    const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled === bytes.length ? bytes : bytes.subarray(0, filled);
}
