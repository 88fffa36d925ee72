// SPDX-License-Identifier: AGPL-3.0-or-later
// Child process of the memory measurement (docs/benchmarks/conversion.md, "Memory"): one conversion with OCR on, in a
// fresh process, so that its peak RSS (main thread + mupdf and tesseract worker threads) is this conversion's alone.
//   npx tsx bench/conversion/book-memory.ts FILE [--engine native|wasm|auto] [--ocr-engine auto|native|wasm] [--idle-ms N]
// Prints one JSON line: pages, pages OCR'd, wall and CPU seconds, peak RSS, tesseract workers running and RSS right
// after the conversion and after the OCR pool's idle period (N ms, default 2000, given to the engine as ocrIdleMs).
// The whole tree: every 20 ms this process's VmRSS plus its child processes' (the native tesseract reading a page)
// is summed from /proc; `tree_peak_mb` is the largest sum seen, `child_peak_mb` the largest child.
import { readdirSync, readFileSync } from 'node:fs';
import { createConversionEngine, type OcrEngine, type PdfEngine } from '@lectern/conversion';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--')) ?? '';
const arg = (name: string, fallback: string): string => {
  const at = args.indexOf(name);
  return at >= 0 ? (args[at + 1] ?? fallback) : fallback;
};
const engine = arg('--engine', 'auto') as PdfEngine;
const ocrEngine = arg('--ocr-engine', 'auto') as OcrEngine;
const idleMs = Number(arg('--idle-ms', '2000'));

const rssKb = (pid: number | 'self'): number => {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0; // exited between the listing and the read
  }
};
const children = (): number[] =>
  readdirSync('/proc/self/task').flatMap((t) => {
    try {
      return readFileSync(`/proc/self/task/${t}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
    } catch {
      return [];
    }
  });
let treePeakKb = 0;
let childPeakKb = 0;
const sample = (): void => {
  const kids = children().map(rssKb);
  const own = rssKb('self');
  treePeakKb = Math.max(treePeakKb, own + kids.reduce((a, b) => a + b, 0));
  childPeakKb = Math.max(childPeakKb, ...kids, 0);
};
const sampler = setInterval(sample, 20);

const conversion = createConversionEngine({ pdfEngine: engine, ocrEngine, ocrIdleMs: idleMs });
const t = performance.now();
const c = process.cpuUsage();
const result = await conversion.convert({ path: file }, { enableOcr: !args.includes('--no-ocr') });
const used = process.cpuUsage(c);
const rssMb = (): number => Math.round(process.memoryUsage().rss / 1048576);
const workersAfter = conversion.ocrWorkersRunning();
const rssAfter = rssMb();
await new Promise((done) => setTimeout(done, idleMs + 1000));
clearInterval(sampler);
const line = {
  file: file.split('/').pop(),
  engine: (await conversion.pdfEngineInUse()).engine,
  ocr_engine: (await conversion.ocrEngineInUse()).engine,
  pages: result.page_count,
  ocr_pages: result.pages.filter((p) => p.method === 'ocr').length,
  seconds: +((performance.now() - t) / 1000).toFixed(2),
  cpu_seconds: +((used.user + used.system) / 1e6).toFixed(2),
  peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
  child_peak_mb: Math.round(childPeakKb / 1024),
  tree_peak_mb: Math.round(Math.max(treePeakKb, process.resourceUsage().maxRSS) / 1024),
  ocr_workers_after: workersAfter,
  rss_after_mb: rssAfter,
  ocr_workers_after_idle: conversion.ocrWorkersRunning(),
  rss_after_idle_mb: rssMb(),
};
process.stdout.write(`${JSON.stringify(line)}\n`);
await conversion.close();
