// SPDX-License-Identifier: AGPL-3.0-or-later
import { randomUUID } from 'node:crypto';
import { isAppError } from '@lectern/contracts';
import type { Logger } from '@lectern/runtime';
import type { StoredPoint, VectorStore } from '@lectern/vector-store';
import { z } from 'zod';

/** Spec 004 FR-013's audit log: an internal payload-only collection in the same store (never a project). */
export const AUDIT_COLLECTION = 'lectern__audit';
const AUDIT_FINGERPRINT = { model_id: 'lectern-audit', revision: 'v1', dimension: 1, normalized: true };

export const AuditDocumentSchema = z.object({
  doc_id: z.string().nullable(),
  /** The file ingested, relative to the run's root; absent for `store_chunks` (the client made the chunks). */
  file: z.string().optional(),
  chunks: z.number().int().nonnegative(),
  written: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
  citekey: z.string().nullable().optional(),
  duration_ms: z.number().nonnegative(),
  error: z.string().optional(),
});

export const AuditRecordSchema = z.object({
  id: z.string(),
  kind: z.enum(['ingest', 'reindex', 'rebuild', 'retrieval']),
  project: z.string(),
  /** ISO time the run or query started. */
  at: z.string(),
  duration_ms: z.number().nonnegative(),
  /** `model_id@revision` the run wrote (or the query searched) with. */
  model: z.string().optional(),
  /** Ingest/reindex/rebuild: one entry per document processed (a zero-chunk document has chunks 0). */
  documents: z.array(AuditDocumentSchema).optional(),
  totals: z
    .object({
      documents: z.number().int(),
      chunks: z.number().int(),
      written: z.number().int(),
      removed: z.number().int(),
      errors: z.number().int(),
    })
    .optional(),
  /** Rebuild: the steps taken, in order. */
  steps: z.array(z.string()).optional(),
  /** Retrieval: enough to replay the answer (`tool` also names an MCP write: `store_chunks`). */
  tool: z.string().optional(),
  query: z.string().optional(),
  parameters: z.record(z.string(), z.unknown()).optional(),
  collection: z.string().optional(),
  returned_chunk_ids: z.array(z.string()).optional(),
});
export type AuditRecord = z.infer<typeof AuditRecordSchema>;
export type NewAuditRecord = Omit<AuditRecord, 'id'> & { id?: string };

/**
 * Durable audit records. A run's record is written when the run ends (`write`); retrieval records are queued
 * (`queue`, no store call on the search path) and written in batches every `flushMs` or `batch` records, and on
 * `close()` — so a search pays no extra round trip.
 */
export class AuditLog {
  private pending: AuditRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: VectorStore,
    private readonly log?: Logger,
    private readonly options: { flushMs?: number; batch?: number } = {},
  ) {}

  /** Write one record now (ingest, reindex, rebuild). */
  async write(record: NewAuditRecord): Promise<AuditRecord> {
    const full = AuditRecordSchema.parse({ ...record, id: record.id ?? randomUUID() });
    await this.persist([full]);
    return full;
  }

  /**
   * Queue a record (retrieval); written with the next batch. Not parsed here, unlike `write`: its one caller
   * (project-chunks.ts' auditRetrieval) builds it from the tool's parsed input and its own typed answer, and the parse
   * was ~3 % of a `find_chunks` call's main-thread CPU (docs/benchmarks/document-store.md, call cost round 4); `list`
   * parses every record it reads back.
   */
  queue(record: NewAuditRecord): void {
    this.pending.push({ ...record, id: record.id ?? randomUUID() });
    if (this.pending.length >= (this.options.batch ?? 100)) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.options.flushMs ?? 2000);
      this.timer.unref();
    }
  }

  /** Write every queued record. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    this.flushing = this.flushing.then(async () => {
      if (batch.length === 0) return;
      try {
        await this.persist(batch);
      } catch (error) {
        this.log?.error({ err: error, records: batch.length }, 'audit records could not be written');
      }
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    await this.flush();
  }

  /** Records, newest first, optionally of one project and kind. */
  async list(
    filter: { project?: string | undefined; kind?: AuditRecord['kind'] | undefined; limit?: number } = {},
  ): Promise<AuditRecord[]> {
    await this.flush();
    const where: Record<string, string> = {};
    if (filter.project) where['project'] = filter.project;
    if (filter.kind) where['kind'] = filter.kind;
    const out: AuditRecord[] = [];
    let cursor: string | null = null;
    try {
      do {
        const page: { points: StoredPoint[]; next: string | null } = await this.store.scroll(AUDIT_COLLECTION, {
          ...(Object.keys(where).length ? { filter: where } : {}),
          limit: 500,
          cursor,
        });
        out.push(...page.points.map((p) => AuditRecordSchema.parse(p.payload)));
        cursor = page.next;
      } while (cursor);
    } catch (error) {
      if (isAppError(error) && error.code === 'INVALID_PROJECT') return [];
      throw error;
    }
    return out.sort((a, b) => b.at.localeCompare(a.at)).slice(0, filter.limit ?? 100);
  }

  private async persist(records: AuditRecord[]): Promise<void> {
    await this.store.ensureCollection(AUDIT_COLLECTION, { fingerprint: AUDIT_FINGERPRINT, hybrid: false });
    await this.store.upsert(
      AUDIT_COLLECTION,
      records.map((r) => ({ id: r.id, vector: [1], payload: r, text: `${r.kind} ${r.project}` })),
      { fingerprint: AUDIT_FINGERPRINT },
    );
  }
}
