// SPDX-License-Identifier: AGPL-3.0-or-later
// Conversion-quality benchmark: every PDF of ../shared/corpora with a text layer, converted by @lectern/conversion
// (text layer only; the engine chosen by --engine, default auto = native when built) and compared with PyMuPDF
// 1.21 (Debian python3-fitz, `pymupdf_quality.py`):
//   - word F1 of our Markdown against PyMuPDF's get_text() (lower-case alphanumeric words of the NFKC-normalised
//     texts as multisets) after the documented removals on PyMuPDF's side (running headers and footers found by
//     the conversion's rule, pymupdf_quality.py; words broken at a line end joined);
//   - headings against the PDF's own outline (bookmarks), where it has one: recall (outline entries found as a
//     heading, titles compared case- and punctuation-blind) and precision (our headings that are outline entries);
//   - tables found; doubled-glyph runs (three or more doubled letters in a row: "CCoonntt") beyond PyMuPDF's;
//   - off-page characters, two ways: `off_page_chars` (leaks): characters of our words that PyMuPDF finds outside
//     the page box and nowhere inside it (a word only a mark, a slug or a line number past the trim can give);
//     `off_page_chars_upper` (an upper bound): of every word PyMuPDF finds outside the page box, what our output
//     has more of than PyMuPDF's in-page text (a word also set inside the page, extracted differently, counts);
//   - speed per page: ours warm (median of 3 conversions after one, in this process) and fresh (a new process: the
//     compiled command line, `lectern convert --no-ocr`, with PDF_ENGINE set), PyMuPDF warm (in its process, after one pass) and fresh (a new python process), each with
//     CPU time (user+system) beside wall time.
//   npx tsx bench/conversion/quality/quality.bench.ts [--engine native|wasm|auto] [--out results.json] [--svg DIR]
import { execFileSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createConversionEngine, type PdfEngine } from '@lectern/conversion';
import { corporaDir, repoRoot, words } from '@lectern/testing';
import { barChart } from '../../plot/svg-plot.js';
import { flag } from '../bench-args.js';

const here = dirname(fileURLToPath(import.meta.url));
const engineName = (flag('--engine') ?? 'auto') as PdfEngine;
const out = flag('--out') ?? join(here, '..', 'results', 'quality.json');
const svgDir = flag('--svg') ?? join(here, '..', 'results');

interface Reference {
  pages: number;
  texts: string[];
  body_texts: string[];
  toc: [number, string, number][];
  outside: string;
  warm_seconds: number;
  warm_cpu_seconds: number;
}

/** Wall and CPU (user+system) seconds of a whole child process, from GNU time (its output discarded). */
function timedProcess(cmd: string, args: string[], env: Record<string, string> = {}): { wall: number; cpu: number } {
  // GNU time writes to stderr: run through a shell that keeps both
  const script = `/usr/bin/time -f '@@time %e %U %S' "$@" 2>&1 >/dev/null | grep '^@@time' ; true`;
  const t = execFileSync('/bin/sh', ['-c', script, 'sh', cmd, ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, ...env },
  });
  const m = /@@time ([\d.]+) ([\d.]+) ([\d.]+)/.exec(t);
  return { wall: m ? Number(m[1]) : NaN, cpu: m ? Number(m[2]) + Number(m[3]) : NaN };
}

const counts = (ws: string[]): Map<string, number> => {
  const m = new Map<string, number>();
  for (const w of ws) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
};

/** Word-multiset F1 of `ours` against `ref`. */
function wordF1(ours: string[], ref: string[]): number {
  const a = counts(ours);
  let hit = 0;
  for (const [w, n] of counts(ref)) hit += Math.min(n, a.get(w) ?? 0);
  const p = ours.length ? hit / ours.length : 0;
  const r = ref.length ? hit / ref.length : 0;
  return p + r > 0 ? (2 * p * r) / (p + r) : 0;
}

/** Outline and heading titles compared without case, punctuation or a leading section number ("1.2 The R environment"). */
const norm = (s: string): string =>
  s
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .replace(/^(?:\d+ |[a-z] (?=\d))*(?:\d+ )*/u, '')
    .trim();

/** Words for F1, with compatibility characters decomposed (PyMuPDF returns the "ﬁ" ligature, our Markdown "fi"). */
const tokens = (s: string): string[] => words(s.normalize('NFKC'));

const DOUBLED = /(?:(\p{L})\1){3,}/gu;

/** PyMuPDF's text after the documented removals: running headers and footers (pymupdf_quality.py), words broken at a line end joined. */
const referenceText = (ref: Reference): string => ref.body_texts.join('\n').replace(/(\p{L})-\n(\p{Ll})/gu, '$1$2');

const pdfs = (readdirSync(corporaDir(), { recursive: true, encoding: 'utf8' }) as string[])
  .filter((f) => f.toLowerCase().endsWith('.pdf'))
  .sort();
