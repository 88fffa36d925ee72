// SPDX-License-Identifier: AGPL-3.0-or-later
// Conversion benchmark: text-layer PDFs and OCR pages, @lectern/conversion side by side with PyMuPDF,
// pdfminer (MarkItDown's extractor) and native tesseract 5.3, all in one run on this machine.
//   npx tsx bench/conversion/conversion.bench.ts [--out FILE.json] [--text-only] [--ocr-only] [--engine native|wasm|auto]
//     [--set tune|report|all] [--no-pdfminer] [--node-flags 'FLAGS']
// Needs Debian's python3-fitz, python3-pdfminer, tesseract-ocr (run with /usr/bin/python3). --text-only skips
// the OCR part, --ocr-only the text part; --engine picks our PDF engine (default auto: the native mupdf addon when
// built). --set: the documents CPU was tuned on (NPPF, R-intro), the ones it was not (report), or both (default).
// CPU per page (user + system, all threads) of ours warm (median of five after five) and of the first conversion
// in a fresh process (worker start and JIT warm-up included, Node's own start-up not), against PyMuPDF's whole
// get_text() pass; the OCR part runs ours with both tesseracts (OCR_ENGINE native and wasm).
// PyMuPDF is measured warm (median of five passes after five, in one process, as ours) and cold (the first pass in a
// fresh interpreter, `import fitz` included; and the same with the interpreter's own start-up).
// Ours runs compiled (convert-one.ts bundled by esbuild, as a service runs its build; --tsx: through tsx as before).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusFile, wordRecall } from '@lectern/testing';
import { LINN_FILES, LINN_PAGES, linnReference, scan, type OcrRun } from './ocr-pages.js';
import { flag } from './bench-args.js';
import { compiledConvertOne } from './compiled.js';

