// SPDX-License-Identifier: AGPL-3.0-or-later
// Two builds of the native mupdf addon side by side in one process: their packed output (`extract`'s numbers,
// bit for bit, and its text) of every page of each PDF must be equal, and with ROUNDS=n each document's whole
// extraction (open, info, every page 16 at a time, close) is timed n times per build, alternating which goes
// first (CPU ms, median after 2 untimed). Exit 1 when any document differs.
//   npx tsx bench/conversion/addon-ab.ts OLD.node NEW.node DIR_OR_FILE...   (copy a build elsewhere first: one
//   path is loaded once per process)
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpuMs, median, pdfFiles } from './bench-args.js';

interface Addon {
  createEngine(): object;
  open(e: object, bytes: Uint8Array, mime: string): void;
  info(e: object): { pageCount: number };
  extract(e: object, pages: number[]): { nums: Float64Array; text: string };
  close(e: object): void;
}

const [oldPath, newPath, ...inputs] = process.argv.slice(2);
if (!oldPath || !newPath || inputs.length === 0) throw new Error('usage: addon-ab.ts OLD.node NEW.node DIR_OR_FILE...');
const rounds = Number(process.env['ROUNDS'] ?? 0);
const load = (p: string): Addon => createRequire(import.meta.url)(p) as Addon;
const sides = [oldPath, newPath].map((p) => {
  const addon = load(p);
  return { addon, engine: addon.createEngine(), times: [] as number[] };
});

/** The whole document extracted as the pool does (16 pages a call): its numbers' bytes and its texts. */
function extractAll(addon: Addon, engine: object, bytes: Uint8Array): { nums: Buffer; text: string } {
  addon.open(engine, bytes, 'application/pdf');
  try {
    const n = addon.info(engine).pageCount;
    const nums: Buffer[] = [];
    const texts: string[] = [];
    for (let first = 1; first <= n; first += 16) {
      const pages = Array.from({ length: Math.min(16, n - first + 1) }, (_, i) => first + i);
      const r = addon.extract(engine, pages);
      nums.push(Buffer.from(r.nums.buffer, r.nums.byteOffset, r.nums.byteLength));
      texts.push(r.text);
    }
    return { nums: Buffer.concat(nums), text: texts.join('\u0000') };
  } finally {
    addon.close(engine);
  }
}

const outcome = (addon: Addon, engine: object, bytes: Uint8Array): { nums: Buffer; text: string } | string => {
  try {
    return extractAll(addon, engine, bytes);
  } catch (e) {
    return `error: ${(e as Error).message}`;
  }
};

let differ = 0;
let total = [0, 0];
const files = inputs.flatMap((p) => pdfFiles(p, 20 * 1024 * 1024));
for (const file of files) {
  const bytes = new Uint8Array(readFileSync(file));
  const [a, b] = sides.map((s) => outcome(s.addon, s.engine, bytes));
  const same =
    typeof a === 'string' || typeof b === 'string'
      ? a === b
      : a !== undefined && b !== undefined && a.nums.equals(b.nums) && a.text === b.text;
  if (!same) differ++;
  const row: Record<string, unknown> = { file: file.split('/').pop(), same };
  if (rounds > 0) {
    for (const s of sides) s.times = [];
    for (let r = 0; r < rounds + 2; r++) {
      const order = r % 2 === 0 ? sides : [...sides].reverse();
      for (const s of order) {
        const c = process.cpuUsage();
        outcome(s.addon, s.engine, bytes);
        if (r >= 2) s.times.push(cpuMs(process.cpuUsage(c)));
      }
    }
    const [mo, mn] = sides.map((s) => Math.round(median(s.times) * 10) / 10);
    row['cpu_ms_old'] = mo;
    row['cpu_ms_new'] = mn;
    total = [(total[0] ?? 0) + (mo ?? 0), (total[1] ?? 0) + (mn ?? 0)];
  }
  process.stdout.write(`${JSON.stringify(row)}\n`);
}
process.stdout.write(
  `${JSON.stringify({ files: files.length, differ, ...(rounds > 0 ? { cpu_ms_old: total[0], cpu_ms_new: total[1] } : {}) })}\n`,
);
process.exitCode = differ > 0 ? 1 : 0;
