// SPDX-License-Identifier: AGPL-3.0-or-later
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { CreatePolicyInput } from '@lectern/contracts';
import type { PolicyKbDeps } from './deps.js';
import { ingestPolicyRevision } from './ingest-policy-revision.js';
import { createPolicyRevision } from './manage-revisions.js';

export interface SeedRevision {
  revision_id: string;
  version_label: string;
  effective_from: string;
  /** Which file in the seed directory holds this revision (matched on its name). */
  file: RegExp;
}

export interface SeedPolicy extends CreatePolicyInput {
  revisions: SeedRevision[];
}

/**
 * The six seed policies of spec 001's appendix with their metadata. Effective dates are the publication or
 * adoption dates of those documents (NPPF's from the spec); file names are matched loosely, so a download kept
 * under its publisher's name is found.
 */
export const SEED_POLICIES: readonly SeedPolicy[] = [
  {
    source: 'LTN_1_20',
    title: 'Cycle Infrastructure Design (LTN 1/20)',
    category: 'national_guidance',
    revisions: [
      {
        revision_id: 'rev_LTN_1_20_2020_07',
        version_label: 'July 2020',
        effective_from: '2020-07-27',
        file: /ltn[\s_-]?1[\s_-]?20|cycle[\s_-]?infrastructure[\s_-]?design/i,
      },
    ],
  },
  {
    source: 'NPPF',
    title: 'National Planning Policy Framework',
    category: 'national_policy',
    revisions: [
      {
        revision_id: 'rev_NPPF_2023_09',
        version_label: 'September 2023',
        effective_from: '2023-09-05',
        file: /nppf.*sep(tember)?[\s_-]*2023/i,
      },
      {
        revision_id: 'rev_NPPF_2024_12',
        version_label: 'December 2024',
        effective_from: '2024-12-12',
        file: /nppf.*dec(ember)?[\s_-]*2024/i,
      },
    ],
  },
  {
    source: 'MANUAL_FOR_STREETS',
    title: 'Manual for Streets',
    category: 'national_guidance',
    revisions: [
      {
        revision_id: 'rev_MANUAL_FOR_STREETS_2007_03',
        version_label: 'March 2007',
        effective_from: '2007-03-29',
        file: /manual[\s_-]?for[\s_-]?streets/i,
      },
    ],
  },
  {
    source: 'CHERWELL_LOCAL_PLAN',
    title: 'Cherwell Local Plan 2011-2031',
    category: 'local_plan',
    revisions: [
      {
        revision_id: 'rev_CHERWELL_LOCAL_PLAN_2015_07',
        version_label: 'July 2015',
        effective_from: '2015-07-20',
        file: /cherwell.*local[\s_-]?plan/i,
      },
    ],
  },
  {
    source: 'OCC_LTCP',
    title: 'Oxfordshire Local Transport and Connectivity Plan',
    category: 'county_strategy',
    revisions: [
      {
        revision_id: 'rev_OCC_LTCP_2022_07',
        version_label: 'July 2022',
        effective_from: '2022-07-12',
        file: /ltcp|local[\s_-]?transport[\s_-]?and[\s_-]?connectivity/i,
      },
    ],
  },
  {
    source: 'BICESTER_LCWIP',
    title: 'Bicester Local Cycling and Walking Infrastructure Plan',
    category: 'local_guidance',
    revisions: [
      {
        revision_id: 'rev_BICESTER_LCWIP_2020_11',
        version_label: 'November 2020',
        effective_from: '2020-11-01',
        file: /bicester.*lcwip|lcwip.*bicester/i,
      },
    ],
  },
];

export interface SeedReport {
  dir: string;
  policies_created: string[];
  revisions: Array<{
    source: string;
    revision_id: string;
    outcome: 'ingested' | 'already_ingested' | 'no_file' | 'failed';
    file?: string;
    chunks?: number;
    error?: string;
  }>;
}

/** PDFs under `dir` (recursively, at most 4 levels, at most 10,000 entries looked at). */
const pdfsUnder = async (dir: string): Promise<string[]> => {
  const out: string[] = [];
  let seen = 0;
  const walk = async (d: string, depth: number): Promise<void> => {
    const entries = await readdir(d, { withFileTypes: true }).catch(() => []);
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (++seen > 10_000) return;
      const p = join(d, e.name);
      if (e.isDirectory() && depth < 4) await walk(p, depth + 1);
      else if (e.isFile() && /\.pdf$/i.test(e.name)) out.push(p);
    }
  };
  await walk(dir, 0);
  return out;
};

/**
 * `lectern policy seed`: register the six seed policies (existing ones kept), and for each seed revision whose PDF
 * is in `dir`, register it (oldest first, so auto-supersession closes the older) and ingest it. Idempotent: a
 * revision already `active`/`superseded` with chunks is left as it is. Revisions without a file are not
 * registered (a registry entry without chunks would claim a revision nobody can search).
 */
export const seedPolicies = async (
  deps: PolicyKbDeps,
  input: { dir: string; onProgress?: (line: string) => void },
): Promise<SeedReport> => {
  const dir = resolve(input.dir);
  const files = await pdfsUnder(dir);
  const report: SeedReport = { dir, policies_created: [], revisions: [] };
  const ingestDeps = { ...deps, roots: [...deps.roots, dir] };
  for (const seed of SEED_POLICIES) {
    const { revisions, ...policy } = seed;
    if (!(await deps.registry.getPolicy(policy.source))) {
      await deps.registry.createPolicy(policy);
      report.policies_created.push(policy.source);
    }
    for (const rev of [...revisions].sort((a, b) => a.effective_from.localeCompare(b.effective_from))) {
      const file = files.find((f) => rev.file.test(f.slice(dir.length)));
      const entry = { source: policy.source, revision_id: rev.revision_id };
      if (!file) {
        report.revisions.push({ ...entry, outcome: 'no_file' });
        continue;
      }
      const existing = await deps.registry.getRevision(policy.source, rev.revision_id);
      if (existing && (existing.status === 'active' || existing.status === 'superseded') && existing.chunk_count > 0) {
        report.revisions.push({ ...entry, outcome: 'already_ingested', file, chunks: existing.chunk_count });
        continue;
      }
      if (!existing) {
        await createPolicyRevision(deps, {
          source: policy.source,
          revision_id: rev.revision_id,
          version_label: rev.version_label,
          effective_from: rev.effective_from,
          file_path: file,
        });
      }
      input.onProgress?.(`ingesting ${policy.source} ${rev.revision_id} from ${file}`);
      try {
        const result = await ingestPolicyRevision(ingestDeps, {
          source: policy.source,
          revision_id: rev.revision_id,
          file_path: file,
        });
        report.revisions.push({ ...entry, outcome: 'ingested', file, chunks: result.chunks_created });
      } catch (error) {
        report.revisions.push({
          ...entry,
          outcome: 'failed',
          file,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
  }
  return report;
};
