// SPDX-License-Identifier: AGPL-3.0-or-later
import { splitText } from './recursive-character-splitter.js';

/**
 * Spec 003 section 6: Markdown cut into locator-addressed chunks. `h{n}` is the n-th heading of the document
 * (1-based, every level counts), `h{n}-c{m}` the m-th text chunk under it and `h{n}-t{m}` its m-th table; text
 * and tables before the first heading are under `h0` (so every chunk has a locator of the same form).
 */
export interface LocatorChunk {
  locator: string;
  kind: 'text' | 'table';
  content: string;
  meta: LocatorChunkMeta;
}

export interface LocatorChunkMeta {
  /** Heading ancestry joined by " > " (outermost first); empty under `h0`. */
  heading_path: string;
  /** The heading the chunk is under (null under `h0`). */
  original_heading: string | null;
  /** m of `h{n}-c{m}` / `h{n}-t{m}` (1-based). */
  chunk_index: number;
  /** The heading ancestry, outermost first. */
  headings: string[];
  /** Markdown level (1-6) of `original_heading`; 0 under `h0`. */
  heading_level: number;
}

/** One heading: its locator `h{n}`, title, level and ancestry. */
export interface LocatorHeading {
  locator: string;
  number: number;
  title: string;
  level: number;
  headings: string[];
}

export interface LocatorChunkOptions {
  /** Longest text chunk (default 1500 characters); a longer paragraph is split at sentence boundaries. */
  maxChars?: number;
  /** Shortest text chunk (default 50): a shorter one is merged with the next text chunk under its heading. */
  minChars?: number;
}

export interface LocatorChunking {
  headings: LocatorHeading[];
  chunks: LocatorChunk[];
}

export const LOCATOR_MAX_CHARS = 1500;
export const LOCATOR_MIN_CHARS = 50;

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$/;
const FENCE = /^ {0,3}(```|~~~)/;
const isTableLine = (line: string): boolean => line.trimStart().startsWith('|');

interface Block {
  kind: 'text' | 'table';
  content: string;
}

interface Section {
  heading: LocatorHeading | undefined;
  blocks: Block[];
}

/** Walk the lines: headings open sections; blank lines end paragraphs; `|` lines are tables (kept whole). */
const sectionsOf = (markdown: string): Section[] => {
  const sections: Section[] = [{ heading: undefined, blocks: [] }];
  const stack: Array<{ level: number; title: string }> = [];
  let lines: string[] = [];
  let kind: Block['kind'] = 'text';
  let fenced = false;
  const flush = () => {
    const content = lines.join('\n').trim();
    if (content) (sections[sections.length - 1] as Section).blocks.push({ kind, content });
    lines = [];
  };
  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    if (FENCE.test(line)) {
      if (kind === 'table') flush();
      kind = 'text';
      fenced = !fenced;
      lines.push(line);
      continue;
    }
    if (fenced) {
      lines.push(line);
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      const level = (heading[1] as string).length;
      const title = (heading[2] as string).trim();
      while (stack.length > 0 && (stack[stack.length - 1] as { level: number }).level >= level) stack.pop();
      stack.push({ level, title });
      const number = sections.length;
      sections.push({
        heading: { locator: `h${number}`, number, title, level, headings: stack.map((s) => s.title) },
        blocks: [],
      });
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    const lineKind = isTableLine(line) ? 'table' : 'text';
    if (lineKind !== kind) flush();
    kind = lineKind;
    lines.push(line);
  }
  flush();
  return sections;
};

const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

/**
 * A paragraph longer than `max` cut at sentence boundaries (Intl.Segmenter, Unicode UAX #29), sentences packed
 * greedily; a single sentence longer than `max` is cut at word boundaries by the recursive splitter.
 */
const splitLong = (text: string, max: number): string[] => {
  if (text.length <= max) return [text];
  const out: string[] = [];
  let current = '';
  for (const { segment } of sentenceSegmenter.segment(text)) {
    if (segment.length > max) {
      if (current.trim()) out.push(current.trim());
      current = '';
      out.push(...splitText(segment, { chunkSize: max, chunkOverlap: 0, separators: ['\n', ' ', ''] }));
      continue;
    }
    if (current.length + segment.length > max) {
      if (current.trim()) out.push(current.trim());
      current = segment;
    } else current += segment;
  }
  if (current.trim()) out.push(current.trim());
  return out;
};

/**
 * Text chunks shorter than `min` merged into the next text chunk of their section (into the previous one when
 * there is no next, or the merge would pass `max`); a section's only short text stays as it is. Tables are never
 * merged, split or changed.
 */
const mergeTiny = (blocks: Block[], min: number, max: number): Block[] => {
  const out: Block[] = [];
  let carry: string | undefined;
  for (const block of blocks) {
    if (block.kind === 'table') {
      out.push(block);
      continue;
    }
    let content = block.content;
    if (carry !== undefined) {
      if (carry.length + 2 + content.length <= max) content = `${carry}\n\n${content}`;
      else out.push({ kind: 'text', content: carry });
      carry = undefined;
    }
    if (content.length < min) carry = content;
    else out.push({ kind: 'text', content });
  }
  if (carry !== undefined) {
    const previous = out.filter((b) => b.kind === 'text').pop();
    if (previous && previous.content.length + 2 + carry.length <= max)
      previous.content = `${previous.content}\n\n${carry}`;
    else out.push({ kind: 'text', content: carry });
  }
  return out;
};

/** Chunk Markdown by the rules of spec 003 section 6 (see `LocatorChunk`). */
export function chunkByLocator(markdown: string, options: LocatorChunkOptions = {}): LocatorChunking {
  const max = options.maxChars ?? LOCATOR_MAX_CHARS;
  const min = options.minChars ?? LOCATOR_MIN_CHARS;
  if (!(max > 0 && min >= 0 && min <= max)) throw new RangeError('need 0 <= minChars <= maxChars and maxChars > 0');
  const sections = sectionsOf(markdown);
  const chunks: LocatorChunk[] = [];
  sections.forEach((section, n) => {
    const split = section.blocks.flatMap((b) =>
      b.kind === 'table' ? [b] : splitLong(b.content, max).map((content) => ({ kind: 'text' as const, content })),
    );
    const counts = { text: 0, table: 0 };
    const headings = section.heading?.headings ?? [];
    for (const block of mergeTiny(split, min, max)) {
      const m = ++counts[block.kind];
      chunks.push({
        locator: `h${n}-${block.kind === 'table' ? 't' : 'c'}${m}`,
        kind: block.kind,
        content: block.content,
        meta: {
          heading_path: headings.join(' > '),
          original_heading: section.heading?.title ?? null,
          chunk_index: m,
          headings,
          heading_level: section.heading?.level ?? 0,
        },
      });
    }
  });
  return { headings: sections.flatMap((s) => (s.heading ? [s.heading] : [])), chunks };
}
