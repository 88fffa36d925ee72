// SPDX-License-Identifier: AGPL-3.0-or-later
import { codePointLength, stripRange } from './python-text.js';

/**
 * Recursive character splitting with the behaviour of langchain-text-splitters'
 * `RecursiveCharacterTextSplitter` (`_split_text`, `_split_text_with_regex`, `_merge_splits`,
 * `_join_docs`), as spec 000 FR-006 prescribes. Hand-written rather than taken from the npm port
 * (`@langchain/textsplitters`) because that port differs from the Python original in ways that change
 * chunks: it keeps separators only at the start of a piece (spec 000 keeps them with the preceding text),
 * splits runs of a separator with a look-ahead (overlapping matches), and measures length in UTF-16 code
 * units and strips with JavaScript's whitespace set. Here lengths are code points and stripping is
 * Python's `str.strip()`, so chunk boundaries match the Python system's.
 *
 * Unlike langchain, every chunk also carries its [start, end) offsets in the input (UTF-16 indices),
 * computed from the splits themselves (never by searching for the chunk text), so page tracking and
 * overlap removal are exact even when a passage repeats.
 */

/** Where a kept separator goes: `end` = with the text before it (spec 000), `start` = with the text after. */
export type KeepSeparator = 'start' | 'end';

export interface SplitterOptions {
  /** Maximum chunk length in characters (code points). Default 800. */
  chunkSize?: number;
  /** Characters of overlap carried from one chunk into the next (at most). Default 200. */
  chunkOverlap?: number;
  /** Separators tried in order; `''` means "between any two characters". */
  separators?: readonly string[];
  /** Default `end` (separators stay with the preceding chunk). */
  keepSeparator?: KeepSeparator;
  /** Python `str.strip()` on every chunk (langchain's default). Default true. */
  stripWhitespace?: boolean;
}

/** A chunk and its position in the input: `input.slice(start, end) === text`. */
export interface TextSpan {
  text: string;
  start: number;
  end: number;
}

/** Spec 000 FR-006's separator hierarchy: paragraph > line > sentence > clause > phrase > word > character. */
export const SPEC000_SEPARATORS: readonly string[] = Object.freeze([
  '\n\n',
  '\n',
  '. ',
  '! ',
  '? ',
  '; ',
  ', ',
  ' ',
  '',
]);

/** Spec 000 FR-006: 200 tokens ≈ 800 characters, 50 tokens ≈ 200 characters overlap. */
export const SPEC000_CHUNK_SIZE = 800;
export const SPEC000_CHUNK_OVERLAP = 200;

/** A split: a piece of the input by offsets, with its length in code points. */
interface Piece {
  start: number;
  end: number;
  len: number;
}

export class RecursiveCharacterTextSplitter {
  readonly chunkSize: number;
  readonly chunkOverlap: number;
  readonly separators: readonly string[];
  readonly keepSeparator: KeepSeparator;
  readonly stripWhitespace: boolean;

  constructor(options: SplitterOptions = {}) {
    this.chunkSize = options.chunkSize ?? SPEC000_CHUNK_SIZE;
    this.chunkOverlap = options.chunkOverlap ?? SPEC000_CHUNK_OVERLAP;
    this.separators = options.separators ?? SPEC000_SEPARATORS;
    this.keepSeparator = options.keepSeparator ?? 'end';
    this.stripWhitespace = options.stripWhitespace ?? true;
    if (!Number.isInteger(this.chunkSize) || this.chunkSize < 1) {
      throw new RangeError(`chunkSize must be a positive integer, got ${this.chunkSize}`);
    }
    if (!Number.isInteger(this.chunkOverlap) || this.chunkOverlap < 0) {
      throw new RangeError(`chunkOverlap must be a non-negative integer, got ${this.chunkOverlap}`);
    }
    // Same rule and message as langchain's TextSplitter.__init__.
    if (this.chunkOverlap > this.chunkSize) {
      throw new RangeError(
        `Got a larger chunk overlap (${this.chunkOverlap}) than chunk size (${this.chunkSize}), should be smaller.`,
      );
    }
    if (this.separators.length === 0) throw new RangeError('separators must not be empty');
  }

  /** The chunks' texts (langchain's `split_text`). */
  splitText(text: string): string[] {
    return this.splitTextWithOffsets(text).map((s) => s.text);
  }

  /** The chunks with their offsets in `text`. */
  splitTextWithOffsets(text: string): TextSpan[] {
    return this.splitRange(text, 0, text.length, this.separators);
  }

