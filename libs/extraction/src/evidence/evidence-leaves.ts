// SPDX-License-Identifier: AGPL-3.0-or-later
import type { EvidenceLeaf } from '@lectern/contracts';
import { isObject } from '../schema-fields.js';

/** One evidence leaf and where it is in the evidence object (field path; a per-model leaf ends in its model). */
export interface EvidenceEntry {
  path: string[];
  leaf: EvidenceLeaf;
}

const isLeaf = (v: unknown): v is EvidenceLeaf => isObject(v) && ('locator' in v || 'snippet' in v);

/**
 * The evidence list: every leaf of a result's `evidence`, depth first in the object's key order (the schema's
 * order), a per-model field's leaves in model order. `GET /tasks/{id}/evidence/{n}/page.png` addresses its n-th
 * entry (0-based), or an entry by its dotted path.
 */
export const evidenceLeaves = (evidence: unknown): EvidenceEntry[] => {
  const out: EvidenceEntry[] = [];
  const walk = (node: unknown, path: string[]) => {
    if (isLeaf(node)) out.push({ path, leaf: node });
    else if (isObject(node)) for (const [key, child] of Object.entries(node)) walk(child, [...path, key]);
  };
  walk(evidence, []);
  return out;
};

/** The entry `ref` names: a 0-based index into `evidenceLeaves`, or a dotted path (`group.field`, `field.Model`). */
export const evidenceEntry = (evidence: unknown, ref: string): EvidenceEntry | undefined => {
  const entries = evidenceLeaves(evidence);
  if (/^\d{1,6}$/.test(ref)) return entries[Number(ref)];
  return entries.find((e) => e.path.join('.') === ref);
};
