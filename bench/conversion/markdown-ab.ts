// SPDX-License-Identifier: AGPL-3.0-or-later
// The Markdown build of two trees side by side in one process: each PDF's pages extracted and laid out once (this
// tree's addon and layout), then the other tree's buildMarkdown and this tree's, alternating which runs first, each on
// its own structured clone of the same layouts; CPU by process.cpuUsage, median over ROUNDS after WARMUP. Fails (exit
// 1) if any document's Markdown, page map or left-out furniture differs between the two.
//   node --expose-gc --import tsx bench/conversion/markdown-ab.ts OTHER_TREE FILE_OR_DIR...   (ROUNDS=15 WARMUP=5 MAX_MB=20)
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { layoutPage } from '../../libs/conversion/src/pdf/page-layout.js';
import { buildMarkdown } from '../../libs/conversion/src/pdf/pdf-markdown.js';
import { loadNativeEngine } from '../../libs/conversion/src/pdf/pdf-native.js';
import type { BuiltMarkdown, BuildPage } from '../../libs/conversion/src/pdf/pdf-markdown.js';
import { cpuMs as ms, extractAllPages, median, pdfFiles } from './bench-args.js';

const [other, ...inputs] = process.argv.slice(2);
if (!other) throw new Error('usage: markdown-ab.ts OTHER_TREE FILE_OR_DIR...');
const base = (await import(resolve(other, 'libs/conversion/src/pdf/pdf-markdown.ts'))) as {
  buildMarkdown: (pages: BuildPage[]) => BuiltMarkdown;
};
const gc = (globalThis as { gc?: () => void }).gc;
const ROUNDS = Number(process.env['ROUNDS'] ?? 15);
const WARMUP = Number(process.env['WARMUP'] ?? 5);
const maxBytes = Number(process.env['MAX_MB'] ?? 20) * 1024 * 1024;

const native = loadNativeEngine();
let differ = 0;
const total = { before: 0, after: 0 };
for (const file of inputs.flatMap((p) => pdfFiles(p, maxBytes))) {
  const key = file;
  let layouts;
  try {
    const info = native.info({ key }, new Uint8Array(readFileSync(file)));
    const raws = extractAllPages(native, key, info.pageCount);
    layouts = raws.map((raw) => ({ ...layoutPage(raw), imageRatio: raw.imageRatio }));
    native.close();
  } catch (e) {
    process.stdout.write(`${JSON.stringify({ file, error: (e as Error).message })}\n`);
    native.close();
    continue;
  }
  const pagesOf = (): BuildPage[] => structuredClone(layouts).map((l) => ({ pageNumber: l.pageNumber, layout: l }));
  const run = (fn: (p: BuildPage[]) => BuiltMarkdown): [BuiltMarkdown, number] => {
    const input = pagesOf();
    gc?.(); // each side starts with a clean young generation (run with node --expose-gc)
    const c = process.cpuUsage();
    const r = fn(input);
    return [r, ms(process.cpuUsage(c))];
  };
  const t = { before: [] as number[], after: [] as number[] };
  let same = true;
  for (let r = 0; r < ROUNDS + WARMUP; r++) {
    const order = r % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
    const out: Partial<Record<'before' | 'after', BuiltMarkdown>> = {};
    for (const side of order) {
      const [res, cpu] = run(side === 'before' ? base.buildMarkdown : buildMarkdown);
      out[side] = res;
      if (r >= WARMUP) t[side].push(cpu);
    }
    if (r === 0) {
      const a = out.before as BuiltMarkdown;
      const b = out.after as BuiltMarkdown;
      same =
        a.markdown === b.markdown &&
        JSON.stringify(a.pageMap) === JSON.stringify(b.pageMap) &&
        JSON.stringify([...a.furniture].map((x) => [x.x0, x.y0, x.text])) ===
          JSON.stringify([...b.furniture].map((x) => [x.x0, x.y0, x.text]));
      if (!same) differ++;
    }
  }
  const row = { before: median(t.before), after: median(t.after) };
  total.before += row.before;
  total.after += row.after;
  process.stdout.write(
    `${JSON.stringify({ file: file.split('/').pop(), pages: layouts.length, same, cpu_ms: { before: Math.round(row.before * 100) / 100, after: Math.round(row.after * 100) / 100 } })}\n`,
  );
}
process.stdout.write(
  `${JSON.stringify({ total_cpu_ms: { before: Math.round(total.before * 10) / 10, after: Math.round(total.after * 10) / 10 }, differ })}\n`,
);
process.exit(differ === 0 ? 0 : 1);
