// SPDX-License-Identifier: AGPL-3.0-or-later
/*
 * Makes fresh variant 19's scans (fresh-docs-19.html.ts) into libs/testing/fixtures/fresh-19/<name>.pdf (committed:
 * the tests and the bench start no browser):
 *
 *   1. chromium (Debian's, through puppeteer-core; JavaScript off, every request but the page refused) renders the
 *      document's HTML at its paper width and takes a full-page PNG screenshot with a device scale factor of
 *      dpi / 96, so the picture has the document's `scan.dpi`;
 *   2. sharp (node_modules; ImageMagick is not installed here, /usr/local/bin/convert is a stand-in that only prints
 *      a PNG) degrades it deterministically: grey, paper and ink levels (a grey background), a small rotation on the
 *      paper colour, a mild Gaussian blur, then seeded grain (mulberry32, seededRandom) and either a grey JPEG or a
 *      1-bit threshold (a photocopy);
 *   3. the picture is wrapped as a one-page PDF with no text layer and no font (written here: a DCTDecode grey JPEG
 *      or a FlateDecode 1-bit image, drawn over the whole page at the scan's DPI), its /Title the digest of the HTML
 *      and the scan settings so fresh-docs-19.spec.ts can tell a stale file.
 *
 *   npx tsx libs/testing/src/fresh-docs-19.generate.ts [name-part ...]   (CHROMIUM_PATH overrides /usr/bin/chromium)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import type puppeteer from 'puppeteer-core';
import sharp from 'sharp';
import { FRESH_19_DOCS, fresh19Name, fullHtml, htmlDigest, type Fresh19Doc } from './fresh-docs-19.html.js';
import { launchChromium, offlinePage } from './offline-chromium.js';
import { imageOnlyPdf, type ScanPicture } from './image-only-pdf.js';
import { repoRoot } from './paths.js';
import { seededRandom } from './seeded-random.js';

/** The document at its paper width (CSS px at 96 per inch), as a PNG of `scan.dpi`. */
const screenshot = async (browser: puppeteer.Browser, doc: Fresh19Doc): Promise<Buffer> => {
  const page = await offlinePage(browser);
  try {
    await page.setViewport({
      width: Math.round((doc.paper.widthMm / 25.4) * 96),
      height: 400,
      deviceScaleFactor: doc.scan.dpi / 96,
    });
    await page.setContent(fullHtml(doc), { waitUntil: 'load' });
    return Buffer.from(await page.screenshot({ type: 'png', fullPage: true }));
  } finally {
    await page.close();
  }
};

/** Grey levels, rotation, blur and grain: a page as a scanner or a phone sees it. */
const degrade = async (png: Buffer, doc: Fresh19Doc, seed: number): Promise<ScanPicture> => {
  const { paper, ink, rotate, blur, grain, bilevel } = doc.scan;
  // white → paper, black → ink
  let image = sharp(png)
    .greyscale()
    .linear((paper - ink) / 255, ink);
  image = sharp(await image.png().toBuffer()).rotate(rotate, { background: { r: paper, g: paper, b: paper } });
  if (blur) image = image.blur(blur);
  const { data, info } = await image.greyscale().raw().toBuffer({ resolveWithObject: true });
  const grey = Buffer.from(data.buffer, data.byteOffset, data.length);
  const channels = info.channels;
  const pixels = Buffer.alloc(info.width * info.height);
  const next = seededRandom(seed);
  for (let i = 0; i < pixels.length; i++) {
    const v = grey[i * channels]! + (grain ? next(2 * grain + 1) - grain : 0);
    pixels[i] = v < 0 ? 0 : v > 255 ? 255 : v;
  }
  const raw = sharp(pixels, { raw: { width: info.width, height: info.height, channels: 1 } });
  if (bilevel) {
    const { data: bw, info: bwInfo } = await raw
      .threshold(bilevel)
      .toColourspace('b-w')
      .raw()
      .toBuffer({ resolveWithObject: true });
    // PDF 1-bit DeviceGray: 1 is white, rows padded to a byte
    const rowBytes = Math.ceil(info.width / 8);
    const packed = Buffer.alloc(rowBytes * info.height);
    for (let y = 0; y < info.height; y++)
      for (let x = 0; x < info.width; x++)
        if (bw[(y * info.width + x) * bwInfo.channels]! > 127) packed[y * rowBytes + (x >> 3)]! |= 0x80 >> (x & 7);
    return { data: deflateSync(packed, { level: 9 }), width: info.width, height: info.height, bilevel: true };
  }
  const jpeg = await raw
    .toColourspace('b-w')
    .jpeg({ quality: doc.scan.quality ?? 60, progressive: false })
    .toBuffer();
  return { data: jpeg, width: info.width, height: info.height, bilevel: false };
};

const main = async (): Promise<void> => {
  const only = process.argv.slice(2);
  const dir = join(repoRoot(), 'libs', 'testing', 'fixtures', 'fresh-19');
  mkdirSync(dir, { recursive: true });
  const browser = await launchChromium(['--font-render-hinting=none']);
  try {
    for (const [i, doc] of FRESH_19_DOCS.entries()) {
      const name = fresh19Name(doc);
      if (only.length > 0 && !only.some((part) => name.includes(part))) continue;
      const img = await degrade(await screenshot(browser, doc), doc, 1900 + i);
      const pdf = imageOnlyPdf(
        img,
        doc.scan.dpi,
        htmlDigest(doc),
        'fresh-docs-19.generate.ts: chromium screenshot, sharp, image-only',
      );
      writeFileSync(join(dir, name), pdf);
      process.stdout.write(`${name} ${img.width}x${img.height} ${pdf.length} bytes\n`);
    }
  } finally {
    await browser.close();
  }
};

await main();
