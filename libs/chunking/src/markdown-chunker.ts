// SPDX-License-Identifier: AGPL-3.0-or-later
import { createHash } from 'node:crypto';
import type { ConversionHeading, PageMapEntry, TableSpan } from '@lectern/contracts';
import { pageAt } from './page-map.js';
import { RecursiveCharacterTextSplitter } from './recursive-character-splitter.js';

/** What the heading-aware chunker reads of a `ConversionResult`. */
export interface MarkdownDocument {
  markdown: string;
  headings: readonly ConversionHeading[];
  page_map: readonly PageMapEntry[];
  tables: readonly TableSpan[];
}

export interface MarkdownChunkOptions {
  /** Tokens the embedder sees for a text (its own tokenizer, special tokens included): FR-015. */
  countTokens: (text: string) => number;
  /** Most tokens a chunk may have (at most the model's limit). */
  maxTokens: number;
  /** Trailing blocks of a chunk (up to this many tokens) repeated at the start of the next one in the same section. Default 0. */
  overlapTokens?: number;
  /**
   * Prepend each chunk's section path (`Chapter 5 > Arrays`) to the text that is embedded (`embed_text`), counted
   * within `maxTokens`; `text` (stored, returned) never carries it. Default false.
   */
  headingContext?: boolean;
  /**
   * Most characters of a chunk's `text` (its stored and returned text). A chunk longer than what a search result may
   * show (spec 004 FR-010's retrieval trim) is returned cut, so an answer in its tail is never seen: ingest sets this
   * to the retrieval policy's limit. Default: no limit (tokens only).
   */
  maxChars?: number;
}

/** Spec 004's Chunk, before ids (which need the model). */
export interface MarkdownChunk {
  chunk_index: number;
  /** The chunk's Markdown, HTML comments (page markers) removed. */
  text: string;
  page_start: number;
  page_end: number;
  /** Title of the innermost heading the chunk starts under ('' before the first heading). */
  section_heading: string;
  /** Breadcrumb of heading titles, outermost first. */
  section_path: string[];
  /** [start, end) of the chunk in the Markdown. */
  start_offset: number;
  end_offset: number;
  /** Tokens of `embed_text` counted by the embedder's tokenizer (within `maxTokens`). */
  token_count: number;
  /** What is embedded: `text`, or with heading context its section path line first (see `embeddingText`). */
  embed_text: string;
}

/** Separator of a section path in the heading context line. */
export const SECTION_PATH_SEPARATOR = ' > ';

/**
 * The text an embedder sees for a chunk: with heading context on and a section path, the path on its own line
 * (`Chapter 5 > Arrays`) then the chunk's text; otherwise the text itself. Used by ingest (through `embed_text`)
 * and by a rebuild that re-embeds stored chunks, so both embed the same string.
 */
export const embeddingText = (
  text: string,
  sectionPath: readonly string[],
  headingContext: boolean | undefined,
): string =>
  headingContext && sectionPath.length > 0 ? `${sectionPath.join(SECTION_PATH_SEPARATOR)}\n\n${text}` : text;

interface Block {
  start: number;
  end: number;
  tokens: number;
  /** Index of the section (heading) the block is in; -1 before the first heading. */
  section: number;
  /** Index of the top-level section the block is in; chunks never cross one. */
  top: number;
  table: boolean;
  /** Position in the document's block list before page furniture is dropped. */
  seq: number;
}

const COMMENT = /<!--[\s\S]*?-->/g;

