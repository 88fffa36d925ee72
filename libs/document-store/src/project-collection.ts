// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError } from '@lectern/contracts';
import type { CollectionInfo } from '@lectern/vector-store';
import type { SearchDeps, StoreDeps } from './deps.js';
import { ensureProject, resolveProject, SPEC000_CHUNKING } from './projects.js';

/**
 * The project's chunk collection for a spec 000 write, created on first ingest with the configured embedding
 * model and hybrid (full-text) search on, and recorded with spec 000's chunking policy. An existing project keeps
 * its own model (its fingerprint) and its current collection (after a rebuild, the new one).
 */
export const ensureProjectCollection = async (deps: SearchDeps, project: string): Promise<CollectionInfo> =>
  (await ensureProject(deps, project, { chunking: SPEC000_CHUNKING })).info;

/** A project that must already exist (searching or reading never creates one): its current collection, or null. */
export const requireProjectCollection = async (deps: StoreDeps, project: string): Promise<CollectionInfo | null> =>
  (await resolveProject(deps, project))?.info ?? null;

export const invalidProject = (project: string): AppError =>
  new AppError('INVALID_PROJECT', `Project "${project}" does not exist`, { httpStatus: 404 });
