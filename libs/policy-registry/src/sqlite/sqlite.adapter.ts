// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database, { type Database as Db } from 'better-sqlite3';
import {
  AppError,
  CreatePolicyInputSchema,
  CreateRevisionInputSchema,
  PolicyRegistryErrorCodes as Codes,
  PolicyRevisionSchema,
  PolicySchema,
  RevisionPatchSchema,
  SourceSlugSchema,
  RevisionIdSchema,
} from '@lectern/contracts';
import { parseDay } from '../dates.js';
import type {
  CreatedRevision,
  CreatePolicyInput,
  CreateRevisionInput,
  DeleteRevisionOptions,
  Policy,
  PolicyRegistry,
  PolicyRevision,
  RevisionPatch,
} from '../policy-registry.port.js';
import { parseInput, policyNotFound, registryUnavailable, revisionNotFound } from '../registry-errors.js';
import { applyPatch, checkDelete, newestFirst, pickEffective, planRevision } from '../revision-rules.js';

export interface SqlitePolicyRegistryOptions {
  /** The database file (created with its directory if missing), e.g. `<DATA_DIR>/policy-registry.sqlite`. */
  path: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS policies (
  source TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  description TEXT,
  category TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS policy_revisions (
  source TEXT NOT NULL REFERENCES policies(source),
  revision_id TEXT NOT NULL,
  version_label TEXT NOT NULL,
  effective_from TEXT NOT NULL,
  effective_to TEXT,
  status TEXT NOT NULL,
  file_path TEXT,
  file_size_bytes INTEGER,
  page_count INTEGER,
  chunk_count INTEGER NOT NULL DEFAULT 0,
  notes TEXT,
  created_at TEXT NOT NULL,
  ingested_at TEXT,
  error TEXT,
  PRIMARY KEY (source, revision_id)
);
CREATE INDEX IF NOT EXISTS policy_revisions_by_from ON policy_revisions(source, effective_from);
`;

const REVISION_COLUMNS = [
  'revision_id',
  'source',
  'version_label',
  'effective_from',
  'effective_to',
  'status',
  'file_path',
  'file_size_bytes',
  'page_count',
  'chunk_count',
  'notes',
  'created_at',
  'ingested_at',
  'error',
] as const;

/**
 * The embedded adapter: two tables in one SQLite file. Every change that touches several rows (a revision and
 * the one it supersedes) is one immediate transaction, so concurrent processes on the same file serialise.
 */
export class SqlitePolicyRegistry implements PolicyRegistry {
  private readonly db: Db;

  constructor(options: SqlitePolicyRegistryOptions) {
    mkdirSync(dirname(options.path), { recursive: true });
    this.db = new Database(options.path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('foreign_keys = ON');
    this.db.exec(SCHEMA);
  }

  async createPolicy(input: CreatePolicyInput): Promise<Policy> {
    const p = parseInput(CreatePolicyInputSchema, input);
    const now = new Date().toISOString();
    const policy: Policy = {
      source: p.source,
      title: p.title,
      description: p.description ?? null,
      category: p.category,
      created_at: now,
      updated_at: now,
    };
    return this.run(() => {
      const inserted = this.db
        .prepare(
          'INSERT INTO policies (source, title, description, category, created_at, updated_at) VALUES (@source, @title, @description, @category, @created_at, @updated_at) ON CONFLICT(source) DO NOTHING',
        )
        .run(policy);
      if (inserted.changes === 0)
        throw new AppError(Codes.policyAlreadyExists, `Policy already exists: ${p.source}`, { httpStatus: 409 });
      return policy;
    });
  }

  async getPolicy(source: string): Promise<Policy | null> {
    const s = parseInput(SourceSlugSchema, source);
    return this.run(() => {
      const row = this.db.prepare('SELECT * FROM policies WHERE source = ?').get(s);
      return row ? PolicySchema.parse(row) : null;
    });
  }

  async listPolicies(): Promise<Policy[]> {
    return this.run(() =>
      this.db
        .prepare('SELECT * FROM policies ORDER BY source')
        .all()
        .map((row) => PolicySchema.parse(row)),
    );
  }

  async createRevision(input: CreateRevisionInput): Promise<CreatedRevision> {
    const r = parseInput(CreateRevisionInputSchema, input);
    return this.run(() =>
      this.db
        .transaction((): CreatedRevision => {
          if (!this.policyExists(r.source)) throw policyNotFound(r.source);
          const plan = planRevision(this.revisions(r.source), r, new Date().toISOString());
          if (plan.superseded) {
            this.db
              .prepare(
                'UPDATE policy_revisions SET effective_to = @effective_to, status = @status WHERE source = @source AND revision_id = @revision_id',
              )
              .run(plan.superseded);
          }
          const setStatus = this.db.prepare(
            'UPDATE policy_revisions SET status = @status WHERE source = @source AND revision_id = @revision_id',
          );
          for (const settled of plan.settled) setStatus.run(settled);
          this.db
            .prepare(
              `INSERT INTO policy_revisions (${REVISION_COLUMNS.join(', ')}) VALUES (${REVISION_COLUMNS.map((c) => `@${c}`).join(', ')})`,
            )
            .run(plan.revision);
          return { revision: plan.revision, superseded: plan.superseded };
        })
        .immediate(),
    );
  }

  async getRevision(source: string, revisionId: string): Promise<PolicyRevision | null> {
    const [s, id] = [parseInput(SourceSlugSchema, source), parseInput(RevisionIdSchema, revisionId)];
    return this.run(() => this.revision(s, id));
  }

  async listRevisions(source: string): Promise<PolicyRevision[]> {
    const s = parseInput(SourceSlugSchema, source);
    return this.run(() => {
      if (!this.policyExists(s)) throw policyNotFound(s);
      return newestFirst(this.revisions(s));
    });
  }

  async updateRevision(source: string, revisionId: string, patch: RevisionPatch): Promise<PolicyRevision> {
    const [s, id] = [parseInput(SourceSlugSchema, source), parseInput(RevisionIdSchema, revisionId)];
    const p = parseInput(RevisionPatchSchema, patch);
    return this.run(() =>
      this.db
        .transaction((): PolicyRevision => {
          const all = this.revisions(s);
          const current = all.find((r) => r.revision_id === id);
          if (!current) throw revisionNotFound(s, id);
          const next = applyPatch(current, p, all);
          const sets = REVISION_COLUMNS.filter((c) => c !== 'source' && c !== 'revision_id').map((c) => `${c} = @${c}`);
          this.db
            .prepare(
              `UPDATE policy_revisions SET ${sets.join(', ')} WHERE source = @source AND revision_id = @revision_id`,
            )
            .run(next);
          return next;
        })
        .immediate(),
    );
  }

  async deleteRevision(
    source: string,
    revisionId: string,
    options: DeleteRevisionOptions = {},
  ): Promise<PolicyRevision> {
    const [s, id] = [parseInput(SourceSlugSchema, source), parseInput(RevisionIdSchema, revisionId)];
    return this.run(() =>
      this.db
        .transaction((): PolicyRevision => {
          const all = this.revisions(s);
          const target = all.find((r) => r.revision_id === id);
          if (!target) throw revisionNotFound(s, id);
          checkDelete(all, target, options.force === true);
          this.db.prepare('DELETE FROM policy_revisions WHERE source = ? AND revision_id = ?').run(s, id);
          return target;
        })
        .immediate(),
    );
  }

  async getEffectiveRevision(source: string, date: string): Promise<PolicyRevision | null> {
    const s = parseInput(SourceSlugSchema, source);
    const day = parseDay(date);
    return this.run(() => {
      const rows = this.db
        .prepare('SELECT * FROM policy_revisions WHERE source = ? AND effective_from <= ? ORDER BY effective_from DESC')
        .all(s, day);
      return pickEffective(
        rows.map((row) => PolicyRevisionSchema.parse(row)),
        day,
      );
    });
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  private policyExists(source: string): boolean {
    return this.db.prepare('SELECT 1 FROM policies WHERE source = ?').get(source) !== undefined;
  }

  private revision(source: string, revisionId: string): PolicyRevision | null {
    const row = this.db
      .prepare('SELECT * FROM policy_revisions WHERE source = ? AND revision_id = ?')
      .get(source, revisionId);
    return row ? PolicyRevisionSchema.parse(row) : null;
  }

  private revisions(source: string): PolicyRevision[] {
    return this.db
      .prepare('SELECT * FROM policy_revisions WHERE source = ?')
      .all(source)
      .map((row) => PolicyRevisionSchema.parse(row));
  }

  /** Rule errors pass through; a database that cannot be used (closed, locked past the busy timeout, I/O) is unavailable. */
  private run<T>(fn: () => T): T {
    if (!this.db.open) throw registryUnavailable('SQLite', new Error('the registry is closed'));
    try {
      return fn();
    } catch (e) {
      if (e instanceof AppError) throw e;
      if (e instanceof Error && e.name === 'SqliteError') throw registryUnavailable('SQLite', e);
      throw e;
    }
  }
}

export const createSqlitePolicyRegistry = (options: SqlitePolicyRegistryOptions): PolicyRegistry =>
  new SqlitePolicyRegistry(options);