const here = dirname(fileURLToPath(import.meta.url));
const PY = '/usr/bin/python3';
const run = (cmd: string, args: string[], env?: NodeJS.ProcessEnv): string =>
  execFileSync(cmd, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'], env });
const json = <T>(s: string): T => JSON.parse(s.trim().split('\n').pop() ?? '{}') as T;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

const coventry = (...p: string[]): string => corpusFile('uk-planning-policy', 'dataset', 'Coventry', ...p);
const AAP = '4. Adopted City Centre Area Action Plan (2011 to 2031)';
/** CPU work was profiled and tuned on these two (issue 28). */
const TUNE_PDFS = [
  ['NPPF 2024', corpusFile('uk-planning-policy', 'nppf-2024', 'NPPF_December_2024.pdf')],
  ['R-intro', corpusFile('long-manuals', 'R-intro.pdf')],
] as const;
/** Not looked at while tuning: reported only. */
const REPORT_PDFS = [
  ['gnuplot', corpusFile('long-manuals', 'gnuplot.pdf')],
  ['tracemonkey', corpusFile('multicolumn-papers', 'tracemonkey.pdf')],
  ['Coventry Local Plan report', coventry(AAP, 'Coventry_Local_Plan_Final_Report_2017.pdf')],
  ['MOD14 SASEA report', coventry(AAP, 'MOD14_SASEA_Final_Report___Local_Plan_Proposed_Modfications_2017.pdf')],
  [
    'Monitoring Report 2017/18',
    coventry(
      '6. Local Plan monitoring',
      'Authority Monitoring Report (AMR)',
      'Authority_Monitoring_Report_2017_18_PUBLISHED.pdf',
    ),
  ],
] as const;
const set = flag('--set') ?? 'all';
const TEXT_PDFS = [
  ...(set === 'report' ? [] : TUNE_PDFS.map(([n, f]) => [n, f, 'tune'] as const)),
  ...(set === 'tune' ? [] : REPORT_PDFS.map(([n, f]) => [n, f, 'report'] as const)),
];
const OCR_PDFS = [...LINN_FILES, 'c02-22.pdf'].map(scan);

const textOnly = process.argv.includes('--text-only');
const ocrOnly = process.argv.includes('--ocr-only');
const withPdfminer = !process.argv.includes('--no-pdfminer');
const engine = flag('--engine') ?? 'auto';
const childEnv = { ...process.env, LECTERN_PDF_ENGINE: engine };
/** Node options for our process (`--node-flags '--interrupt-budget=1000000'`): a service started with them. */
const nodeFlags = (flag('--node-flags') ?? '').split(/\s+/).filter(Boolean);
/** How ours is started: the compiled convert-one (default), or its source through tsx (`--tsx`). */
const convertOne = [
  ...nodeFlags,
  ...(process.argv.includes('--tsx')
    ? ['--import', 'tsx', join(here, 'convert-one.ts')]
    : [await compiledConvertOne(join(here, 'convert-one.ts'))]),
];

const reference = linnReference();
const recall = (text: string): number => wordRecall(text, reference);

const report: Record<string, unknown> = {
  date: new Date().toISOString(),
  cpus: cpus().length,
  cpu: cpus()[0]?.model,
  loadavg_start: loadavg(),
  node_flags: nodeFlags,
};

// ---- text layer
const textRows: Record<string, unknown>[] = [];
for (const [name, file, tuned] of ocrOnly ? [] : TEXT_PDFS) {
  const ours = [0, 1].map(() =>
    json<{
      pages: number;
      engine: string;
      warm_seconds: number;
      warm_cpu_seconds: number;
      cold_seconds: number;
      cold_cpu_seconds: number;
      cold_import_cpu_seconds: number;
      cold_process_cpu_seconds: number;
      peak_rss_mb: number;
      headings: number;
      tables: number;
    }>(run(process.execPath, [...convertOne, 'text', file], childEnv)),
  );
  const fitz = [0, 1, 2].map(() =>
    json<{
      pages: number;
      seconds: number;
      cpu_seconds: number;
      process_cpu_seconds: number;
      warm_seconds: number;
      warm_cpu_seconds: number;
      peak_rss_mb: number;
    }>(run(PY, [join(here, 'pdf_text_reference.py'), 'pymupdf', file, 'warm'])),
  );
  const miner = withPdfminer
    ? json<{ pages: number; seconds: number; cpu_seconds: number; peak_rss_mb: number }>(
        run(PY, [join(here, 'pdf_text_reference.py'), 'pdfminer', file]),
      )
    : null;
  const pages = ours[0]?.pages ?? 0;
  const warmCpu = median(ours.map((o) => o.warm_cpu_seconds));
  const coldCpu = median(ours.map((o) => o.cold_cpu_seconds));
  const fitzCpu = median(fitz.map((f) => f.cpu_seconds));
  const fitzWarmCpu = median(fitz.map((f) => f.warm_cpu_seconds));
  const fitzProcessCpu = median(fitz.map((f) => f.process_cpu_seconds));
  const coldImportCpu = median(ours.map((o) => o.cold_import_cpu_seconds));
  const coldProcessCpu = median(ours.map((o) => o.cold_process_cpu_seconds));
  const row = {
    document: name,
    set: tuned,
    pages,
    lectern_engine: ours[0]?.engine,
    lectern_warm_s: median(ours.map((o) => o.warm_seconds)),
    lectern_warm_cpu_s: median(ours.map((o) => o.warm_cpu_seconds)),
    lectern_cold_s: median(ours.map((o) => o.cold_seconds)),
    lectern_cold_cpu_s: coldCpu,
    lectern_warm_cpu_ms_per_page: (1000 * warmCpu) / pages,
    lectern_cold_cpu_ms_per_page: (1000 * coldCpu) / pages,
    lectern_cold_import_cpu_s: coldImportCpu,
    lectern_cold_process_cpu_s: coldProcessCpu,
    /** PyMuPDF cold: import fitz + open + get_text of every page, the first pass in a fresh interpreter. */
    pymupdf_cpu_ms_per_page: (1000 * fitzCpu) / pages,
    /** PyMuPDF warm: median of 5 passes after 5 in one process. */
    pymupdf_warm_cpu_ms_per_page: (1000 * fitzWarmCpu) / pages,
    pymupdf_process_cpu_s: fitzProcessCpu,
    /** warm against warm */
    warm_cpu_ratio: warmCpu / fitzWarmCpu,
    /** warm against PyMuPDF cold (what the earlier runs called the warm ratio) */
    warm_vs_cold_cpu_ratio: warmCpu / fitzCpu,
    /** our first conversion (after our modules loaded) against PyMuPDF warm */
    cold_vs_warm_cpu_ratio: coldCpu / fitzWarmCpu,
    /** our first conversion (after our modules loaded) against PyMuPDF cold (import fitz included) */
    cold_cpu_ratio: coldCpu / fitzCpu,
    /** loading @lectern/conversion + first conversion against import fitz + first pass: cold against cold */
    cold_import_cpu_ratio: coldImportCpu / fitzCpu,
    /** the same with each runtime's own start-up (Node's; the Python interpreter's) */
    cold_process_cpu_ratio: coldProcessCpu / fitzProcessCpu,
    lectern_peak_rss_mb: Math.max(...ours.map((o) => o.peak_rss_mb)),
    lectern_headings: ours[0]?.headings,
    lectern_tables: ours[0]?.tables,
    pymupdf_s: median(fitz.map((f) => f.seconds)),
    pymupdf_cpu_s: median(fitz.map((f) => f.cpu_seconds)),
    pymupdf_peak_rss_mb: Math.max(...fitz.map((f) => f.peak_rss_mb)),
    pdfminer_s: miner?.seconds ?? null,
    pdfminer_cpu_s: miner?.cpu_seconds ?? null,
    pdfminer_peak_rss_mb: miner?.peak_rss_mb ?? null,
  };
  textRows.push(row);
  process.stderr.write(`${JSON.stringify(row)}\n`);
}
report['text_layer'] = textRows;

function finish(): void {
  report['loadavg_end'] = loadavg();
  const out = JSON.stringify(report, null, 2);
  const file = flag('--out');
  if (file) writeFileSync(file, `${out}\n`);
  process.stdout.write(`${out}\n`);
}
if (textOnly) {
  finish();
  process.exit(0);
}

// ---- OCR: ours with the native program and with tesseract.js, then the reference, in the same minutes
type OursOcr = OcrRun & { peak_rss_mb: number; ocr_engine: string; ocr_version: string };
const oursWith = (ocrEngine: 'native' | 'wasm'): OursOcr =>
  json<OursOcr>(
    run(process.execPath, [...convertOne, 'ocr', scan('linn.png'), ...OCR_PDFS], {
      ...childEnv,
      LECTERN_OCR_ENGINE: ocrEngine,
    }),
  );
const oursNative = oursWith('native');
const oursWasm = oursWith('wasm');
const tmp = join(mkdtempSync(join(tmpdir(), 'conv-bench-')), 'tesseract.json');
run(PY, [join(here, 'tesseract_reference.py'), tmp, ...OCR_PDFS]);
const native = JSON.parse(readFileSync(tmp, 'utf8')) as {
  render_seconds: number;
  render_cpu_seconds: number;
  ocr_seconds: number;
  ocr_cpu_seconds: number;
  peak_tesseract_rss_mb: number;
  pages: { file: string; page: number; text: string; seconds: number }[];
};
const linnRecall = (pages: { file: string; text: string }[]): number => {
  const r = pages.filter((p) => LINN_PAGES.has(p.file)).map((p) => recall(p.text));
  return r.reduce((s, x) => s + x, 0) / r.length;
};
const nativeCpuPerPage = (native.render_cpu_seconds + native.ocr_cpu_seconds) / native.pages.length;
const oursReport = (ours: OursOcr): Record<string, unknown> => ({
  engine: ours.ocr_engine,
  version: ours.ocr_version,
  seconds: ours.seconds,
  s_per_page: ours.seconds / ours.pages.length,
  cpu_s_per_page: ours.cpu_seconds / ours.pages.length,
  cpu_ratio_to_native: ours.cpu_seconds / ours.pages.length / nativeCpuPerPage,
  peak_rss_mb: ours.peak_rss_mb,
  mean_recall: linnRecall(ours.pages),
  per_page: ours.pages.map((p) => ({
    file: p.file,
    page: p.page,
    rotation: p.rotation,
    confidence: p.confidence,
    recall: LINN_PAGES.has(p.file) ? recall(p.text) : null,
  })),
  per_file: ours.per_file,
});
report['ocr'] = {
  pages: oursNative.pages.length,
  linn_pages: oursNative.pages.filter((p) => LINN_PAGES.has(p.file)).length,
  lectern_native: oursReport(oursNative),
  lectern_wasm: oursReport(oursWasm),
  native_render_seconds: native.render_seconds,
  native_render_cpu_seconds: native.render_cpu_seconds,
  native_ocr_seconds: native.ocr_seconds,
  native_ocr_cpu_seconds: native.ocr_cpu_seconds,
  native_s_per_page: (native.render_seconds + native.ocr_seconds) / native.pages.length,
  native_cpu_s_per_page: nativeCpuPerPage,
  native_peak_tesseract_rss_mb: native.peak_tesseract_rss_mb,
  native_mean_recall: linnRecall(native.pages),
  native_per_page: native.pages.map((p) => ({
    file: p.file,
    page: p.page,
    seconds: p.seconds,
    recall: LINN_PAGES.has(p.file) ? recall(p.text) : null,
  })),
};
finish();
