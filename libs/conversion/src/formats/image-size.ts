// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Largest image (pixels, all pages of a TIFF each) a conversion decodes: a 300-DPI A3 scan is 17 MP. Decoding
 * costs several bytes a pixel in mupdf and again in the OCR engine, so a small file declaring 20000x20000 pixels
 * would cost gigabytes: it is refused from its header, before anything decodes it.
 */
export const MAX_IMAGE_PIXELS = 50_000_000;

export interface ImageSize {
  width: number;
  height: number;
}

/**
 * The pixel sizes an image file declares (one per TIFF page), read from its header without decoding:
 * PNG (IHDR), JPEG (the first SOF marker), BMP (the info header), TIFF (every IFD). `undefined` when the
 * header cannot be read (the decoder then reports the file as damaged).
 */
export function declaredImageSizes(bytes: Uint8Array, mime: string): ImageSize[] | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    switch (mime) {
      case 'image/png':
        return [{ width: view.getUint32(16), height: view.getUint32(20) }];
      case 'image/jpeg':
        return jpegSize(bytes, view);
      case 'image/bmp': {
        const header = view.getUint32(14, true);
        if (header === 12) return [{ width: view.getUint16(18, true), height: view.getUint16(20, true) }];
        return [{ width: Math.abs(view.getInt32(18, true)), height: Math.abs(view.getInt32(22, true)) }];
      }
      case 'image/tiff':
        return tiffSizes(view);
      default:
        return undefined;
    }
  } catch {
    return undefined; // RangeError: a header cut short
  }
}

function jpegSize(bytes: Uint8Array, view: DataView): ImageSize[] | undefined {
  let p = 2;
  while (p + 4 <= bytes.length) {
    if (bytes[p] !== 0xff) return undefined;
    const marker = bytes[p + 1] as number;
    if (marker === 0xff) {
      p += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      p += 2;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return undefined; // scan data before any frame header
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return [{ height: view.getUint16(p + 5), width: view.getUint16(p + 7) }];
    p += 2 + view.getUint16(p + 2);
  }
  return undefined;
}

function tiffSizes(view: DataView): ImageSize[] | undefined {
  const little = view.getUint8(0) === 0x49;
  const u16 = (o: number): number => view.getUint16(o, little);
  const u32 = (o: number): number => view.getUint32(o, little);
  const sizes: ImageSize[] = [];
  const seen = new Set<number>();
  let ifd = u32(4);
  while (ifd !== 0 && !seen.has(ifd) && sizes.length < 10_000) {
    seen.add(ifd);
    const count = u16(ifd);
    let width = 0;
    let height = 0;
    for (let k = 0; k < count; k++) {
      const e = ifd + 2 + k * 12;
      const tag = u16(e);
      if (tag !== 256 && tag !== 257) continue;
      const value = u16(e + 2) === 3 ? u16(e + 8) : u32(e + 8);
      if (tag === 256) width = value;
      else height = value;
    }
    sizes.push({ width, height });
    ifd = u32(ifd + 2 + count * 12);
  }
  return sizes.length ? sizes : undefined;
}
