// SPDX-License-Identifier: AGPL-3.0-or-later
import { reassembleChunks } from '@lectern/chunking';
import {
  AppError,
  type GetPolicySectionInput,
  type GetPolicySectionOutput,
  type PolicyRevision,
} from '@lectern/contracts';
import { COUNTING_STATUSES, EffectiveDateResolver } from '@lectern/policy-registry';
import type { StoredPoint } from '@lectern/vector-store';
import type { z } from 'zod';
import type { PolicyStoreDeps } from './deps.js';
import { revisionFilter } from './revision-chunks.js';
import { normaliseSectionRef } from './sections.js';

export type GetPolicySectionResult = z.infer<typeof GetPolicySectionOutput>;

const notFound = (code: string, message: string): AppError => new AppError(code, message, { httpStatus: 404 });

/** FR-002's default: the revision in force today, else the newest ingested one (a policy not yet in force). */
const defaultRevision = async (deps: PolicyStoreDeps, source: string): Promise<PolicyRevision | null> => {
  const today = (deps.now?.() ?? new Date()).toISOString().slice(0, 10);
  const resolved = await new EffectiveDateResolver(deps.registry).resolveForPolicy(source, today);
  if (resolved?.effective_revision) return resolved.effective_revision;
  return (await deps.registry.listRevisions(source)).find((r) => COUNTING_STATUSES.has(r.status)) ?? null;
};

/** Every chunk of the revision carrying the reference (as its section or its chapter/annex), by chunk index. */
const sectionChunks = async (
  deps: PolicyStoreDeps,
  source: string,
  revisionId: string,
  ref: string,
): Promise<StoredPoint[]> => {
  if (!(await deps.store.getCollection(deps.collection))) return [];
  const out: StoredPoint[] = [];
  let cursor: string | null = null;
  do {
    const page = await deps.store.scroll(deps.collection, {
      filter: { ...revisionFilter(source, revisionId), section_refs: ref },
      orderBy: 'chunk_index',
      limit: 1000,
      cursor,
    });
    out.push(...page.points);
    cursor = page.next;
  } while (cursor && out.length < 20_000);
  return out;
};

/**
 * Spec 001 FR-002: a section of a policy revision (default: the one in force today) by its reference —
 * `Para 11`, `Chapter 2` (its paragraphs too), `Table 5-2`, `Annex 2`, `Policy E2`. The extractor recorded each
 * chunk's references at ingest, so this is an exact store lookup (not a similarity search with a post-filter):
 * the section's chunks are read back once (their overlaps removed), sections joined by a blank line, pages sorted.
 */
export const getPolicySection = async (
  deps: PolicyStoreDeps,
  input: z.input<typeof GetPolicySectionInput>,
): Promise<GetPolicySectionResult> => {
  const { source } = input;
  if (!(await deps.registry.getPolicy(source))) throw notFound('policy_not_found', `Policy not found: ${source}`);
  const revision = input.revision_id
    ? await deps.registry.getRevision(source, input.revision_id)
    : await defaultRevision(deps, source);
  if (!revision) {
    throw notFound(
      'revision_not_found',
      input.revision_id
        ? `Revision not found: ${input.revision_id} for policy ${source}`
        : `Policy ${source} has no ingested revision`,
    );
  }
  const ref = normaliseSectionRef(input.section_ref);
  let chunks = await sectionChunks(deps, source, revision.revision_id, ref);
  if (chunks.length === 0 && ref !== input.section_ref.trim())
    chunks = await sectionChunks(deps, source, revision.revision_id, input.section_ref.trim());
  if (chunks.length === 0) {
    throw notFound(
      'section_not_found',
      `Section "${input.section_ref}" not found in ${source} revision ${revision.revision_id}`,
    );
  }
  const bySection = new Map<number, StoredPoint[]>();
  for (const c of chunks) {
    const k = Number(c.payload['section_index'] ?? 0);
    bySection.set(k, [...(bySection.get(k) ?? []), c]);
  }
  const text = [...bySection.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, group]) =>
      reassembleChunks(
        group.map((c) => ({
          chunk_index: Number(c.payload['chunk_index']),
          text: c.text,
          start_offset: c.payload['start_offset'] as number,
          end_offset: c.payload['end_offset'] as number,
        })),
      ),
    )
    .join('\n\n');
  const pages = new Set<number>();
  for (const c of chunks) {
    const list = c.payload['pages'];
    for (const p of Array.isArray(list) ? list : [c.payload['page_number']])
      if (Number.isInteger(p)) pages.add(p as number);
  }
  return {
    status: 'success',
    source,
    section_ref: ref,
    revision_id: revision.revision_id,
    version_label: revision.version_label,
    text,
    page_numbers: [...pages].sort((a, b) => a - b),
  };
};
