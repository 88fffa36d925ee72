// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  AppError,
  isAppError,
  ProjectRecordSchema,
  type ChunkingPolicy,
  type EmbeddingFingerprint,
  type ProjectRecord,
} from '@lectern/contracts';
import type { CollectionInfo, StoredPoint, VectorStore } from '@lectern/vector-store';
import type { SearchDeps, StoreDeps } from './deps.js';

/**
 * Spec 004's project records: one payload-only internal collection in the same vector store (embedded SQLite or
 * Qdrant), as the document registry is kept. Its name contains `__`, which no project id can, so it never shows
 * as a project or a spec 002 collection.
 */
export const PROJECTS_COLLECTION = 'lectern__projects';
const RECORD_FINGERPRINT = { model_id: 'lectern-projects', revision: 'v1', dimension: 1, normalized: true };

/**
 * Project records a reading call may reuse without reading them again (searches stay at two store calls: the
 * collection, one search). Writes always read the record afresh; a cached record whose collection has gone (a
 * rebuild dropped it) is read again at once, and any record is read again after `ttlMs`, so another process's
 * `lectern rebuild` switch is seen within that time (the old collection is still complete until `--drop-old`).
 */
export class ProjectCache {
  private readonly byProject = new Map<string, { record: ProjectRecord; at: number }>();

