// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  REGISTRY_COLLECTION_SUFFIX,
  RegistryEntrySchema as BaseEntrySchema,
  type DocumentRegistry,
} from '@lectern/documents';
import type { StoredPoint, VectorStore } from '@lectern/vector-store';
import { z } from 'zod';

/** Spec 000's registry fields plus what the store keeps for reports (counts and page total). */
export const RegistryEntrySchema = BaseEntrySchema.extend({
  total_chars: z.number().int().nonnegative(),
  total_words: z.number().int().nonnegative(),
  page_count: z.number().int().nonnegative(),
});
export type RegistryEntry = z.infer<typeof RegistryEntrySchema>;

export const REGISTRY_SUFFIX = REGISTRY_COLLECTION_SUFFIX;
const REGISTRY_FINGERPRINT = { model_id: 'lectern-registry', revision: 'v1', dimension: 1, normalized: true };

export const registryCollection = (project: string): string => `${project}${REGISTRY_SUFFIX}`;

/**
 * The document registry of a project (spec 000 FR-008's `document_registry`), kept where the chunks are:
 * a payload-only collection `<project>__registry` in the same vector store (embedded SQLite or Qdrant), as
 * the spec keeps it in ChromaDB with placeholder vectors. One code path for both modes; entries are written
 * last, so the registry never believes in chunks that were not fully stored.
 */
export class VectorStoreDocumentRegistry implements DocumentRegistry {
  private readonly name: string;

  constructor(
    private readonly store: VectorStore,
    project: string,
  ) {
    this.name = registryCollection(project);
  }

  async put(entry: RegistryEntry): Promise<void> {
    const parsed = RegistryEntrySchema.parse(entry);
    await this.store.ensureCollection(this.name, { fingerprint: REGISTRY_FINGERPRINT, hybrid: false });
    await this.store.upsert(
      this.name,
      [{ id: parsed.document_id, vector: [1], payload: parsed, text: parsed.source_file }],
      {
        fingerprint: REGISTRY_FINGERPRINT,
      },
    );
  }

  async get(documentId: string): Promise<RegistryEntry | undefined> {
    return (await this.query({ document_id: documentId }, 1))[0];
  }

  async findByHash(applicationRef: string, fileHash: string): Promise<RegistryEntry | undefined> {
    return (await this.query({ application_ref: applicationRef, file_hash: fileHash }, 1))[0];
  }

  listByApplication(applicationRef: string): Promise<RegistryEntry[]> {
    return this.query({ application_ref: applicationRef });
  }

  listAll(): Promise<RegistryEntry[]> {
    return this.query();
  }

  async delete(documentId: string): Promise<boolean> {
    if (!(await this.store.getCollection(this.name))) return false;
    return (await this.store.deleteByIds(this.name, [documentId])) > 0;
  }

  private async query(filter?: Record<string, string>, limit?: number): Promise<RegistryEntry[]> {
    if (!(await this.store.getCollection(this.name))) return [];
    const out: RegistryEntry[] = [];
    let cursor: string | null = null;
    do {
      const page: { points: StoredPoint[]; next: string | null } = await this.store.scroll(this.name, {
        ...(filter ? { filter } : {}),
        limit: limit ?? 500,
        cursor,
      });
      out.push(...page.points.map((p) => RegistryEntrySchema.parse(p.payload)));
      cursor = limit && out.length >= limit ? null : page.next;
    } while (cursor);
    return out.sort((a, b) => a.ingested_at.localeCompare(b.ingested_at) || a.document_id.localeCompare(b.document_id));
  }
}
