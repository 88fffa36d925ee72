// SPDX-License-Identifier: AGPL-3.0-or-later
import { chunkPages } from '@lectern/chunking';
import type { PageText } from '@lectern/chunking';
import { extractSections, sanitizeSectionRef } from './sections.js';

/** A chunk of a policy revision with the section it belongs to (spec 001 FR-005's metadata, less the dates). */
export interface PolicyChunk {
  /** `{source}__{revision_id}__{section_ref}__{chunk_index:03d}` (section ref sanitised). */
  id: string;
  text: string;
  section_ref: string;
  /** The section's reference and its chapter/annex: what `get_policy_section` matches. */
  section_refs: string[];
  /** First page of the chunk. */
  page_number: number;
  /** Every page the chunk spans. */
  pages: number[];
  /** Sequential within the revision. */
  chunk_index: number;
  /** Offsets in the section's text: `get_policy_section` reads overlapping chunks back once. */
  start_offset: number;
  end_offset: number;
  /** The section's position in the document (sections sharing a reference are read in this order). */
  section_index: number;
}

/** Python's `f"{n:03d}"`. */
const pad3 = (n: number): string => String(n).padStart(3, '0');

export const policyChunkId = (source: string, revisionId: string, sectionRef: string, chunkIndex: number): string =>
  `${source}__${revisionId}__${sanitizeSectionRef(sectionRef)}__${pad3(chunkIndex)}`;

/**
 * Sections of the document (chapters, paragraphs, tables, annexes, policy codes), each split by the spec 000
 * splitter (800 characters, 200 overlap) with its pages: a chunk never mixes two sections, so its
 * `section_ref` is exact.
 */
export const chunkPolicy = (source: string, revisionId: string, pages: readonly PageText[]): PolicyChunk[] => {
  const out: PolicyChunk[] = [];
  extractSections(pages).forEach((section, section_index) => {
    for (const c of chunkPages(section.pages)) {
      const chunk_index = out.length;
      out.push({
        id: policyChunkId(source, revisionId, section.ref, chunk_index),
        text: c.text,
        section_ref: section.ref,
        section_refs: section.refs,
        page_number: c.first_page,
        pages: c.pages,
        chunk_index,
        start_offset: c.start_offset,
        end_offset: c.end_offset,
        section_index,
      });
    }
  });
  return out;
};
