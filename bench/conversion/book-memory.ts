// SPDX-License-Identifier: AGPL-3.0-or-later
// Child process of the memory measurement (docs/benchmarks/conversion.md, "Memory"): one conversion with OCR on, in a
// fresh process, so that its peak RSS (main thread + mupdf and tesseract worker threads) is this conversion's alone.
//   npx tsx bench/conversion/book-memory.ts FILE [--engine native|wasm|auto] [--idle-ms N]
// Prints one JSON line: pages, pages OCR'd, wall and CPU seconds, peak RSS, tesseract workers running and RSS right
// after the conversion and after the OCR pool's idle period (N ms, default 2000, given to the engine as ocrIdleMs).
import { createConversionEngine, type PdfEngine } from '@lectern/conversion';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--')) ?? '';
const engineAt = args.indexOf('--engine');
const engine = (engineAt >= 0 ? args[engineAt + 1] : 'auto') as PdfEngine;
const idleAt = args.indexOf('--idle-ms');
const idleMs = idleAt >= 0 ? Number(args[idleAt + 1]) : 2000;
const conversion = createConversionEngine({ pdfEngine: engine, ocrIdleMs: idleMs });
const t = performance.now();
const c = process.cpuUsage();
const result = await conversion.convert({ path: file }, { enableOcr: true });
const used = process.cpuUsage(c);
const rssMb = (): number => Math.round(process.memoryUsage().rss / 1048576);
const workersAfter = conversion.ocrWorkersRunning();
const rssAfter = rssMb();
await new Promise((done) => setTimeout(done, idleMs + 1000));
const line = {
  file: file.split('/').pop(),
  engine: (await conversion.pdfEngineInUse()).engine,
  pages: result.page_count,
  ocr_pages: result.pages.filter((p) => p.method === 'ocr').length,
  seconds: +((performance.now() - t) / 1000).toFixed(2),
  cpu_seconds: +((used.user + used.system) / 1e6).toFixed(2),
  peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
  ocr_workers_after: workersAfter,
  rss_after_mb: rssAfter,
  ocr_workers_after_idle: conversion.ocrWorkersRunning(),
  rss_after_idle_mb: rssMb(),
};
process.stdout.write(`${JSON.stringify(line)}\n`);
await conversion.close();
