// SPDX-License-Identifier: AGPL-3.0-or-later
// Child process of conversion.bench.ts: converts files with @lectern/conversion in a fresh process so its
// peak RSS (main thread + mupdf/tesseract worker threads) belongs to this measurement alone.
//   text mode: convert-one.ts text FILE   -> cold run (pool start-up included), 4 untimed, then 5 warm runs (median)
//   ocr mode:  convert-one.ts ocr WARMUP FILE... -> warm-up on WARMUP (not timed), then the files, per-page text
// LECTERN_PDF_ENGINE=native|wasm|auto (default auto) chooses the mupdf engine of the PDF workers,
// LECTERN_OCR_ENGINE=native|wasm|auto (default auto) the tesseract.
// The bench runs it compiled (one ES module built by esbuild, as a service runs its compiled code; no tsx loader in
// the timing). Its modules are imported dynamically, after the first CPU reading: the *first conversion* counts
// evaluating @lectern/conversion, as PyMuPDF's cold pass counts `import fitz`.
import type { OcrEngine, PdfEngine } from '@lectern/conversion';

const cpuSeconds = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1e6;
const c00 = process.cpuUsage(); // Node's start-up and this program's parse, before any of our modules ran
const t00 = performance.now();
const { createConversionEngine } = await import('@lectern/conversion');
const [mode, ...files] = process.argv.slice(2);
const engine = (process.env['LECTERN_PDF_ENGINE'] ?? 'auto') as PdfEngine;
const ocrEngine = (process.env['LECTERN_OCR_ENGINE'] ?? 'auto') as OcrEngine;
const conversion = createConversionEngine({ pdfEngine: engine, ocrEngine });
const seconds = (t: number): number => (performance.now() - t) / 1000;

if (mode === 'text') {
  const file = files[0] ?? '';
  let t = performance.now();
  const c0 = process.cpuUsage();
  const first = await conversion.convert({ path: file });
  const cold = seconds(t);
  const coldUsed = process.cpuUsage(c0); // the first conversion: worker start, JIT warm-up, the document
  const sinceImport = process.cpuUsage(c00); // the same with loading @lectern/conversion
  const processCpu = process.cpuUsage(); // the same with Node's own start-up
  const coldWithImport = seconds(t00);
  if (process.env['CONVERT_ONE_FIRST_ONLY'] === '1') {
    // for profiling the first conversion (--cpu-prof): nothing after it
    process.stdout.write(
      `${JSON.stringify({ cold_cpu_seconds: cpuSeconds(coldUsed), cold_import_cpu_seconds: cpuSeconds(sinceImport), cold_process_cpu_seconds: cpuSeconds(processCpu) })}\n`,
    );
    process.exit(0);
  }
  // untimed runs first: the service's steady state has its JIT warm (layout code in both workers)
  for (let i = 0; i < 4; i++) await conversion.convert({ path: file });
  const warm: { wall: number; cpu: number }[] = [];
  for (let i = 0; i < 5; i++) {
    t = performance.now();
    const c = process.cpuUsage(); // all threads of the process: main + mupdf workers
    await conversion.convert({ path: file });
    const used = process.cpuUsage(c);
    warm.push({ wall: seconds(t), cpu: cpuSeconds(used) });
  }
  warm.sort((a, b) => a.wall - b.wall);
  process.stdout.write(
    `${JSON.stringify({
      pages: first.page_count,
      chars: first.markdown.length,
      headings: first.headings.length,
      tables: first.tables.length,
      cold_seconds: cold,
      cold_cpu_seconds: cpuSeconds(coldUsed),
      cold_import_seconds: coldWithImport,
      cold_import_cpu_seconds: cpuSeconds(sinceImport),
      cold_process_cpu_seconds: cpuSeconds(processCpu),
      engine: (await conversion.pdfEngineInUse()).engine,
      warm_seconds: warm[2]?.wall,
      warm_cpu_seconds: warm[2]?.cpu,
      peak_rss_mb: process.resourceUsage().maxRSS / 1024,
    })}\n`,
  );
} else if (mode === 'ocr') {
  const { convertTwoAtATime } = await import('./ocr-pages.js');
  const warmup = files[0] ?? '';
  await conversion.convert({ path: warmup }); // tesseract workers start and load eng data here, not in the timing
  const run = await convertTwoAtATime(conversion, files.slice(1));
  const used = await conversion.ocrEngineInUse();
  process.stdout.write(
    `${JSON.stringify({ ocr_engine: used.engine, ocr_version: used.version, seconds: run.seconds, cpu_seconds: run.cpu_seconds, peak_rss_mb: process.resourceUsage().maxRSS / 1024, per_file: run.per_file, pages: run.pages })}\n`,
  );
} else {
  throw new Error(`unknown mode ${mode}`);
}
await conversion.close();
