// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Issue 26, round 14: scans made of the bench's own PDFs (BENCH_SCAN=1): each page rendered grey at 200 DPI by
 * mupdf, degraded mildly (paper grey 235, a little grain, ink lightened to 40), and drawn as the only thing on an
 * image-only page tilted 0.4–1.2° (the sign and size from the document's name), so a tuning set can be read as a
 * scan without committing a binary. The expected values are the born-digital document's.
 */
import { renderGrayPages } from '@lectern/conversion';
import { makePdf, type BenchDocument } from '@lectern/testing';

const hash = (s: string): number => {
  let h = 2166136261;
  for (let i = 0; i < s.length; i += 1) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return h;
};

export const scanBytes = async (name: string, pdf: Uint8Array): Promise<Uint8Array> => {
  const seed = hash(name);
  const degrees = (seed % 2 ? 1 : -1) * (0.4 + ((seed >>> 1) % 9) / 10);
  const t = (degrees * Math.PI) / 180;
  const [c, s] = [Math.cos(t), Math.sin(t)];
  const f = (n: number) => n.toFixed(4);
  let rnd = seed || 1;
  const noise = () => {
    rnd ^= rnd << 13;
    rnd ^= rnd >>> 17;
    rnd ^= rnd << 5;
    return ((rnd >>> 0) % 25) - 12;
  };
  const pages = await renderGrayPages(pdf, 200);
  return makePdf(
    pages.map((page) => {
      const gray = new Uint8Array(page.gray.length);
      for (let i = 0; i < gray.length; i += 1)
        gray[i] = Math.max(0, Math.min(255, 40 + (page.gray[i]! * (235 - 40)) / 255 + noise()));
      return {
        content: `q ${f(612 * c)} ${f(612 * s)} ${f(-792 * s)} ${f(792 * c)} ${f(Math.max(0, 792 * s))} ${f(Math.max(0, -612 * s))} cm /Im1 Do Q`,
        image: { width: page.width, height: page.height, gray },
      };
    }),
  );
};

/** The document as a scan: same name with " (scanned)", same schema and expected values. */
export const scannedDocument = (d: BenchDocument): BenchDocument => ({
  ...d,
  name: `${d.name} (scanned)`,
  set: `${d.set ?? d.source} (scanned)`,
  filename: d.filename.replace(/(\.pdf)?$/i, '-scan.pdf'),
  bytes: async () => scanBytes(d.name, await d.bytes()),
});