  /** `_split_text` on `source.slice(from, to)`. */
  private splitRange(source: string, from: number, to: number, separators: readonly string[]): TextSpan[] {
    const text = source.slice(from, to);
    // Pick the first separator present in the text; '' always "matches" and ends the search.
    let separator = separators[separators.length - 1] ?? '';
    let nextSeparators: readonly string[] = [];
    for (let i = 0; i < separators.length; i++) {
      const s = separators[i] ?? '';
      if (s === '') {
        separator = s;
        break;
      }
      if (text.includes(s)) {
        separator = s;
        nextSeparators = separators.slice(i + 1);
        break;
      }
    }

    const chunks: TextSpan[] = [];
    let good: Piece[] = [];
    for (const piece of this.splitOnSeparator(source, from, to, separator)) {
      if (piece.len < this.chunkSize) {
        good.push(piece);
        continue;
      }
      if (good.length > 0) {
        chunks.push(...this.mergePieces(source, good));
        good = [];
      }
      if (nextSeparators.length === 0) {
        // langchain appends an unsplittable piece as is: no strip, no emptiness check.
        chunks.push({ text: source.slice(piece.start, piece.end), start: piece.start, end: piece.end });
      } else {
        chunks.push(...this.splitRange(source, piece.start, piece.end, nextSeparators));
      }
    }
    if (good.length > 0) chunks.push(...this.mergePieces(source, good));
    return chunks;
  }

  /**
   * `_split_text_with_regex` with a literal separator: non-overlapping occurrences left to right (as
   * `re.split` finds them), the separator glued to the piece before (`end`) or after (`start`) it,
   * empty pieces dropped. `''` splits into single code points (Python's `list(text)`).
   */
  private splitOnSeparator(source: string, from: number, to: number, separator: string): Piece[] {
    const pieces: Piece[] = [];
    const add = (start: number, end: number): void => {
      if (end > start) pieces.push({ start, end, len: codePointLength(source.slice(start, end)) });
    };
    if (separator === '') {
      for (let i = from; i < to; ) {
        const c = source.charCodeAt(i);
        const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < to && (source.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
        const next = i + (pair ? 2 : 1);
        pieces.push({ start: i, end: next, len: 1 });
        i = next;
      }
      return pieces;
    }
    // Boundaries between pieces: after each separator (end) or before it (start). Searched in the
    // range's own text so a separator that is rare in the document is not looked for past the range.
    const text = source.slice(from, to);
    let pieceStart = from;
    let at = text.indexOf(separator);
    while (at !== -1) {
      const cut = from + (this.keepSeparator === 'end' ? at + separator.length : at);
      add(pieceStart, cut);
      pieceStart = cut;
      at = text.indexOf(separator, at + separator.length);
    }
    add(pieceStart, to);
    return pieces;
  }

  /**
   * `_merge_splits` with an empty join separator (separators are kept inside the pieces): pieces are
   * adjacent in the input, so a chunk is the input between its first and last piece.
   */
  private mergePieces(source: string, pieces: Piece[]): TextSpan[] {
    const docs: TextSpan[] = [];
    // The current chunk is pieces[head..tail): a window instead of langchain's list, same pieces.
    let head = 0;
    let tail = 0;
    let total = 0;
    for (const d of pieces) {
      if (total + d.len > this.chunkSize && tail > head) {
        const doc = this.joinPieces(source, pieces, head, tail);
        if (doc) docs.push(doc);
        // Drop pieces from the front while the carried-over text exceeds the overlap, or while
        // it and the next piece would not fit in one chunk.
        while (total > this.chunkOverlap || (total + d.len > this.chunkSize && total > 0)) {
          total -= pieces[head]?.len ?? 0;
          head++;
        }
      }
      tail++;
      total += d.len;
    }
    const doc = this.joinPieces(source, pieces, head, tail);
    if (doc) docs.push(doc);
    return docs;
  }

  /** `_join_docs` of pieces[head..tail): concatenate, strip, and drop a chunk that is empty after stripping. */
  private joinPieces(source: string, pieces: Piece[], head: number, tail: number): TextSpan | undefined {
    const first = pieces[head];
    const last = pieces[tail - 1];
    if (!first || !last || tail <= head) return undefined;
    const [start, end] = this.stripWhitespace ? stripRange(source, first.start, last.end) : [first.start, last.end];
    if (end <= start) return undefined;
    return { text: source.slice(start, end), start, end };
  }
}

/** Spec 000's splitter (800/200, the FR-006 separators, separators kept with the preceding chunk). */
export function splitText(text: string, options: SplitterOptions = {}): string[] {
  return new RecursiveCharacterTextSplitter(options).splitText(text);
}
