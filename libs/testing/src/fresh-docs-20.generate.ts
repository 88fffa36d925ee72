// SPDX-License-Identifier: AGPL-3.0-or-later
/*
 * Makes fresh variant 20's scans (fresh-docs-20.draw.ts) into libs/testing/fixtures/fresh-20/<name>.pdf (committed:
 * the tests and the bench run no Python):
 *
 *   1. PyMuPDF (/usr/bin/python3's fitz; the script below, fed the document as JSON on stdin) draws the page's
 *      operations on a new PDF page with the built-in Base-14 fonts and rasterises it in grey at the scan's DPI
 *      (`get_pixmap(dpi=…, colorspace=csGRAY)`), a PNG on stdout;
 *   2. sharp (node_modules) rotates it on white and hands back raw grey pixels; a seeded pixel pass (seededRandom)
 *      applies a keystone (rows scaled about the centre, the top narrower), a linear lighting gradient, a coffee
 *      ring or a round stamp, ink spread and grain; then sharp encodes a grey JPEG at the scan's quality, or the page
 *      is Floyd–Steinberg dithered to 1 bit (a fax);
 *   3. the picture is wrapped as a one-page PDF with no text layer and no font (imageOnlyPdf in image-only-pdf.ts), its /Title the
 *      digest of the drawing and scan settings, so fresh-docs-20.spec.ts can tell a stale file.
 *
 *   npx tsx libs/testing/src/fresh-docs-20.generate.ts [name-part ...]
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { drawDigest, FRESH_20_DOCS, fresh20Name, type Fresh20Doc } from './fresh-docs-20.draw.js';
import { imageOnlyPdf, type ScanPicture } from './image-only-pdf.js';
import { repoRoot } from './paths.js';
import { seededRandom } from './seeded-random.js';

const PYTHON = `
import sys, json, fitz
doc = json.load(sys.stdin)
FONTS = {'helv': 'helv', 'hebo': 'hebo', 'tiro': 'tiro', 'tibo': 'tibo', 'cour': 'cour', 'cobo': 'cobo'}
pdf = fitz.open()
page = pdf.new_page(width=doc['width'], height=doc['height'])
for line in doc['page'].splitlines():
    line = line.strip()
    if not line:
        continue
    head, _, text = line.partition('|')
    f = head.split()
    op, a = f[0], [float(x) for x in f[1:] if x not in FONTS]
    font = next((x for x in f[1:] if x in FONTS), 'helv')
    if op == 'T':
        page.insert_text((a[0], a[1]), text, fontsize=a[2], fontname=font)
    elif op in ('C', 'RT'):
        w = fitz.get_text_length(text, fontname=font, fontsize=a[2])
        x = a[0] - w / 2 if op == 'C' else a[0] - w
        page.insert_text((x, a[1]), text, fontsize=a[2], fontname=font)
    elif op == 'TB':
        left = page.insert_textbox(fitz.Rect(a[0], a[1], a[2], a[3]), text, fontsize=a[4], fontname=font)
        if left < 0:
            sys.exit('text box overflows: ' + line)
    elif op == 'L':
        page.draw_line((a[0], a[1]), (a[2], a[3]), width=a[4])
    elif op == 'R':
        page.draw_rect(fitz.Rect(a[0], a[1], a[2], a[3]), width=a[4])
    elif op == 'F':
        page.draw_rect(fitz.Rect(a[0], a[1], a[2], a[3]), width=0, fill=(a[4],) * 3)
    else:
        sys.exit('unknown operation: ' + line)
pix = page.get_pixmap(dpi=doc['dpi'], colorspace=fitz.csGRAY, alpha=False)
sys.stdout.buffer.write(pix.tobytes('png'))
`;

/** PyMuPDF's grey PNG of the page at the scan's DPI. */
const rasterise = (doc: Fresh20Doc): Buffer => {
  const run = spawnSync('/usr/bin/python3', ['-c', PYTHON], {
    input: JSON.stringify({ ...doc.size, page: doc.page, dpi: doc.scan.dpi }),
    maxBuffer: 256 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`PyMuPDF failed for ${fresh20Name(doc)}: ${run.stderr.toString()}`);
  return run.stdout;
};

/** Rotation, keystone, lighting, a ring or stamp, grain; then a grey JPEG or a dithered 1-bit fax. */
const degrade = async (png: Buffer, doc: Fresh20Doc, seed: number): Promise<ScanPicture> => {
  const s = doc.scan;
  const { data, info } = await sharp(png)
    .greyscale()
    .rotate(s.rotate, { background: { r: 255, g: 255, b: 255 } })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  const src = (x: number, y: number): number => {
    if (x < 0 || y < 0 || x >= width - 1 || y >= height - 1) return 255;
    const x0 = Math.floor(x);
    const y0 = Math.floor(y);
    const fx = x - x0;
    const fy = y - y0;
    const at = (xx: number, yy: number): number => data[(yy * width + xx) * channels]!;
    return (
      at(x0, y0) * (1 - fx) * (1 - fy) +
      at(x0 + 1, y0) * fx * (1 - fy) +
      at(x0, y0 + 1) * (1 - fx) * fy +
      at(x0 + 1, y0 + 1) * fx * fy
    );
  };
  const next = seededRandom(seed);
  const pxPerPt = s.dpi / 72;
  const out = new Float32Array(width * height);
  const cx = width / 2;
  for (let y = 0; y < height; y++) {
    // keystone: the top row is shown (1 - keystone) as wide as the bottom one
    const scale = 1 - (s.keystone ?? 0) * (1 - y / height);
    for (let x = 0; x < width; x++) {
      let v = s.keystone ? src(cx + (x - cx) / scale, y) : data[(y * width + x) * channels]!;
      // paper is never white: the lighting falls linearly from the top-left corner to the bottom-right one
      const t = (x / width + y / height) / 2;
      const light = 1 - (1 - (s.lighting ?? 1)) * t;
      // ink and paper levels: a fax machine's scanner sees white paper (its greys dithered), a camera or flatbed a grey one
      v = 30 + (v / 255) * ((s.fax ? 255 : 235) - 30);
      v *= light;
      for (const mark of [s.ring && { ...s.ring, kind: 'ring' }, s.stamp && { ...s.stamp, kind: 'stamp' }]) {
        if (!mark) continue;
        const d = Math.hypot(x / pxPerPt - mark.x, y / pxPerPt - mark.y);
        if (mark.kind === 'ring') {
          // a coffee ring: a dark rim and a faint stain inside
          const rim = Math.exp(-(((d - mark.r) / 2.2) ** 2));
          v *= 1 - 0.35 * rim - (d < mark.r ? 0.08 : 0);
        } else if (Math.abs(d - mark.r) < 1.6 || Math.abs(d - mark.r * 0.78) < 1) {
          // a round stamp: two rings of ink
          v *= 0.55;
        }
      }
      if (s.grain) v += next(2 * s.grain + 1) - s.grain;
      out[y * width + x] = v < 0 ? 0 : v > 255 ? 255 : v;
    }
  }
  if (s.fax) {
    // Floyd–Steinberg to 1 bit, packed for a PDF DeviceGray image (1 is white, rows padded to a byte)
    const rowBytes = Math.ceil(width / 8);
    const packed = Buffer.alloc(rowBytes * height);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const i = y * width + x;
        const old = out[i]!;
        const white = old >= 128;
        if (white) packed[y * rowBytes + (x >> 3)]! |= 0x80 >> (x & 7);
        const err = old - (white ? 255 : 0);
        if (x + 1 < width) out[i + 1]! += (err * 7) / 16;
        if (y + 1 < height) {
          if (x > 0) out[i + width - 1]! += (err * 3) / 16;
          out[i + width]! += (err * 5) / 16;
          if (x + 1 < width) out[i + width + 1]! += err / 16;
        }
      }
    return { data: deflateSync(packed, { level: 9 }), width, height, bilevel: true };
  }
  const grey = Buffer.from(Uint8Array.from(out, (v) => Math.round(v)));
  const jpeg = await sharp(grey, { raw: { width, height, channels: 1 } })
    .toColourspace('b-w')
    .jpeg({ quality: s.quality ?? 50, progressive: false })
    .toBuffer();
  return { data: jpeg, width, height, bilevel: false };
};

const main = async (): Promise<void> => {
  const only = process.argv.slice(2);
  const dir = join(repoRoot(), 'libs', 'testing', 'fixtures', 'fresh-20');
  mkdirSync(dir, { recursive: true });
  for (const [i, doc] of FRESH_20_DOCS.entries()) {
    const name = fresh20Name(doc);
    if (only.length > 0 && !only.some((part) => name.includes(part))) continue;
    const img = await degrade(rasterise(doc), doc, 2000 + i);
    const pdf = imageOnlyPdf(
      img,
      doc.scan.dpi,
      drawDigest(doc),
      'fresh-docs-20.generate.ts: PyMuPDF raster, sharp, image-only',
    );
    writeFileSync(join(dir, name), pdf);
    process.stdout.write(`${name} ${img.width}x${img.height} ${pdf.length} bytes\n`);
  }
};

await main();
