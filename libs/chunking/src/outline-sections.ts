// SPDX-License-Identifier: AGPL-3.0-or-later
/** One entry of a document's outline (PDF bookmarks), in document order: title, depth (1 = top), 1-based page. */
export interface OutlineEntry {
  title: string;
  level: number;
  page: number | null;
}

/** What a section path is computed from, and what it becomes. */
export interface SectionedChunk {
  page_start: number;
  page_end: number;
  section_heading: string;
  section_path: string[];
}

const norm = (s: string): string =>
  s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/^[\s\d.]+(?=\p{L})/u, '') // "2.3 Arrays" and "Arrays" are the same heading
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

interface Node {
  title: string;
  page: number;
  /** Titles from the top entry down to this one. */
  path: string[];
  key: string;
}

/**
 * An outline without the entries that are not the author's: Acrobat's "Structure Bookmarks" (the tagged-structure
 * root that "bookmarks from structure" writes as a top entry above the real headings, seen on the NPPF). Such an entry
 * is dropped and the entries under it move up one level, so no section path starts with it.
 */
export const authorOutline = (outline: readonly OutlineEntry[]): OutlineEntry[] => {
  const out: OutlineEntry[] = [];
  /** Levels of the dropped entries still open above the current one. */
  const dropped: number[] = [];
  for (const e of outline) {
    while (dropped.length > 0 && (dropped[dropped.length - 1] as number) >= e.level) dropped.pop();
    if (norm(e.title) === 'structure bookmarks') {
      dropped.push(e.level);
      continue;
    }
    out.push({ ...e, level: Math.max(1, e.level - dropped.length) });
  }
  return out;
};

/**
 * Section paths from the document's outline (issue 25, spec 004 FR-002 "hierarchical section structure"): a PDF's
 * outline is the author's own table of contents, while the heading tree the converter guesses from font sizes can
 * skip, merge or mis-nest levels (a chapter title set in a running header, a book whose headings share one size).
 * For each chunk: the outline entry whose title is the chunk's own heading, on or before its last page (the latest
 * such); else the last outline entry starting on or before its first page. The chunk's path is that entry's
 * ancestry, its heading the entry's title. Chunks before the first entry, and every chunk of a document without an
 * outline (or whose outline points at no page), keep the heading tree's path.
 * Hand-written: a walk over two sorted lists; no library maps bookmarks onto text chunks.
 */
export const applyOutline = <C extends SectionedChunk>(chunks: readonly C[], outline: readonly OutlineEntry[]): C[] => {
  const nodes: Node[] = [];
  const stack: Array<{ level: number; title: string }> = [];
  for (const e of authorOutline(outline)) {
    while (stack.length > 0 && (stack[stack.length - 1] as { level: number }).level >= e.level) stack.pop();
    stack.push({ level: e.level, title: e.title });
    if (e.page !== null)
      nodes.push({ title: e.title, page: e.page, path: stack.map((s) => s.title), key: norm(e.title) });
  }
  if (nodes.length === 0) return [...chunks];
  // In page order (an outline is mostly in document order; a stable sort keeps its order within a page).
  const byPage = nodes
    .map((n, i) => ({ n, i }))
    .sort((a, b) => a.n.page - b.n.page || a.i - b.i)
    .map((x) => x.n);
  return chunks.map((c) => {
    const own = norm(c.section_heading);
    let named: Node | undefined;
    let last: Node | undefined;
    for (const n of byPage) {
      if (n.page > c.page_end) break;
      if (own !== '' && n.key === own) named = n;
      if (n.page <= c.page_start) last = n;
    }
    const chosen = named ?? last;
    return chosen ? { ...c, section_heading: chosen.title, section_path: chosen.path } : c;
  });
};
