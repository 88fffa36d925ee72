// SPDX-License-Identifier: AGPL-3.0-or-later
import type { PageText } from '@lectern/chunking';

/**
 * Section references from a policy document's structure (spec 001 FR-002: "Chapter 5", "Table 5-2",
 * "Para 116"), read line by line from the extracted page text. No library reads planning-document structure,
 * so this is a small hand-written state machine over the headings these documents use:
 *
 * - chapters: `Chapter 5 …`, or a short numbered title line `5. Delivering a sufficient supply of homes` whose
 *   number follows the previous chapter's (the NPPF's style);
 * - numbered paragraphs: `116. Text…` whose number follows the previous paragraph's (a few may be skipped),
 *   `5.12 Text…` (decimal style) and `Paragraph 116`;
 * - tables: `Table 5-2 …`; annexes and appendices: `Annex 2: Glossary`, `Appendix B`;
 * - policy codes: `Policy PM10 …`, or a short line starting with a code (`E2 Employment land`).
 *
 * Table-of-contents lines (a title ending in a page number after a tab, several spaces or dots) are never
 * headings. Text before the first heading is the `Preamble`. Each section records its own reference and
 * those of the chapter or annex containing it (`refs`), so a request for a chapter finds its paragraphs.
 */
export interface PolicySection {
  /** The most specific reference: `Para 11`, `Table 5-2`, `Chapter 2`, `Annex 1`, `Policy E2`, `Preamble`. */
  ref: string;
  /** `ref` and the containing chapter/annex reference (outermost first). */
  refs: string[];
  /** The section's text on each page it spans (page order). */
  pages: PageText[];
}

export const PREAMBLE = 'Preamble';