  constructor(
    private readonly ttlMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(project: string): ProjectRecord | undefined {
    const hit = this.byProject.get(project);
    if (!hit) return undefined;
    if (this.now() - hit.at > this.ttlMs) {
      this.byProject.delete(project);
      return undefined;
    }
    return hit.record;
  }

  set(record: ProjectRecord): void {
    this.byProject.set(record.project, { record, at: this.now() });
  }

  delete(project: string): void {
    this.byProject.delete(project);
  }
}

const nowIso = (deps: StoreDeps | SearchDeps): string =>
  ('now' in deps && deps.now ? deps.now() : new Date()).toISOString();

/** Scroll that treats a missing collection as empty (INVALID_PROJECT from the store). */
const scrollAll = async (store: VectorStore, name: string, filter?: Record<string, string>): Promise<StoredPoint[]> => {
  const out: StoredPoint[] = [];
  let cursor: string | null = null;
  try {
    do {
      const page: { points: StoredPoint[]; next: string | null } = await store.scroll(name, {
        ...(filter ? { filter } : {}),
        limit: 500,
        cursor,
      });
      out.push(...page.points);
      cursor = page.next;
    } while (cursor);
  } catch (error) {
    if (isAppError(error) && error.code === 'INVALID_PROJECT') return [];
    throw error;
  }
  return out;
};

/** The stored record of a project, or null (one store call). */
export const readProjectRecord = async (store: VectorStore, project: string): Promise<ProjectRecord | null> => {
  const [point] = await scrollAll(store, PROJECTS_COLLECTION, { project });
  return point ? ProjectRecordSchema.parse(point.payload) : null;
};

/** Every project record, by project id. */
export const listProjectRecords = async (store: VectorStore): Promise<ProjectRecord[]> =>
  (await scrollAll(store, PROJECTS_COLLECTION))
    .map((p) => ProjectRecordSchema.parse(p.payload))
    .sort((a, b) => a.project.localeCompare(b.project));

/** Write (create or replace) a project record; last write wins. */
export const writeProjectRecord = async (
  deps: Pick<StoreDeps, 'store' | 'projectCache'>,
  record: ProjectRecord,
): Promise<ProjectRecord> => {
  const parsed = ProjectRecordSchema.parse(record);
  await deps.store.ensureCollection(PROJECTS_COLLECTION, { fingerprint: RECORD_FINGERPRINT, hybrid: false });
  await deps.store.upsert(
    PROJECTS_COLLECTION,
    [{ id: parsed.project, vector: [1], payload: parsed, text: parsed.project }],
    {
      fingerprint: RECORD_FINGERPRINT,
    },
  );
  deps.projectCache?.set(parsed);
  return parsed;
};

/**
 * A project that predates project records (its collection is named after it): what its record would say. It is
 * written on the first write into the project, never by a read.
 */
const legacyRecord = (info: CollectionInfo, chunking: ChunkingPolicy, at: string): ProjectRecord => ({
  project: info.name,
  collection: info.name,
  fingerprint: info.fingerprint,
  hybrid: info.hybrid,
  chunking,
  references_path: null,
  previous_collections: [],
  origin: 'implicit',
  created_at: at,
  updated_at: at,
});

export interface ResolvedProject {
  record: ProjectRecord;
  /** The project's current collection (`record.collection`) as the store reports it. */
  info: CollectionInfo;
  /** True when the record is not stored yet (a project from before records; its collection is its id). */
  unrecorded?: boolean;
}

/**
 * THE project -> collection resolver: every project-scoped call of specs 000, 002 and 004 goes through it (reads
 * here, writes through `ensureProject`). Null when the project does not exist. One store call when the record is
 * cached (the collection), two otherwise.
 */
export const resolveProject = async (deps: StoreDeps, project: string): Promise<ResolvedProject | null> => {
  const cached = deps.projectCache?.get(project);
  if (cached) {
    const info = await deps.store.getCollection(cached.collection);
    if (info) return { record: cached, info };
    deps.projectCache?.delete(project);
  }
  const record = await readProjectRecord(deps.store, project);
  if (record) {
    const info = await deps.store.getCollection(record.collection);
    if (!info) return null;
    deps.projectCache?.set(record);
    return { record, info };
  }
  const info = await deps.store.getCollection(project);
  if (!info) return null;
  return { record: legacyRecord(info, { kind: 'client' }, nowIso(deps)), info, unrecorded: true };
};

/** A project that must exist: INVALID_PROJECT (with the projects there are) otherwise. */
export const requireProject = async (deps: StoreDeps, project: string): Promise<ResolvedProject> => {
  const found = await resolveProject(deps, project);
  if (found) return found;
  const known = (await listProjectRecords(deps.store)).map((r) => r.project);
  const hint =
    known.length > 0
      ? ` Known projects: ${known.slice(0, 20).join(', ')}${known.length > 20 ? ', ...' : ''}.`
      : ' No project exists yet.';
  throw new AppError(
    'INVALID_PROJECT',
    `Project "${project}" does not exist.${hint} Create one with \`lectern project create\`.`,
    {
      httpStatus: 404,
    },
  );
};

const sameModel = (a: EmbeddingFingerprint, b: EmbeddingFingerprint): boolean =>
  a.model_id === b.model_id && a.revision === b.revision && a.dimension === b.dimension;

export const embeddingMismatch = (project: string, have: EmbeddingFingerprint, want: EmbeddingFingerprint): AppError =>
  new AppError(
    'EMBEDDING_MISMATCH',
    `Project "${project}" was built with ${have.model_id}@${have.revision} (${have.dimension}-d); this write would use ` +
      `${want.model_id}@${want.revision} (${want.dimension}-d). Use the project's model, or migrate explicitly: ` +
      `\`lectern rebuild --project ${project} --migrate-to ${want.model_id}\` (the old collection is kept until --drop-old).`,
    { httpStatus: 409 },
  );

/** FR-005: the model a write would use must be the project's, unless migration was requested. */
export const assertSameModel = (record: ProjectRecord, writeWith: EmbeddingFingerprint): void => {
  if (!sameModel(record.fingerprint, writeWith)) throw embeddingMismatch(record.project, record.fingerprint, writeWith);
};

export interface EnsureProjectOptions {
  /** The chunking policy recorded when this write creates the project. */
  chunking: ChunkingPolicy;
  /** The model a new project is built with (default: the configured one). */
  fingerprint?: EmbeddingFingerprint;
  hybrid?: boolean;
  referencesPath?: string | null;
  origin?: ProjectRecord['origin'];
}

/**
 * The project a write goes into, created when unknown (spec 000/002 writes create projects implicitly, recorded
 * with their own chunking policy). Always reads the record afresh (never the cache), so a write lands in the
 * collection a rebuild switched to.
 */
export const ensureProject = async (
  deps: SearchDeps,
  project: string,
  options: EnsureProjectOptions,
): Promise<ResolvedProject> => {
  const record = await readProjectRecord(deps.store, project);
  if (record) {
    const info =
      (await deps.store.getCollection(record.collection)) ??
      (await deps.store.ensureCollection(record.collection, {
        fingerprint: record.fingerprint,
        hybrid: record.hybrid,
      }));
    deps.projectCache?.set(record);
    return { record, info };
  }
  const at = nowIso(deps);
  const existing = await deps.store.getCollection(project);
  if (existing)
    return { record: await writeProjectRecord(deps, legacyRecord(existing, options.chunking, at)), info: existing };
  const fingerprint = options.fingerprint ?? (await deps.embedders.configured()).fingerprint;
  const info = await deps.store.ensureCollection(project, { fingerprint, hybrid: options.hybrid ?? true });
  const created = await writeProjectRecord(deps, {
    project,
    collection: project,
    fingerprint: info.fingerprint,
    hybrid: info.hybrid,
    chunking: options.chunking,
    references_path: options.referencesPath ?? null,
    previous_collections: [],
    origin: options.origin ?? 'implicit',
    created_at: at,
    updated_at: at,
  });
  return { record: created, info };
};

/** Chunking policies of the spec 000 and spec 002 writes (recorded when they create a project). */
export const SPEC000_CHUNKING: ChunkingPolicy = { kind: 'spec000' };
export const CLIENT_CHUNKING: ChunkingPolicy = { kind: 'client' };

export interface CreateProjectOptions {
  project: string;
  /** The model the project is built with (default: the configured one). */
  fingerprint?: EmbeddingFingerprint;
  hybrid?: boolean;
  chunking: ChunkingPolicy;
  referencesPath?: string | null;
}

/** `lectern project create`: a new project with its collection and record; `project_exists` when it is there already. */
export const createProject = async (deps: SearchDeps, options: CreateProjectOptions): Promise<ResolvedProject> => {
  if (await resolveProject({ store: deps.store, defaultProject: deps.defaultProject }, options.project)) {
    throw new AppError(
      'project_exists',
      `Project "${options.project}" already exists (\`lectern project show ${options.project}\`).`,
      { httpStatus: 409 },
    );
  }
  return ensureProject(deps, options.project, {
    chunking: options.chunking,
    ...(options.fingerprint ? { fingerprint: options.fingerprint } : {}),
    hybrid: options.hybrid ?? true,
    referencesPath: options.referencesPath ?? null,
    origin: 'explicit',
  });
};
