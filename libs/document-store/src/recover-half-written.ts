// SPDX-License-Identifier: AGPL-3.0-or-later
import { isAppError } from '@lectern/contracts';
import type { Logger } from '@lectern/runtime';
import { checkConsistency, type ConsistencyReport } from './check-consistency.js';
import type { StoreDeps } from './deps.js';
import { listProjectRecords } from './projects.js';
import { REGISTRY_SUFFIX } from './registry.js';

export interface HalfWrittenReport {
  /** `repair`: orphan chunks deleted; otherwise only reported. */
  repaired: boolean;
  projects: Array<
    Pick<ConsistencyReport, 'project' | 'orphan_chunks' | 'orphan_document_ids' | 'removed_chunks' | 'count_mismatches'>
  >;
}

/** Every project that may hold spec 000 documents: project records, registries, plain collections, the default. */
const candidateProjects = async (deps: StoreDeps): Promise<string[]> => {
  const names = new Set<string>([deps.defaultProject]);
  for (const r of await listProjectRecords(deps.store)) names.add(r.project);
  for (const c of await deps.store.listCollections()) {
    if (c.name.endsWith(REGISTRY_SUFFIX)) names.add(c.name.slice(0, -REGISTRY_SUFFIX.length));
    else if (!c.name.includes('__')) names.add(c.name); // internal collections (`__`) are no project's
  }
  return [...names].sort();
};

/**
 * Start-up recovery of the document store (issue 24): a document whose ingest was interrupted after its chunks were
 * written and before its registry entry (the registry is written last) left chunks that search would return. They
 * are found project by project (the chunks scrolled a page at a time, `checkConsistency`) and, with `repair`,
 * deleted by id, then the project is checked again. Registry entries whose chunks are missing are complete data
 * the recovery cannot rebuild: they are logged for `lectern docstore check` and re-ingestion, never deleted.
 * Idempotent (a second run finds nothing). Spec 004 chunks (`origin`) have no registry by design: an interrupted
 * `lectern ingest`/`store_chunks` leaves whole documents (one store write each) that a rerun converges.
 */
export const recoverHalfWrittenDocuments = async (
  deps: StoreDeps & { log: Logger },
  options: { repair: boolean },
): Promise<HalfWrittenReport> => {
  const report: HalfWrittenReport = { repaired: options.repair, projects: [] };
  for (const project of await candidateProjects(deps)) {
    let found: ConsistencyReport;
    try {
      found = await checkConsistency(deps, { project, repair: options.repair });
    } catch (error) {
      if (isAppError(error) && error.code === 'INVALID_PROJECT') continue; // nothing stored under that name
      throw error;
    }
    if (found.orphan_chunks === 0 && found.count_mismatches.length === 0) continue;
    const entry = {
      project,
      orphan_chunks: found.orphan_chunks,
      orphan_document_ids: found.orphan_document_ids,
      removed_chunks: found.removed_chunks,
      count_mismatches: found.count_mismatches,
    };
    report.projects.push(entry);
    if (found.orphan_chunks > 0)
      deps.log.warn(
        { ...entry, count_mismatches: undefined },
        options.repair
          ? 'half-written documents removed (chunks without a registry entry: an interrupted ingest)'
          : 'half-written documents found (chunks without a registry entry); `lectern docstore check --repair` removes them',
      );
    if (found.count_mismatches.length > 0)
      deps.log.warn(
        { project, count_mismatches: found.count_mismatches },
        'registry entries whose chunks are not all stored; re-ingest those documents',
      );
  }
  return report;
};
