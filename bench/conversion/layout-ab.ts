// SPDX-License-Identifier: AGPL-3.0-or-later
// The page layout of two trees side by side in one process: each PDF's pages extracted once (this tree's addon), then
// the other tree's layoutPage and this tree's on fresh structured clones of the same raw pages, alternating which
// runs first; CPU by process.cpuUsage, median over ROUNDS after WARMUP. Fails (exit 1) if any page's layout (JSON)
// differs between the two.
//   node --expose-gc --import tsx bench/conversion/layout-ab.ts OTHER_TREE FILE_OR_DIR...   (ROUNDS=9 WARMUP=3 MAX_MB=20)
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { layoutPage } from '../../libs/conversion/src/pdf/page-layout.js';
import { loadNativeEngine } from '../../libs/conversion/src/pdf/pdf-native.js';
import type { RawPage } from '../../libs/conversion/src/pdf/pdf-page.protocol.js';
import { cpuMs as ms, extractAllPages, median, pdfFiles } from './bench-args.js';

const [other, ...inputs] = process.argv.slice(2);
if (!other) throw new Error('usage: layout-ab.ts OTHER_TREE FILE_OR_DIR...');
const base = (await import(resolve(other, 'libs/conversion/src/pdf/page-layout.ts'))) as {
  layoutPage: typeof layoutPage;
};
const gc = (globalThis as { gc?: () => void }).gc;
const ROUNDS = Number(process.env['ROUNDS'] ?? 9);
const WARMUP = Number(process.env['WARMUP'] ?? 3);
const maxBytes = Number(process.env['MAX_MB'] ?? 20) * 1024 * 1024;

const native = loadNativeEngine();
let differ = 0;
const total = { before: 0, after: 0 };
for (const file of inputs.flatMap((p) => pdfFiles(p, maxBytes))) {
  const key = file;
  let raws: RawPage[];
  try {
    const info = native.info({ key }, new Uint8Array(readFileSync(file)));
    raws = extractAllPages(native, key, info.pageCount);
  } catch (e) {
    process.stdout.write(`${JSON.stringify({ file, error: (e as Error).message })}\n`);
    continue;
  } finally {
    native.close();
  }
  const t = { before: [] as number[], after: [] as number[] };
  let same = true;
  for (let r = 0; r < ROUNDS + WARMUP; r++) {
    const order = r % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
    const out: Partial<Record<'before' | 'after', unknown[]>> = {};
    for (const side of order) {
      const input = structuredClone(raws);
      const fn = side === 'before' ? base.layoutPage : layoutPage;
      gc?.();
      const c = process.cpuUsage();
      const laid = input.map((raw) => fn(raw));
      const cpu = ms(process.cpuUsage(c));
      out[side] = laid;
      if (r >= WARMUP) t[side].push(cpu);
    }
    if (r === 0) {
      same = JSON.stringify(out.before) === JSON.stringify(out.after);
      if (!same) differ++;
    }
  }
  const row = { before: median(t.before), after: median(t.after) };
  total.before += row.before;
  total.after += row.after;
  const round = (x: number): number => Math.round(x * 100) / 100;
  process.stdout.write(
    `${JSON.stringify({ file: file.split('/').pop(), pages: raws.length, same, cpu_ms: { before: round(row.before), after: round(row.after) } })}\n`,
  );
}
process.stdout.write(
  `${JSON.stringify({ total_cpu_ms: { before: Math.round(total.before * 10) / 10, after: Math.round(total.after * 10) / 10 }, differ })}\n`,
);
process.exit(differ === 0 ? 0 : 1);