/** Text without HTML comments (e.g. `<!-- page 3 -->` markers a converter may add), trimmed. */
export const stripComments = (text: string): string =>
  text
    .replace(COMMENT, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

/**
 * Breadcrumbs of a flat heading list: for each heading, the titles of the open headings above it and its own.
 * A skipped level (`#` then `###`) nests under the nearest shallower heading.
 */
export const sectionPaths = (headings: readonly Pick<ConversionHeading, 'level' | 'title'>[]): string[][] => {
  const stack: Array<{ level: number; title: string }> = [];
  return headings.map((h) => {
    while (stack.length > 0 && (stack[stack.length - 1]?.level ?? 0) >= h.level) stack.pop();
    stack.push({ level: h.level, title: h.title });
    return stack.map((s) => s.title);
  });
};

/** Paragraph blocks of [start, end): runs of non-blank lines; a table block (starting at a line) is one block. */
const paragraphs = (
  md: string,
  start: number,
  end: number,
  tables: readonly TableSpan[],
): Array<{ start: number; end: number; table: boolean }> => {
  const out: Array<{ start: number; end: number; table: boolean }> = [];
  const tableAt = new Map(tables.filter((t) => t.start >= start && t.end <= end).map((t) => [t.start, t]));
  let pos = start;
  let blockStart = -1;
  const close = (at: number) => {
    if (blockStart >= 0 && stripComments(md.slice(blockStart, at)) !== '')
      out.push({ start: blockStart, end: at, table: false });
    blockStart = -1;
  };
  while (pos < end) {
    const table = tableAt.get(pos);
    if (table) {
      close(pos);
      out.push({ start: table.start, end: table.end, table: true });
      pos = table.end + 1;
      continue;
    }
    const nl = md.indexOf('\n', pos);
    const lineEnd = nl < 0 || nl >= end ? end : nl;
    if (md.slice(pos, lineEnd).trim() === '') close(pos);
    else if (blockStart < 0) blockStart = pos;
    pos = lineEnd + 1;
  }
  close(Math.min(pos, end));
  return out;
};

/**
 * Spec 004's heading-aware chunking (FR-002) over a converter's Markdown:
 * - sections start at headings; a chunk never crosses a top-level section (the shallowest heading level used),
 *   and starts a new chunk at every heading when the section it is in has content of its own (so each chunk's
 *   `section_heading` and `section_path` are where it starts);
 * - a chunk is at most `maxChars` characters (the retrieval trim), so a search result shows it whole;
 * - paragraphs are packed up to `maxTokens`, counted with the embedder's own tokenizer; a table stays whole when
 *   it fits, and a paragraph or table that does not is split (lines, sentences, words) into pieces that do;
 * - `page_start`/`page_end` come from the page map, so a chunk running over a page break keeps its page range;
 * - HTML comments (page markers) never count as content.
 */
export function chunkMarkdown(doc: MarkdownDocument, options: MarkdownChunkOptions): MarkdownChunk[] {
  const { markdown: md } = doc;
  const maxTokens = Math.max(8, Math.floor(options.maxTokens));
  const overlapTokens = Math.max(0, Math.min(options.overlapTokens ?? 0, Math.floor(maxTokens / 2)));
  const maxChars = options.maxChars === undefined ? Infinity : Math.max(64, Math.floor(options.maxChars));
  const special = options.countTokens('');
  const tokensOf = (s: string): number => Math.max(0, options.countTokens(stripComments(s)) - special);
  const headings = [...doc.headings].filter((h) => h.offset < md.length).sort((a, b) => a.offset - b.offset);
  const paths = sectionPaths(headings);
  const topLevel = Math.min(...headings.map((h) => h.level));
  const tables = [...doc.tables].sort((a, b) => a.start - b.start);
  // Heading context: tokens a section's path line takes of every chunk in it (one token of slack, since tokens of a
  // concatenation are not exactly the sum). A path taking more than half the limit is left out for that section.
  const contextTokens = new Map<number, number>();
  const contextOf = (section: number): number => {
    if (!options.headingContext || section < 0) return 0;
    let t = contextTokens.get(section);
    if (t === undefined) {
      const path = paths[section] ?? [];
      t = path.length === 0 ? 0 : options.countTokens(embeddingText('', path, true)) - special + 1;
      if (t > maxTokens / 2) t = 0;
      contextTokens.set(section, t);
    }
    return t;
  };

  // Blocks, section by section (text before the first heading is section -1).
  const blocks: Block[] = [];
  let top = -1;
  const bounds = [0, ...headings.map((h) => h.offset), md.length];
  for (let s = -1; s < headings.length; s++) {
    const start = bounds[s + 1] ?? 0;
    const end = bounds[s + 2] ?? md.length;
    if (s >= 0 && (headings[s]?.level ?? 0) <= topLevel) top = s;
    for (const p of paragraphs(md, start, end, tables)) {
      const tokens = tokensOf(md.slice(p.start, p.end));
      if (tokens + special + contextOf(s) <= maxTokens && stripComments(md.slice(p.start, p.end)).length <= maxChars) {
        blocks.push({ ...p, tokens, section: s, top, table: p.table, seq: blocks.length });
        continue;
      }
      // Too long for one chunk: split by characters, then tighten until every piece fits in tokens.
      for (const piece of splitToFit(md, p.start, p.end, maxTokens - special - contextOf(s), tokensOf, maxChars)) {
        blocks.push({ ...piece, section: s, top, table: p.table, seq: blocks.length });
      }
    }
  }

  dropPageFurniture(md, blocks, doc);

  // Pack blocks into chunks.
  const chunks: MarkdownChunk[] = [];
  let current: Block[] = [];
  // The blocks' own text: what lies between two kept neighbours stays as it was, a dropped block (page furniture)
  // between them leaves a paragraph break.
  const textOf = (bs: readonly Block[]): string => {
    const first = bs[0] as Block;
    let raw = md.slice(first.start, first.end);
    for (let i = 1; i < bs.length; i++) {
      const prevBlock = bs[i - 1] as Block;
      const b = bs[i] as Block;
      raw += b.seq === prevBlock.seq + 1 ? md.slice(prevBlock.end, b.end) : `\n\n${md.slice(b.start, b.end)}`;
    }
    return stripComments(raw);
  };
  const flush = () => {
    if (current.length === 0) return;
    const first = current[0] as Block;
    const last = current[current.length - 1] as Block;
    const text = textOf(current);
    // A chunk that starts with bare heading lines (a part title over a chapter title) belongs to the section of its first content.
    const section = (current.find((b) => !isHeadingBlock(md, b, headings)) ?? first).section;
    const path = section >= 0 ? (paths[section] ?? []) : [];
    const embedText = contextOf(section) > 0 ? embeddingText(text, path, true) : text;
    chunks.push({
      chunk_index: chunks.length,
      text,
      page_start: pageAt(doc.page_map, firstContent(md, first.start, first.end)),
      page_end: pageAt(doc.page_map, lastContent(md, last.start, last.end)),
      section_heading: section >= 0 ? (headings[section]?.title ?? '') : '',
      section_path: path,
      start_offset: first.start,
      end_offset: last.end,
      token_count: options.countTokens(embedText),
      embed_text: embedText,
    });
  };
  // A chunk's budget leaves room for the longest heading context among its blocks' sections.
  const sum = (bs: Block[]) =>
    bs.reduce((n, b) => Math.max(n, contextOf(b.section)), 0) + bs.reduce((n, b) => n + b.tokens, special);
  // Whether blocks fit one chunk: tokens, and characters of the text they make.
  const fits = (bs: Block[]) => sum(bs) <= maxTokens && (maxChars === Infinity || textOf(bs).length <= maxChars);
  for (const block of blocks) {
    const prev = current[current.length - 1];
    const newSection = prev !== undefined && block.section !== prev.section;
    const crossesTop = prev !== undefined && block.top !== prev.top;
    // A heading starts a new chunk when the chunk so far has more than its own heading line.
    const startsHeading =
      newSection &&
      headings[block.section]?.offset === block.start &&
      current.some((b) => b.section === prev.section && !isHeadingBlock(md, b, headings));
    if (prev && (crossesTop || startsHeading || !fits([...current, block]))) {
      const carried = newSection || crossesTop ? [] : overlapOf(current, overlapTokens);
      flush();
      current = fits([...carried, block]) ? carried : [];
    }
    current.push(block);
  }
  flush();
  return chunks;
}

/**
 * Running headers and footers a converter left in (e.g. "Chapter 5: Arrays and matrices 25", whose page number
 * changes on every page): a short paragraph (at most 10 words, not a heading or table) that is the first or last
 * paragraph of its page and whose text, digits aside, opens or closes at least three pages is page furniture, not
 * content. Returns their [start, end) ranges in the Markdown. The PDF conversion already leaves out the furniture
 * it can place by position (libs/conversion's `findRepeatedFurniture`); this catches what it cannot see (OCR'd
 * pages, other converters). Ten words hold real running heads and footers ("Chapter 5: Arrays and matrices
 * 25", "Page 3 of 54", a copyright line) while a numbered body line that repeats digits aside stays content.
 */
export const pageFurniture = (
  md: string,
  pageMap: readonly PageMapEntry[],
  tables: readonly TableSpan[] = [],
): Array<{ start: number; end: number }> => {
  const key = (b: { start: number; end: number }) =>
    stripComments(md.slice(b.start, b.end)).toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ');
  const edges = new Map<number, Array<{ start: number; end: number; table: boolean }>>();
  for (const b of paragraphs(md, 0, md.length, tables)) {
    const page = pageAt(pageMap, b.start);
    const list = edges.get(page) ?? [];
    list.push(b);
    edges.set(page, list);
  }
  const pagesOf = new Map<string, Set<number>>();
  const candidates: Array<{ start: number; end: number; key: string }> = [];
  for (const [page, list] of edges) {
    // furniture runs beside content: a page of one paragraph has nothing to tell them apart by
    if (list.length < 2) continue;
    for (const b of new Set([list[0], list[list.length - 1]])) {
      if (!b || b.table) continue;
      const text = stripComments(md.slice(b.start, b.end));
      if (text.startsWith('#') || text.split(/\s+/).length > 10) continue;
      const k = key(b);
      pagesOf.set(k, (pagesOf.get(k) ?? new Set()).add(page));
      candidates.push({ start: b.start, end: b.end, key: k });
    }
  }
  return candidates.filter((c) => (pagesOf.get(c.key)?.size ?? 0) >= 3).map(({ start, end }) => ({ start, end }));
};

/** Blocks without page furniture (see `pageFurniture`). */
const dropPageFurniture = (md: string, blocks: Block[], doc: MarkdownDocument): void => {
  const furniture = pageFurniture(md, doc.page_map, doc.tables);
  if (furniture.length === 0) return;
  const inside = (b: Block) => furniture.some((f) => b.start >= f.start && b.end <= f.end);
  const kept = blocks.filter((b) => !inside(b));
  blocks.length = 0;
  blocks.push(...kept);
};

const isHeadingBlock = (md: string, b: Block, headings: readonly ConversionHeading[]): boolean =>
  headings.some((h) => h.offset === b.start) && !md.slice(b.start, b.end).trim().includes('\n');

/** The trailing blocks of a chunk that fit in the overlap budget (none when the budget is 0). */
const overlapOf = (blocks: Block[], budget: number): Block[] => {
  const out: Block[] = [];
  let used = 0;
  for (let i = blocks.length - 1; i > 0 && budget > 0; i--) {
    const b = blocks[i] as Block;
    if (b.table || used + b.tokens > budget) break;
    out.unshift(b);
    used += b.tokens;
  }
  return out;
};

const firstContent = (md: string, start: number, end: number): number => {
  const text = md.slice(start, end).replace(COMMENT, (m) => ' '.repeat(m.length));
  const i = text.search(/\S/);
  return start + Math.max(0, i);
};

const lastContent = (md: string, start: number, end: number): number => {
  const text = md.slice(start, end).replace(COMMENT, (m) => ' '.repeat(m.length));
  let i = text.length - 1;
  while (i > 0 && /\s/.test(text.charAt(i))) i--;
  return start + Math.max(0, i);
};

/** Pieces of [start, end) that each fit in `budget` tokens and `maxChars` characters: character splitting, tightened until they fit. */
const splitToFit = (
  md: string,
  start: number,
  end: number,
  budget: number,
  tokensOf: (s: string) => number,
  maxChars = Infinity,
): Array<{ start: number; end: number; tokens: number }> => {
  const out: Array<{ start: number; end: number; tokens: number }> = [];
  const text = md.slice(start, end);
  const tokens = tokensOf(text);
  // Characters per token of this text, so the first split is close to the budget.
  const perToken = Math.max(1, text.length / Math.max(1, tokens));
  let size = Math.max(16, Math.min(maxChars, Math.floor(budget * perToken * 0.95)));
  for (let attempt = 0; attempt < 8; attempt++) {
    const splitter = new RecursiveCharacterTextSplitter({
      chunkSize: size,
      chunkOverlap: 0,
      separators: ['\n\n', '\n', '. ', '; ', ', ', ' ', ''],
    });
    const spans = splitter
      .splitTextWithOffsets(text)
      .map((s) => ({ start: start + s.start, end: start + s.end, tokens: tokensOf(s.text) }));
    if (spans.every((s) => s.tokens <= budget) || size <= 16) {
      out.push(...spans.filter((s) => stripComments(md.slice(s.start, s.end)) !== ''));
      return out;
    }
    size = Math.max(16, Math.floor(size * 0.8));
  }
  return out;
};

/** What a chunk id is made of (FR-003): the same inputs always give the same id. */
export interface ChunkIdParts {
  docId: string;
  pageStart: number;
  pageEnd: number;
  sectionPath: readonly string[];
  modelId: string;
  modelRevision: string;
  chunkIndex: number;
}

/** Deterministic chunk id (FR-003): 32 hex characters of SHA-256 over the parts, NUL-separated. */
export const projectChunkId = (p: ChunkIdParts): string =>
  createHash('sha256')
    .update(
      [
        p.docId,
        String(p.pageStart),
        String(p.pageEnd),
        p.sectionPath.join('\u001f'),
        `${p.modelId}@${p.modelRevision}`,
        String(p.chunkIndex),
      ].join('\u0000'),
    )
    .digest('hex')
    .slice(0, 32);

/**
 * A converter's Markdown cut back into pages along its page map, HTML comments (page markers) blanked with spaces
 * of the same length, so spec 000's page chunker (`chunkPages`) can split the Markdown — the text the converter
 * cleaned and structured — instead of the raw page text. `toMarkdownOffset` maps an offset of
 * `joinPages(pages, separator)` back to the Markdown (to find the section a chunk starts in).
 */
export function markdownPages(
  doc: Pick<MarkdownDocument, 'markdown' | 'page_map'>,
  separator = '\n\n',
): { pages: Array<{ page_number: number; text: string }>; toMarkdownOffset: (joined: number) => number } {
  // HTML comments and page furniture (running headers/footers) blanked, offsets kept.
  let md = doc.markdown.replace(COMMENT, (m) => m.replace(/[^\n]/g, ' '));
  for (const f of pageFurniture(doc.markdown, doc.page_map))
    md = md.slice(0, f.start) + md.slice(f.start, f.end).replace(/[^\n]/g, ' ') + md.slice(f.end);
  const entries =
    doc.page_map.length > 0 ? [...doc.page_map].sort((a, b) => a.offset - b.offset) : [{ offset: 0, page: 1 }];
  const pages: Array<{ page_number: number; text: string }> = [];
  const starts: Array<{ joined: number; md: number }> = [];
  let joined = 0;
  entries.forEach((e, i) => {
    const start = i === 0 ? 0 : e.offset;
    const end = entries[i + 1]?.offset ?? md.length;
    const text = md.slice(start, end);
    const last = pages[pages.length - 1];
    if (last && last.page_number === e.page) {
      last.text += text;
      return;
    }
    if (pages.length > 0) joined += separator.length;
    starts.push({ joined, md: start });
    pages.push({ page_number: e.page, text });
    joined += text.length;
  });
  // Joined offsets of a later page continue after the separator; map through the page's own start.
  const toMarkdownOffset = (o: number): number => {
    let s = starts[0] ?? { joined: 0, md: 0 };
    for (const x of starts) if (x.joined <= o) s = x;
    return s.md + (o - s.joined);
  };
  return { pages, toMarkdownOffset };
}

/** The section a Markdown offset lies in: the last heading at or before it, with its breadcrumb. */
export function sectionAt(
  headings: readonly ConversionHeading[],
  paths: readonly string[][],
  offset: number,
): { section_heading: string; section_path: string[] } {
  let found = -1;
  for (let i = 0; i < headings.length; i++) if ((headings[i]?.offset ?? Infinity) <= offset) found = i;
  return found < 0
    ? { section_heading: '', section_path: [] }
    : { section_heading: headings[found]?.title ?? '', section_path: paths[found] ?? [] };
}
