import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** SHA-256 (hex) of a file, read in 8192-byte blocks as spec 000 (FR-008) says. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 8192 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** SHA-256 (hex) of bytes already in memory, fed in the same 8192-byte blocks. */
export function sha256Bytes(bytes: Uint8Array): string {
  const hash = createHash('sha256');
  for (let i = 0; i < bytes.length; i += 8192) hash.update(bytes.subarray(i, i + 8192));
  return hash.digest('hex');
}