const engine = createConversionEngine({ pdfEngine: engineName });
const rows = [];
const started = new Date().toISOString();
const load = loadavg()[0];
// --only TEXT: the PDFs whose path contains TEXT (a quick look at a few files)
const only = flag('--only');
for (const rel of pdfs.filter((f) => !only || f.includes(only))) {
  const path = join(corporaDir(), rel);
  const ref = JSON.parse(
    execFileSync('/usr/bin/python3', [join(here, 'pymupdf_quality.py'), path], {
      encoding: 'utf8',
      maxBuffer: 512 * 1024 * 1024,
    }),
  ) as Reference;
  const refText = ref.texts.join('\n');
  // a text layer: on average 100+ characters a page (the scans carry none, or a few stray OCR words)
  if (refText.replace(/\s/g, '').length < 100 * ref.pages) continue;
  const first = await engine.convert({ path }, { enableOcr: false });
  const warm: { wall: number; cpu: number }[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    const c = process.cpuUsage();
    await engine.convert({ path }, { enableOcr: false });
    const u = process.cpuUsage(c);
    warm.push({ wall: (performance.now() - t) / 1000, cpu: (u.user + u.system) / 1e6 });
  }
  warm.sort((a, b) => a.wall - b.wall);
  const oursFresh = timedProcess(
    process.execPath,
    [join(repoRoot(), 'apps', 'cli', 'bin', 'lectern.cjs'), 'convert', '--no-ocr', path],
    { PDF_ENGINE: engineName },
  );
  const refFresh = timedProcess('/usr/bin/python3', [join(here, '..', 'pdf_text_reference.py'), 'pymupdf', path]);

  const ourWords = tokens(first.markdown);
  const refWords = tokens(referenceText(ref));
  const inPage = counts(refWords);
  const ours = counts(ourWords);
  let offPage = 0;
  let offPageUpper = 0;
  for (const [w] of counts(tokens(ref.outside))) {
    const extra = (ours.get(w) ?? 0) - (inPage.get(w) ?? 0);
    if (extra > 0) offPageUpper += extra * w.length;
    if (!inPage.has(w)) offPage += (ours.get(w) ?? 0) * w.length;
  }
  const outline = ref.toc.map(([, title]) => norm(title)).filter(Boolean);
  const heads = first.headings.map((h) => norm(h.title)).filter(Boolean);
  const headSet = new Set(heads);
  const outlineSet = new Set(outline);
  const found = outline.filter((t) => headSet.has(t)).length;
  const matched = heads.filter((t) => outlineSet.has(t)).length;
  const row = {
    file: basename(rel),
    folder: dirname(rel).split('/')[0],
    pages: first.page_count,
    word_f1: wordF1(ourWords, refWords),
    outline_entries: outline.length,
    outline_recall: outline.length ? found / outline.length : null,
    outline_precision: outline.length && heads.length ? matched / heads.length : null,
    headings: first.headings.length,
    tables: first.tables.length,
    // runs in our Markdown beyond those in PyMuPDF's text (real strings such as "aabbcc" are in both)
    doubled_glyph_runs: Math.max(
      0,
      (first.markdown.match(DOUBLED)?.length ?? 0) - (refText.match(DOUBLED)?.length ?? 0),
    ),
    doubled_glyph_runs_pymupdf: refText.match(DOUBLED)?.length ?? 0,
    off_page_chars: offPage,
    off_page_chars_upper: offPageUpper,
    ours_warm_ms_per_page: (1000 * (warm[1]?.wall ?? NaN)) / first.page_count,
    ours_warm_cpu_ms_per_page: (1000 * (warm[1]?.cpu ?? NaN)) / first.page_count,
    ours_fresh_s: oursFresh.wall,
    ours_fresh_cpu_s: oursFresh.cpu,
    pymupdf_warm_ms_per_page: (1000 * ref.warm_seconds) / ref.pages,
    pymupdf_warm_cpu_ms_per_page: (1000 * ref.warm_cpu_seconds) / ref.pages,
    pymupdf_fresh_s: refFresh.wall,
    pymupdf_fresh_cpu_s: refFresh.cpu,
  };
  rows.push(row);
  process.stderr.write(
    `${row.file}: F1 ${row.word_f1.toFixed(4)} outline ${row.outline_recall?.toFixed(2) ?? '-'} tables ${row.tables} ours ${row.ours_warm_ms_per_page.toFixed(2)} ms/p vs ${row.pymupdf_warm_ms_per_page.toFixed(2)}\n`,
  );
}
await engine.close();
const result = { started, load_average_at_start: load, engine: engineName, rows };
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);

const short = (f: string): string => (f.length > 28 ? `${f.slice(0, 25)}...` : f);
writeFileSync(
  join(svgDir, 'quality-f1.svg'),
  barChart({
    title: 'Word F1 against PyMuPDF get_text(), per corpus PDF with a text layer',
    categories: rows.map((r) => short(r.file)),
    series: [{ label: 'word F1', color: '#3366cc', values: rows.map((r) => r.word_f1) }],
    value: { label: 'word F1', min: 0.9, max: 1, ticks: [0.9, 0.95, 0.99, 1] },
  }),
);
writeFileSync(
  join(svgDir, 'quality-speed.svg'),
  barChart({
    title: 'Time per page, warm process (ms)',
    categories: rows.map((r) => short(r.file)),
    series: [
      { label: 'Lectern (wall)', color: '#3366cc', values: rows.map((r) => r.ours_warm_ms_per_page) },
      { label: 'Lectern (CPU)', color: '#99b3e6', values: rows.map((r) => r.ours_warm_cpu_ms_per_page) },
      { label: 'PyMuPDF (wall)', color: '#dc3912', values: rows.map((r) => r.pymupdf_warm_ms_per_page) },
    ],
    value: { label: 'ms per page' },
    unit: ' ms',
  }),
);
process.stderr.write(`wrote ${out}\n`);
