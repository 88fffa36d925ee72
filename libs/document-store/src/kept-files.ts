// SPDX-License-Identifier: AGPL-3.0-or-later
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { BlobStore } from '@lectern/blob-store';

/**
 * The original PDFs of documents uploaded through `POST /api/documents` (issue 29): the upload itself is deleted after
 * its ingest, so a copy is kept for drawing the document's pages, and deleted with the document. Kept in the
 * platform's blob store (DATA_DIR/blobs when embedded, Redis when distributed, so every replica draws the pages),
 * with no expiry, bounded by the store's BLOB_MAX_BYTES per file and BLOB_QUOTA_BYTES in all.
 */
export interface KeptDocumentFiles {
  /** Keep the file at `path` as the original of `documentId` in `project` (replacing an older copy). */
  keep(project: string, documentId: string, path: string): Promise<void>;
  /** The kept original, or undefined when there is none. */
  get(project: string, documentId: string): Promise<Buffer | undefined>;
  /** Forget the kept original (nothing to do when there is none). */
  delete(project: string, documentId: string): Promise<void>;
}

/** Blob keys allow only `[A-Za-z0-9._-]` segments: a project and document id are hashed into one. */
const keyOf = (project: string, documentId: string): string =>
  `documents/originals/${createHash('sha256').update(`${project}\n${documentId}`).digest('hex')}.pdf`;

/** `blobs` is asked on first use: a service that never keeps an upload opens no blob store. */
export const blobKeptDocumentFiles = (blobs: () => BlobStore): KeptDocumentFiles => ({
  keep: async (project, documentId, path) => {
    await blobs().put(keyOf(project, documentId), createReadStream(path), { ttlMs: null });
  },
  get: (project, documentId) => blobs().get(keyOf(project, documentId)),
  delete: async (project, documentId) => {
    await blobs().delete(keyOf(project, documentId));
  },
});
