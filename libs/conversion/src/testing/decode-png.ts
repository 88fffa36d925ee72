// SPDX-License-Identifier: AGPL-3.0-or-later
import type * as Mupdf from 'mupdf';
import { importEsm } from '../util/import-esm.js';

/** A decoded image: `n` components per pixel, rows of `width * n` bytes. */
export interface DecodedImage {
  width: number;
  height: number;
  n: number;
  pixels: Uint8ClampedArray;
}

/** Test support: a PNG decoded by mupdf (no PNG library in the tree), to look at a rendered page's pixels. */
export const decodePng = async (png: Uint8Array): Promise<DecodedImage> => {
  const mupdf = await importEsm<typeof Mupdf>('mupdf');
  const image = new mupdf.Image(png);
  const pix = image.toPixmap();
  const out = {
    width: pix.getWidth(),
    height: pix.getHeight(),
    n: pix.getNumberOfComponents(),
    pixels: new Uint8ClampedArray(pix.getPixels()),
  };
  pix.destroy();
  image.destroy();
  return out;
};

/** The RGB of pixel (x, y). */
export const pixelAt = (image: DecodedImage, x: number, y: number): [number, number, number] => {
  const i = (Math.round(y) * image.width + Math.round(x)) * image.n;
  return [image.pixels[i]!, image.pixels[i + 1]!, image.pixels[i + 2]!];
};
