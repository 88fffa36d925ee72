// SPDX-License-Identifier: AGPL-3.0-or-later
// Child of first-parts.ts (COLD_PARTS=1): in one fresh process, on the calling thread, the conversion's parts
// five times over (the native addon's extraction, the layout of every page, the Markdown build), CPU ms of each
// round (process.cpuUsage: V8's background compiler threads included): how much of a first conversion is the JIT
// warming up (round 1 against round 5).
import { readFileSync } from 'node:fs';
const ms = (u: NodeJS.CpuUsage): number => Math.round((u.user + u.system) / 100) / 10;
const c0 = process.cpuUsage();
const { layoutPage } = await import('../../libs/conversion/src/pdf/page-layout.js');
const { buildMarkdown } = await import('../../libs/conversion/src/pdf/pdf-markdown.js');
const { loadNativeEngine } = await import('../../libs/conversion/src/pdf/pdf-native.js');
const { extractAllPages } = await import('./bench-args.js');
const out: Record<string, number> = { import: ms(process.cpuUsage(c0)) };
let c = process.cpuUsage();
const native = loadNativeEngine();
out['engine'] = ms(process.cpuUsage(c));
const path = process.argv[2] ?? '';
const bytes = new Uint8Array(readFileSync(path));
const rounds = Number(process.env['ROUNDS'] ?? 5);
for (let r = 1; r <= rounds; r++) {
  c = process.cpuUsage();
  native.close();
  const { pageCount } = native.info({ key: path }, bytes);
  const raws = extractAllPages(native, path, pageCount);
  out[`extract_${r}`] = ms(process.cpuUsage(c));
  c = process.cpuUsage();
  const layouts = raws.map((raw) => ({ ...layoutPage(raw), imageRatio: raw.imageRatio }));
  out[`layout_${r}`] = ms(process.cpuUsage(c));
  c = process.cpuUsage();
  buildMarkdown(layouts.map((l) => ({ pageNumber: l.pageNumber, layout: l })));
  out[`markdown_${r}`] = ms(process.cpuUsage(c));
}
process.stdout.write(`${JSON.stringify(out)}\n`);
