// SPDX-License-Identifier: AGPL-3.0-or-later
// Where a warm native conversion's CPU goes, part by part, in one process (process.cpuUsage, not profiles, which
// misattribute at high load): mupdf's extraction in the addon, the layout (page-layout.ts, in the workers), the
// structured clone of the laid-out pages to the main thread, the Markdown build and page texts, the index, the
// result's validation; and a whole warm conversion through the engine beside them.
//   npx tsx bench/conversion/warm-parts.ts FILE...   (ROUNDS=7)
import { readFileSync } from 'node:fs';
import { ConversionResultSchema } from '@lectern/contracts/conversion';
import { createConversionEngine } from '@lectern/conversion';
import { indexMarkdown } from '../../libs/conversion/src/markdown-index.js';
import { layoutPage } from '../../libs/conversion/src/pdf/page-layout.js';
import { buildMarkdown } from '../../libs/conversion/src/pdf/pdf-markdown.js';
import { loadNativeEngine } from '../../libs/conversion/src/pdf/pdf-native.js';
import { cpuMs as ms, extractAllPages, median } from './bench-args.js';

const ROUNDS = Number(process.env['ROUNDS'] ?? 7);
const timed = <T>(fn: () => T): [T, number] => {
  const c = process.cpuUsage();
  const r = fn();
  return [r, ms(process.cpuUsage(c))];
};

const native = loadNativeEngine();
const engine = createConversionEngine({
  pdfEngine: 'native',
  ocrEngine: 'native',
  inlinePdf: process.env['INLINE'] === '1',
});
for (const file of process.argv.slice(2)) {
  const bytes = new Uint8Array(readFileSync(file));
  const key = file;
  const info = native.info({ key }, bytes); // page count
  const parts: Record<string, number[]> = {
    open: [],
    extract: [],
    layout: [],
    clone: [],
    markdown: [],
    index: [],
    validate: [],
    whole: [],
  };
  for (let r = 0; r < ROUNDS + 3; r++) {
    const keep = r >= 3;
    // each conversion opens the document afresh (the pool closes it after one): its fonts and cross-references
    const [, tOpen] = timed(() => {
      native.close();
      native.info({ key }, bytes);
    });
    const [raws, tExtract] = timed(() => extractAllPages(native, key, info.pageCount));
    const [layouts, tLayout] = timed(() => raws.map((raw) => ({ ...layoutPage(raw), imageRatio: raw.imageRatio })));
    const [cloned, tClone] = timed(() => structuredClone(layouts));
    const [built, tMarkdown] = timed(() => buildMarkdown(cloned.map((l) => ({ pageNumber: l.pageNumber, layout: l }))));
    const [, tIndex] = timed(() => indexMarkdown(built.markdown, built.pageMap));
    const c = process.cpuUsage();
    const result = await engine.convert({ path: file });
    const tWhole = ms(process.cpuUsage(c));
    const [, tValidate] = timed(() => ConversionResultSchema.parse(result));
    if (keep) {
      parts['open']?.push(tOpen);
      parts['extract']?.push(tExtract);
      parts['layout']?.push(tLayout);
      parts['clone']?.push(tClone);
      parts['markdown']?.push(tMarkdown);
      parts['index']?.push(tIndex);
      parts['validate']?.push(tValidate);
      parts['whole']?.push(tWhole);
    }
  }
  const row = Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, Math.round(median(v) * 10) / 10]));
  process.stdout.write(`${JSON.stringify({ file: file.split('/').pop(), pages: info.pageCount, cpu_ms: row })}\n`);
}
await engine.close();