const TOC_LINE = /(\t|\s{2,}|\.{3,}\s*|…\s*)\d{1,4}\s*$/;
const ENDS_LIKE_SENTENCE = /[.:;,]$/;
const CHAPTER_WORD = /^(?:Chapter|CHAPTER|Section|SECTION)\s+(\d{1,3})\b/;
const NUMBERED_TITLE = /^(\d{1,2})\.\s+([A-Z][^\t]{1,88})$/;
const PARAGRAPH_WORD = /^Paragraph\s+(\d{1,4})\b/;
const NUMBERED_PARA = /^(\d{1,4})\.\s+\S/;
const DECIMAL_PARA = /^(\d{1,2}\.\d{1,3})\.?\s+[A-Z(“"'‘]/;
const TABLE = /^Table\s+(\d{1,3}(?:[-.–]\d{1,3})*[a-z]?)\b/;
const ANNEX = /^(Annex|Appendix|ANNEX|APPENDIX)\s+(\d{1,2}|[A-Z])\b/;
const POLICY_WORD = /^Policy\s+([A-Z]{1,5}\s?\d{1,3}[a-z]?)\b/;
const POLICY_CODE = /^([A-Z]{1,4}\d{1,3}[a-z]?)(?::|\s+[-–]\s+|\s+)[A-Z]/;
const PAGE_NUMBER_ONLY = /^\s*\d{1,4}\s*$/;

/** A section reference as chunk ids carry it: letters and digits, other runs of characters as `_`. */
export const sanitizeSectionRef = (ref: string): string =>
  ref.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '') || 'Section';

/**
 * A caller's section reference in the form the extractor writes: `paragraph 116` / `para. 116` / `¶116` →
 * `Para 116`, `table 5.2` → `Table 5-2`, `policy pm 10` → `Policy PM10`, `section 3` → `Chapter 3`.
 */
export const normaliseSectionRef = (raw: string): string => {
  const s = raw.trim().replace(/\s+/g, ' ');
  const para = /^(?:para(?:graph)?s?\.?|¶)\s*(\d{1,4}(?:\.\d{1,3})?)$/i.exec(s);
  if (para) return `Para ${para[1]}`;
  const keyword = /^(chapter|section|table|annex|appendix|policy)\s+(.+)$/i.exec(s);
  if (!keyword) return s;
  const word = (keyword[1] as string).toLowerCase();
  const rest = (keyword[2] as string).replace(/[–—]/g, '-');
  if (word === 'chapter' || word === 'section') return `Chapter ${rest}`;
  if (word === 'table') return `Table ${rest.replace(/\./g, '-')}`;
  if (word === 'policy') return `Policy ${rest.replace(/\s/g, '').toUpperCase()}`;
  return `${word === 'annex' ? 'Annex' : 'Appendix'} ${rest.toUpperCase()}`;
};

interface Heading {
  ref: string;
  /** A chapter/annex heading opens a container for the sections after it. */
  container: boolean;
}

class SectionReader {
  private lastChapter = 0;
  private lastPara = 0;
  private container: string | null = null;
  private current: PolicySection = { ref: PREAMBLE, refs: [PREAMBLE], pages: [] };
  readonly sections: PolicySection[] = [];

  heading(line: string): Heading | null {
    const t = line.trim();
    if (t.length === 0 || TOC_LINE.test(t)) return null;
    const short = t.length <= 90 && !ENDS_LIKE_SENTENCE.test(t);
    let m = CHAPTER_WORD.exec(t);
    if (m && short) return this.chapter(Number(m[1]));
    m = NUMBERED_TITLE.exec(t);
    if (m && short && Number(m[1]) === this.lastChapter + 1) return this.chapter(Number(m[1]));
    m = ANNEX.exec(t);
    if (m && short) return { ref: `${m[1]?.[0]}${m[1]?.slice(1).toLowerCase()} ${m[2]}`, container: true };
    m = TABLE.exec(t);
    if (m) return { ref: `Table ${(m[1] as string).replace(/[.–]/g, '-')}`, container: false };
    m = PARAGRAPH_WORD.exec(t);
    if (m) return this.para(Number(m[1]));
    m = NUMBERED_PARA.exec(t);
    if (m) {
      const n = Number(m[1]);
      if (n > this.lastPara && n <= this.lastPara + 5) return this.para(n);
    }
    m = DECIMAL_PARA.exec(t);
    if (m) return { ref: `Para ${m[1]}`, container: false };
    m = POLICY_WORD.exec(t);
    if (m && short) return { ref: `Policy ${(m[1] as string).replace(/\s/g, '')}`, container: false };
    m = POLICY_CODE.exec(t);
    if (m && short && t.length <= 80) return { ref: `Policy ${m[1]}`, container: false };
    return null;
  }

  private chapter(n: number): Heading {
    this.lastChapter = n;
    return { ref: `Chapter ${n}`, container: true };
  }

  private para(n: number): Heading {
    this.lastPara = n;
    return { ref: `Para ${n}`, container: false };
  }

  start(h: Heading): void {
    this.flush();
    if (h.container) this.container = h.ref;
    const refs = h.container || this.container === null ? [h.ref] : [this.container, h.ref];
    this.current = { ref: h.ref, refs, pages: [] };
  }

  add(page: number, line: string): void {
    const last = this.current.pages[this.current.pages.length - 1];
    if (last && last.page_number === page) last.text += `\n${line}`;
    else this.current.pages.push({ page_number: page, text: line });
  }

  flush(): void {
    if (this.current.pages.some((p) => p.text.trim() !== '')) this.sections.push(this.current);
  }
}

/**
 * Split a document's pages into sections. Several sections may share a reference (a table mentioned twice,
 * a repeated policy code): they keep document order and are read back together.
 */
export const extractSections = (pages: readonly PageText[]): PolicySection[] => {
  const reader = new SectionReader();
  for (const page of pages) {
    for (const line of page.text.split('\n')) {
      if (PAGE_NUMBER_ONLY.test(line)) continue; // running page numbers
      const h = reader.heading(line);
      if (h) reader.start(h);
      reader.add(page.page_number, line);
    }
  }
  reader.flush();
  return reader.sections;
};
