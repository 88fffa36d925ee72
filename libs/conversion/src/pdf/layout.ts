// SPDX-License-Identifier: AGPL-3.0-or-later
import type { TableBlock } from './tables.js';

// The page layout computed in the mupdf worker threads (page-layout.ts) and read by the Markdown builder on the
// main thread.

/** A visual line: the raw fragments sharing one baseline, joined left to right. */
export interface Line {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  size: number;
  bold: boolean;
  /** The first character is a smaller-than-text number: a footnote starts here. */
  footnote: boolean;
}

/** A paragraph (or heading) as the main thread receives it; its lines stay in the worker. */
export interface TextBlock {
  kind: 'text';
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  lineCount: number;
  /** The lines' text joined, words hyphenated across lines rejoined ("plan-" + "making"). */
  text: string;
  /** Font size carrying most characters of the block, and whether (almost) all of it is bold. */
  size: number;
  bold: boolean;
  chars: number;
}

/** A code or monospaced listing: its lines as set, indentation kept (fenced in the Markdown). */
export interface CodeBlock {
  kind: 'code';
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  lines: string[];
}

export type PageBlock = TextBlock | TableBlock | CodeBlock;

export interface PageLayout {
  pageNumber: number;
  width: number;
  height: number;
  /** Text blocks and tables in reading order (column by column on pages with a gutter). */
  blocks: PageBlock[];
}
