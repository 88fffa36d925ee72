// SPDX-License-Identifier: AGPL-3.0-or-later
import { basename, extname } from 'node:path';
import type { DocumentType } from '@lectern/contracts';
import { DOCUMENT_TYPE_RULES, RENDERING_PATTERNS } from './document-type.rules.js';

export type ClassificationConfidence = 'high' | 'medium' | 'low';

export interface DocumentClassification {
  document_type: DocumentType;
  /** `high`: the filename matched; `medium`: content keywords; `low`: nothing matched (`other`). */
  confidence: ClassificationConfidence;
  /** What matched: the filename pattern, or the content keywords with their counts; empty for `other`. */
  matched: string[];
}

/** A content sample needs at least this many keyword occurrences for its best type to count. */
export const MIN_CONTENT_HITS = 2;
/** Only the start of a long content sample is read. */
export const CONTENT_SAMPLE_CHARS = 20_000;

/**
 * The filename as the patterns see it: no directory or extension, camelCase split, lower case, every
 * character other than a letter, digit or `&` turned into a space, spaces collapsed.
 */
export function normaliseFilename(filename: string): string {
  const base = basename(filename.replace(/\\/g, '/'));
  const stem = base.slice(0, base.length - extname(base).length) || base;
  return stem
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}&]+/gu, ' ')
    .trim();
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Keyword regexes, built once: the keyword at the start of a word ("habitat" also counts "habitats"). */
const KEYWORD_PATTERNS = DOCUMENT_TYPE_RULES.map((rule) => ({
  type: rule.type,
  keywords: rule.keywords.map((k) => ({ keyword: k, re: new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(k)}`, 'gu') })),
}));

/**
 * Spec 000's `DocumentClassifier`: filename patterns first (high confidence), then content keywords
 * (medium), then `other` (low). `contentSample` is the start of the extracted text, when there is one.
 */
export function classifyDocument(filename: string, contentSample?: string): DocumentClassification {
  const name = normaliseFilename(filename);
  for (const rule of DOCUMENT_TYPE_RULES) {
    const hit = rule.filename.find((re) => re.test(name));
    if (hit) return { document_type: rule.type, confidence: 'high', matched: [`filename:${hit.source}`] };
  }

  if (contentSample) {
    const text = contentSample.slice(0, CONTENT_SAMPLE_CHARS).toLowerCase().replace(/\s+/g, ' ');
    let best: { type: DocumentType; hits: number; matched: string[] } | undefined;
    for (const { type, keywords } of KEYWORD_PATTERNS) {
      let hits = 0;
      const matched: string[] = [];
      for (const { keyword, re } of keywords) {
        const n = text.match(re)?.length ?? 0;
        if (n > 0) {
          hits += n;
          matched.push(`${keyword}×${n}`);
        }
      }
      // Strictly greater: on a tie the earlier rule (the table's order) wins.
      if (hits >= MIN_CONTENT_HITS && (!best || hits > best.hits)) best = { type, hits, matched };
    }
    if (best)
      return { document_type: best.type, confidence: 'medium', matched: best.matched.map((m) => `content:${m}`) };
  }

  return { document_type: 'other', confidence: 'low', matched: [] };
}

/** Spec 000 FR-005: an architectural rendering (by filename), which bypasses OCR. */
export function isArchitecturalRendering(filename: string): boolean {
  const name = normaliseFilename(filename);
  return RENDERING_PATTERNS.some((re) => re.test(name));
}
