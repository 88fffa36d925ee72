import { AppError } from '@lectern/contracts';
import type { CollectionInfo } from '@lectern/vector-store';
import type { SearchDeps, StoreDeps } from './deps.js';

/**
 * The project's chunk collection, created on first ingest with the configured embedding model and
 * hybrid (full-text) search on. An existing project keeps its own model (its fingerprint).
 */
export const ensureProjectCollection = async (deps: SearchDeps, project: string): Promise<CollectionInfo> => {
  const existing = await deps.store.getCollection(project);
  if (existing) return existing;
  const embedder = await deps.embedders.configured();
  return deps.store.ensureCollection(project, { fingerprint: embedder.fingerprint, hybrid: true });
};

/** A project that must already exist (searching or reading never creates one). */
export const requireProjectCollection = async (deps: StoreDeps, project: string): Promise<CollectionInfo | null> =>
  deps.store.getCollection(project);

export const invalidProject = (project: string): AppError =>
  new AppError('INVALID_PROJECT', `Project "${project}" does not exist`, { httpStatus: 404 });
