// SPDX-License-Identifier: AGPL-3.0-or-later
import { codePointLength } from './python-text.js';
import { SPEC000_CHUNK_OVERLAP } from './recursive-character-splitter.js';

/** A stored chunk as `get_document_text` reads it back. Offsets are `PageChunk`'s, when they were stored. */
export interface StoredChunk {
  chunk_index: number;
  text: string;
  start_offset?: number;
  end_offset?: number;
}

export interface ReassembleOptions {
  /** Between two chunks that do not overlap (spec 000 FR-003 joins with `"\n\n"`). */
  separator?: string;
  /**
   * Text-only fallback (chunks without offsets): the longest suffix of a chunk that is also a prefix of
   * the next is taken as their overlap if it is between `minOverlap` and `maxOverlap` characters long.
   * `maxOverlap` defaults to spec 000's chunk overlap (200): the splitter never carries more.
   */
  minOverlap?: number;
  maxOverlap?: number;
}

const hasOffsets = (c: StoredChunk): c is Required<StoredChunk> =>
  Number.isInteger(c.start_offset) &&
  Number.isInteger(c.end_offset) &&
  (c.end_offset as number) - (c.start_offset as number) === c.text.length;

/**
 * Reassemble a document from its chunks in `chunk_index` order so that the text reads once: the part
 * of a chunk that repeats the end of the previous one (the splitter's overlap) is dropped, and chunks
 * that do not overlap are joined with `"\n\n"`.
 *
 * With offsets on every chunk the overlap is known exactly, and the result is the chunked text with
 * each whitespace gap between non-overlapping chunks replaced by the separator. Without them it is
 * found by comparing text, which cannot tell a true overlap from a chunk that happens to begin with
 * the words the previous one ended with (that repetition would be removed): store the offsets.
 */
export function reassembleChunks(chunks: readonly StoredChunk[], options: ReassembleOptions = {}): string {
  const separator = options.separator ?? '\n\n';
  const ordered = [...chunks].sort((a, b) => a.chunk_index - b.chunk_index);
  const exact = ordered.every(hasOffsets);
  const parts: string[] = [];
  let previous: StoredChunk | undefined;
  for (const chunk of ordered) {
    if (!previous) {
      parts.push(chunk.text);
      previous = chunk;
      continue;
    }
    const overlap = exact ? exactOverlap(previous, chunk) : textOverlap(previous.text, chunk.text, options);
    if (overlap === undefined) {
      parts.push(separator, chunk.text);
    } else if (overlap < chunk.text.length) {
      parts.push(chunk.text.slice(overlap));
    }
    // A chunk wholly inside the previous one adds nothing; keep the one that reaches further.
    if (!exact || (chunk.end_offset as number) > (previous.end_offset as number)) previous = chunk;
  }
  return parts.join('');
}

/** UTF-16 units of `next` already present at the end of `prev`, or undefined when they do not overlap. */
function exactOverlap(prev: StoredChunk, next: StoredChunk): number | undefined {
  const prevEnd = prev.end_offset as number;
  const nextStart = next.start_offset as number;
  return nextStart < prevEnd ? prevEnd - nextStart : undefined;
}

function textOverlap(prev: string, next: string, options: ReassembleOptions): number | undefined {
  const min = Math.max(1, options.minOverlap ?? 1);
  const maxChars = options.maxOverlap ?? SPEC000_CHUNK_OVERLAP;
  // maxOverlap counts characters (code points); a character is at most two UTF-16 units.
  const max = Math.min(2 * maxChars, prev.length, next.length);
  for (let k = max; k >= min; k--) {
    const head = next.slice(0, k);
    if (prev.endsWith(head) && codePointLength(head) <= maxChars) {
      // Never cut a surrogate pair in half.
      const c = next.charCodeAt(k - 1);
      if (c >= 0xd800 && c <= 0xdbff) continue;
      return k;
    }
  }
  return undefined;
}
