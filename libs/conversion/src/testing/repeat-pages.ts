// SPDX-License-Identifier: AGPL-3.0-or-later
import type * as Mupdf from 'mupdf';
import { importEsm } from '../util/import-esm.js';

/**
 * Test support: a PDF of `pages` pages made by repeating the pages of `source` in order (grafted, so an
 * image-only scan stays an image-only scan). Lets a corpus test build a long scanned document (spec 004
 * SC-001 wants >= 50 pages) from the short real scans in ../shared/corpora/scanned-ocr. mupdf's WASM build is
 * loaded by the call, not by importing @lectern/conversion (every service and the CLI import it).
 */
export const repeatPdfPages = async (source: Uint8Array, pages: number): Promise<Buffer> => {
  const mupdf = await importEsm<typeof Mupdf>('mupdf');
  const src = mupdf.Document.openDocument(source, 'application/pdf').asPDF();
  if (!src) throw new Error('not a PDF');
  const count = src.countPages();
  const out = new mupdf.PDFDocument();
  for (let i = 0; i < pages; i++) out.graftPage(-1, src, i % count);
  const buffer = out.saveToBuffer('compress');
  return Buffer.from(buffer.asUint8Array());
};
