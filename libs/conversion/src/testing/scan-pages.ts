// SPDX-License-Identifier: AGPL-3.0-or-later
import type * as Mupdf from 'mupdf';
import { importEsm } from '../util/import-esm.js';

/** A page rendered as an 8-bit grey image (what a scanner makes of it). */
export interface GrayScan {
  width: number;
  height: number;
  gray: Uint8Array;
}

/**
 * Test support: each page of the PDF `source` rendered at `dpi` as a grey image, so a test can build a scan (a PDF
 * whose pages are only those images: `makePdf` of libs/testing) of text it wrote, without a scanner or a corpus
 * file. mupdf's WASM build is loaded by the call, not by importing @lectern/conversion.
 */
export const renderGrayPages = async (source: Uint8Array, dpi = 200): Promise<GrayScan[]> => {
  const mupdf = await importEsm<typeof Mupdf>('mupdf');
  const doc = mupdf.Document.openDocument(source, 'application/pdf');
  const scale = dpi / 72;
  const out: GrayScan[] = [];
  for (let i = 0; i < doc.countPages(); i++) {
    const pix = doc.loadPage(i).toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceGray, false);
    out.push({ width: pix.getWidth(), height: pix.getHeight(), gray: new Uint8Array(pix.getPixels()) });
  }
  return out;
};
