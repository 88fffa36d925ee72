// SPDX-License-Identifier: AGPL-3.0-or-later
import type { PageLayout } from './layout.js';

// The channel between the mupdf worker pool (pdf-worker-pool.ts, main thread) and its worker threads
// (pdf-page.worker.ts): what starts a worker, what each request carries and what it answers.

/**
 * Which mupdf the workers use: `native` (Debian's libmupdf through the addon in `libs/conversion/native`,
 * built by `npm ci` when libmupdf-dev is installed), `wasm` (npm `mupdf`), or `auto`: native when it is
 * built, else WASM. Renders (OCR) and images always use WASM.
 */
export type PdfEngine = 'auto' | 'native' | 'wasm';

/** What a worker reports once its engine is loaded. */
export interface PdfEngineInfo {
  engine: 'native' | 'wasm';
  /** mupdf version of the native library (null for WASM). */
  version: string | null;
  /** Why the native engine is not used (null when it is). */
  reason: string | null;
}

/** A worker's `workerData`. */
export interface PdfWorkerData {
  engine: PdfEngine;
  /** An Int32Array's buffer (8+ elements): the pool stores 1 at index 0 to stop the native page in progress. */
  abort: SharedArrayBuffer;
}

/** One text line of the mupdf structured text (size and weight: those carrying most of its characters); the
 * engines' output inside the worker, the input of page-layout.ts. */
export interface RawLine {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  size: number;
  /** Size of the line's first character (a superscript footnote number is smaller than the text). */
  leadSize?: number;
  bold: boolean;
  /** At least 95% of its characters in a monospaced font (a code listing, a typewriter face). */
  mono?: boolean;
}

export interface RawBlock {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  lines: RawLine[];
}

export interface RawPage {
  pageNumber: number;
  width: number;
  height: number;
  blocks: RawBlock[];
  imageRatio: number;
}

/** A page as `extract` returns it: laid out in the worker (page-layout.ts), with its image-area ratio. */
export interface ExtractedPage extends PageLayout {
  imageRatio: number;
}

export interface DocInfo {
  needsPassword: boolean;
  pageCount: number;
  metadata: Record<string, string>;
  /** For image files opened as documents: the pixel width of the (first) image. */
  pixelWidth: number | null;
  firstPageWidth: number | null;
  /** The PDF was damaged (e.g. truncated) and mupdf rebuilt its cross-reference table. */
  repaired: boolean;
  /** mupdf's warnings while opening (deduplicated, at most 20). */
  logs: string[];
}

export interface RenderedPage {
  /** The page image, encoded as PAM (grey, uncompressed). */
  image: Uint8Array<ArrayBuffer>;
  width: number;
  height: number;
}

/** A scanned page's orientation from its text lines' shapes (see `text-orientation.ts`). */
export interface PageOrientation {
  /** The way its text lines run; `unknown` when neither way clearly dominates. */
  axis: 'horizontal' | 'vertical' | 'unknown';
  /** Clockwise rotation (0, 90, 180, 270) that turns the text upright. */
  rotation: number;
  /** The evidence is strong enough to read the page this way up without trials. */
  confident: boolean;
  lines: number;
  up: number;
  down: number;
  /** Degrees to add to `rotation` when rendering so the lines come out level (0 when under 0.3°). */
  skew: number;
}

/**
 * A page's vector drawing (what `drawings` counts): filled and stroked paths, their segments, and the share
 * of the page their boxes cover. Glyphs drawn as outlines are many small filled paths of several curves each.
 */
export interface PageDrawings {
  fills: number;
  strokes: number;
  segments: number;
  areaRatio: number;
}

/** The operations a worker performs, each with its own fields. */
export type PdfOp =
  | { op: 'info' }
  | { op: 'extract'; pages: number[] }
  | { op: 'render'; page: number; dpi: number; rotate?: number }
  | { op: 'orientation'; page: number }
  | { op: 'drawings'; pages: number[] }
  | { op: 'close' };

/** What each operation answers. */
export interface PdfOpResults {
  info: DocInfo;
  extract: ExtractedPage[];
  render: RenderedPage;
  orientation: PageOrientation;
  drawings: PageDrawings[];
  close: null;
}

export type PdfOpName = PdfOp['op'];

/**
 * A request as posted to a worker: the operation, its id (0: no reply is awaited) and the document it is about.
 * The document's bytes come with the first request about it; later ones name it by `key` only.
 */
export type PdfRequest<O extends PdfOp = PdfOp> = O & {
  id: number;
  key: string;
  mime?: string;
  bytes?: Uint8Array;
};

/** The first message of a worker (id 0): its engine loaded, or why it could not start. */
export type PdfStartMessage = ({ id: 0; ready: true } & PdfEngineInfo) | { id: 0; ready: false; error: string };

/** The answer to a request, under the request's id. */
export type PdfReply =
  | { id: number; ok: true; result: PdfOpResults[PdfOpName] }
  | { id: number; ok: false; error: string };

export type PdfWorkerMessage = PdfStartMessage | PdfReply;
