// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Bytes a producer has already read and hashed, handed to the processor of the same process by job id (the
 * in-process queue), so an embedded-mode ingest reads and hashes its file once. Distributed producers stage
 * the file in the shared data directory instead; nothing is handed over across processes.
 */
export class HandedOverFiles {
  private readonly byJob = new Map<string, { bytes: Uint8Array; sha256: string; holders: number }>();

  /** Keep `bytes` for `jobId` until every holder has released them. */
  hold(jobId: string, bytes: Uint8Array, sha256: string): void {
    const entry = this.byJob.get(jobId);
    if (entry) entry.holders += 1;
    else this.byJob.set(jobId, { bytes, sha256, holders: 1 });
  }

  get(jobId: string): { bytes: Uint8Array; sha256: string } | undefined {
    return this.byJob.get(jobId);
  }

  release(jobId: string): void {
    const entry = this.byJob.get(jobId);
    if (entry && --entry.holders <= 0) this.byJob.delete(jobId);
  }

  get size(): number {
    return this.byJob.size;
  }
}
