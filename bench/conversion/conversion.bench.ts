// SPDX-License-Identifier: AGPL-3.0-or-later
// Conversion benchmark: text-layer PDFs and OCR pages, @lectern/conversion side by side with PyMuPDF,
// pdfminer (MarkItDown's extractor) and native tesseract 5.3, all in one run on this machine.
//   npx tsx bench/conversion/conversion.bench.ts [--out FILE.json] [--text-only] [--engine native|wasm|auto]
// Needs Debian's python3-fitz, python3-pdfminer, tesseract-ocr (run with /usr/bin/python3). --text-only skips
// the OCR part; --engine picks our PDF engine (default auto: the native mupdf addon when built).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusFile, wordRecall } from '@lectern/testing';
import { LINN_FILES, LINN_PAGES, linnReference, scan, type OcrRun } from './ocr-pages.js';
import { flag } from './bench-args.js';

const here = dirname(fileURLToPath(import.meta.url));
const PY = '/usr/bin/python3';
const run = (cmd: string, args: string[], env?: NodeJS.ProcessEnv): string =>
  execFileSync(cmd, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'], env });
const json = <T>(s: string): T => JSON.parse(s.trim().split('\n').pop() ?? '{}') as T;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

const TEXT_PDFS = [
  ['NPPF 2024', corpusFile('uk-planning-policy', 'nppf-2024', 'NPPF_December_2024.pdf')],
  ['R-intro', corpusFile('long-manuals', 'R-intro.pdf')],
  ['gnuplot', corpusFile('long-manuals', 'gnuplot.pdf')],
] as const;
const OCR_PDFS = [...LINN_FILES, 'c02-22.pdf'].map(scan);

const textOnly = process.argv.includes('--text-only');
const engine = flag('--engine') ?? 'auto';
const childEnv = { ...process.env, LECTERN_PDF_ENGINE: engine };

const reference = linnReference();
const recall = (text: string): number => wordRecall(text, reference);

const report: Record<string, unknown> = {
  date: new Date().toISOString(),
  cpus: cpus().length,
  cpu: cpus()[0]?.model,
  loadavg_start: loadavg(),
};

// ---- text layer
const textRows: Record<string, unknown>[] = [];
for (const [name, file] of TEXT_PDFS) {
  const ours = [0, 1].map(() =>
    json<{
      pages: number;
      engine: string;
      warm_seconds: number;
      warm_cpu_seconds: number;
      cold_seconds: number;
      peak_rss_mb: number;
      headings: number;
      tables: number;
    }>(run(process.execPath, ['--import', 'tsx', join(here, 'convert-one.ts'), 'text', file], childEnv)),
  );
  const fitz = [0, 1, 2].map(() =>
    json<{ pages: number; seconds: number; cpu_seconds: number; peak_rss_mb: number }>(
      run(PY, [join(here, 'pdf_text_reference.py'), 'pymupdf', file]),
    ),
  );
  const miner = json<{ pages: number; seconds: number; cpu_seconds: number; peak_rss_mb: number }>(
    run(PY, [join(here, 'pdf_text_reference.py'), 'pdfminer', file]),
  );
  const pages = ours[0]?.pages ?? 0;
  const row = {
    document: name,
    pages,
    lectern_engine: ours[0]?.engine,
    lectern_warm_s: median(ours.map((o) => o.warm_seconds)),
    lectern_warm_cpu_s: median(ours.map((o) => o.warm_cpu_seconds)),
    lectern_cold_s: median(ours.map((o) => o.cold_seconds)),
    lectern_peak_rss_mb: Math.max(...ours.map((o) => o.peak_rss_mb)),
    lectern_headings: ours[0]?.headings,
    lectern_tables: ours[0]?.tables,
    pymupdf_s: median(fitz.map((f) => f.seconds)),
    pymupdf_cpu_s: median(fitz.map((f) => f.cpu_seconds)),
    pymupdf_peak_rss_mb: Math.max(...fitz.map((f) => f.peak_rss_mb)),
    pdfminer_s: miner.seconds,
    pdfminer_cpu_s: miner.cpu_seconds,
    pdfminer_peak_rss_mb: miner.peak_rss_mb,
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

// ---- OCR
const ours = json<Omit<OcrRun, 'cpu_seconds'> & { peak_rss_mb: number }>(
  run(process.execPath, ['--import', 'tsx', join(here, 'convert-one.ts'), 'ocr', scan('linn.png'), ...OCR_PDFS]),
);
const tmp = join(mkdtempSync(join(tmpdir(), 'conv-bench-')), 'tesseract.json');
run(PY, [join(here, 'tesseract_reference.py'), tmp, ...OCR_PDFS]);
const native = JSON.parse(readFileSync(tmp, 'utf8')) as {
  render_seconds: number;
  ocr_seconds: number;
  peak_tesseract_rss_mb: number;
  pages: { file: string; page: number; text: string; seconds: number }[];
};
const linnRecall = (pages: { file: string; text: string }[]): number => {
  const r = pages.filter((p) => LINN_PAGES.has(p.file)).map((p) => recall(p.text));
  return r.reduce((s, x) => s + x, 0) / r.length;
};
report['ocr'] = {
  pages: ours.pages.length,
  linn_pages: ours.pages.filter((p) => LINN_PAGES.has(p.file)).length,
  lectern_seconds: ours.seconds,
  lectern_s_per_page: ours.seconds / ours.pages.length,
  lectern_peak_rss_mb: ours.peak_rss_mb,
  lectern_mean_recall: linnRecall(ours.pages),
  lectern_per_page: ours.pages.map((p) => ({
    file: p.file,
    page: p.page,
    rotation: p.rotation,
    confidence: p.confidence,
    recall: LINN_PAGES.has(p.file) ? recall(p.text) : null,
  })),
  lectern_per_file: ours.per_file,
  native_render_seconds: native.render_seconds,
  native_ocr_seconds: native.ocr_seconds,
  native_s_per_page: (native.render_seconds + native.ocr_seconds) / native.pages.length,
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
