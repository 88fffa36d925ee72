// SPDX-License-Identifier: AGPL-3.0-or-later
// One-shot start-up benchmark (issue 18): a whole `lectern convert --no-ocr FILE` process (the compiled command line,
// apps/cli/bin/lectern.cjs) against a whole PyMuPDF process (`pdf_text_reference.py pymupdf FILE`: python3, import
// fitz, get_text() of every page), on short corpus PDFs, each command run many times by hyperfine (mean wall time
// and the mean user + system CPU time of the process tree), in four states:
//   - ours warm:      program compiled and its V8 code cache written (every run after the first);
//   - ours no cache:  program compiled, code cache deleted before each run (the first run of a build);
//   - ours rebuilt:   nothing compiled (apps/cli/.bundle deleted before each run: the first run after a change);
//   - PyMuPDF warm:   Python's bytecode caches as installed;
//   - PyMuPDF cold:   no bytecode cache (PYTHONPYCACHEPREFIX an empty directory each run: Python compiles fitz's
//                     modules again, the counterpart of our run without a code cache).
// Ours outside the conversion: the warm process's mean wall time less the conversion's own `duration_ms` (median,
// from `--json` runs), i.e. start-up before the document is read plus writing the result and exiting, against
// PyMuPDF's start-up (`python3 -c 'import fitz'`), the time before it can open a document.
// Both sides read files the OS has cached. Bare `node -e 0` and `python3 -c pass` are measured too: what the
// two interpreters cost before any code of either side runs.
// Two environments: as this machine sets it up and Node's default. Node 20 reads and parses every certificate in
// NODE_EXTRA_CA_CERTS before it runs any script (this machine points it at the system's whole CA bundle: ~31 ms of
// every Node process); the warm runs and the bare interpreters are measured again with the variable unset (hyperfine
// started without it, so neither side pays an extra `env` process). Python does not read it.
// Tuned on `Willenhall_Constitution.pdf` (3 pages) and a generated 3-page PDF; the other files are reported, not
// tuned on.
//   apt-get install -y hyperfine python3-fitz
//   npx tsx bench/conversion/startup.bench.ts [--runs 20] [--out FILE.json] [--svg DIR]
//   npx tsx bench/conversion/startup.bench.ts --plot FILE.json   (the figure again, from results already measured)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusFile, makeNumberedPdf, repoRoot } from '@lectern/testing';
import { barChart } from '../plot/svg-plot.js';
import { flag } from './bench-args.js';

const here = dirname(fileURLToPath(import.meta.url));
const runs = Number(flag('--runs') ?? 20);
const out = flag('--out') ?? join(here, 'results', 'startup.json');
const svgDir = flag('--svg') ?? join(here, 'results');

interface Timing {
  wall_ms: number;
  wall_sd_ms: number;
  cpu_ms: number;
}
interface Row {
  file: string;
  pages: number;
  ours_warm: Timing;
  ours_outside_conversion_ms: number;
  pymupdf_warm: Timing;
  default_env?: { ours_warm: Timing; pymupdf_warm: Timing };
}

/** Whole-process wall time per document, ours (and its part outside the conversion) against PyMuPDF's. */
function plot(rows: Row[]): void {
  const name = (r: Row): string => `${r.file.length > 28 ? `${r.file.slice(0, 25)}...` : r.file} (${r.pages} p.)`;
  writeFileSync(
    join(svgDir, 'startup.svg'),
    barChart({
      title: 'One-shot conversion, a whole process: lectern convert against PyMuPDF (ms, warm)',
      categories: rows.map(name),
      series: [
        { label: 'lectern convert (wall)', color: '#3366cc', values: rows.map((r) => r.ours_warm.wall_ms) },
        {
          label: '... of it outside the conversion',
          color: '#99b3e6',
          values: rows.map((r) => r.ours_outside_conversion_ms),
        },
        ...(rows.every((r) => r.default_env)
          ? [
              {
                label: 'lectern convert, NODE_EXTRA_CA_CERTS unset (wall)',
                color: '#109618',
                values: rows.map((r) => r.default_env?.ours_warm.wall_ms ?? NaN),
              },
            ]
          : []),
        {
          label: 'PyMuPDF get_text() process (wall)',
          color: '#dc3912',
          values: rows.map((r) => r.pymupdf_warm.wall_ms),
        },
        { label: '2x PyMuPDF', color: '#f0a080', values: rows.map((r) => 2 * r.pymupdf_warm.wall_ms) },
      ],
      value: { label: 'ms' },
      unit: ' ms',
    }),
  );
}

const replot = flag('--plot');
if (replot) {
  plot((JSON.parse(readFileSync(replot, 'utf8')) as { rows: Row[] }).rows);
  process.exit(0);
}

const scratch = mkdtempSync(join(tmpdir(), 'lectern-startup-'));
const generated = join(scratch, 'generated-3.pdf');
writeFileSync(generated, makeNumberedPdf(3));
const coventry = (...p: string[]): string => corpusFile('uk-planning-policy', 'dataset', 'Coventry', ...p);
const FILES: { path: string; tuned: boolean }[] = [
  { path: generated, tuned: true },
  {
    path: coventry(
      '5. Neighbourhood Plans',
      'Approved Neighbourhood Areas',
      'Willenhall Neighbourhood Area',
      'Willenhall_Constitution.pdf',
    ),
    tuned: true,
  },
  {
    path: coventry(
      '5. Neighbourhood Plans',
      'Approved Neighbourhood Areas',
      'Willenhall Neighbourhood Area',
      'Willenhall_Neighbourhood_Area_Application.pdf',
    ),
    tuned: false,
  },
  { path: corpusFile('datasheets', 'datasheetminer-benchmark', 'datasheets', 'Contactors.pdf'), tuned: false },
  {
    path: corpusFile('datasheets', 'datasheetminer-benchmark', 'datasheets', 'omron-g-series-servo-motors.pdf'),
    tuned: false,
  },
  { path: corpusFile('multicolumn-papers', 'tracemonkey.pdf'), tuned: false },
  { path: corpusFile('uk-planning-policy', 'nppf-2024', 'NPPF_December_2024.pdf'), tuned: false },
  // not short: past INLINE_MAX_PAGES, where worker threads join the inline engine
  { path: corpusFile('long-manuals', 'R-intro.pdf'), tuned: false },
];

const bin = join(repoRoot(), 'apps', 'cli', 'bin', 'lectern.cjs');
const bundleDir = join(repoRoot(), 'apps', 'cli', '.bundle');
const reference = join(here, 'pdf_text_reference.py');
const sh = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;

/** The environment with NODE_EXTRA_CA_CERTS unset: Node's default. */
const defaultEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_EXTRA_CA_CERTS'));
const extraCerts = process.env['NODE_EXTRA_CA_CERTS'];
const extraCertCount = ((): number | null => {
  try {
    return extraCerts ? (readFileSync(extraCerts, 'utf8').match(/-----BEGIN CERTIFICATE-----/g) ?? []).length : null;
  } catch {
    return null;
  }
})();

/**
 * hyperfine's mean wall time, its standard deviation and mean user + system time of `command` (a shell line);
 * `defaultEnvironment`: with NODE_EXTRA_CA_CERTS unset.
 */
function hyperfine(
  command: string,
  options: { prepare?: string; runs?: number; defaultEnvironment?: boolean } = {},
): Timing {
  const json = join(scratch, 'hyperfine.json');
  execFileSync(
    'hyperfine',
    [
      '--style',
      'none',
      '--warmup',
      options.prepare ? '0' : '3',
      '--runs',
      String(options.runs ?? runs),
      '--export-json',
      json,
      ...(options.prepare ? ['--prepare', options.prepare] : []),
      command,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'], env: options.defaultEnvironment ? defaultEnv : process.env },
  );
  const r = (
    JSON.parse(readFileSync(json, 'utf8')) as {
      results: { mean: number; stddev: number; user: number; system: number }[];
    }
  ).results[0];
  if (!r) throw new Error(`hyperfine gave no result for ${command}`);
  return { wall_ms: r.mean * 1000, wall_sd_ms: r.stddev * 1000, cpu_ms: (r.user + r.system) * 1000 };
}

const ours = (file: string): string => `node ${sh(bin)} convert --no-ocr ${sh(file)} > /dev/null`;
const pymupdf = (file: string): string => `/usr/bin/python3 ${sh(reference)} pymupdf ${sh(file)} > /dev/null`;
/** The conversion's own time (`duration_ms` of `--json`: reading the file to the validated result), median of `runs`. */
function conversionMs(file: string): number {
  const spans: number[] = [];
  for (let i = 0; i < runs; i++) {
    const json = execFileSync(process.execPath, [bin, 'convert', '--no-ocr', '--json', file], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    spans.push((JSON.parse(json) as { duration_ms: number }).duration_ms);
  }
  spans.sort((a, b) => a - b);
  return spans[Math.floor(spans.length / 2)] ?? NaN;
}
const pages = (file: string): number =>
  (
    JSON.parse(execFileSync('/usr/bin/python3', [reference, 'pymupdf', file], { encoding: 'utf8' })) as {
      pages: number;
    }
  ).pages;

const started = new Date().toISOString();
const load = loadavg()[0];
process.stderr.write(`load average at start ${load?.toFixed(2)}\n`);
// the convert program built and its code cache written before the warm runs
execFileSync(process.execPath, [bin, 'convert', '--no-ocr', generated], { stdio: 'ignore' });
const baseline = {
  node_bare: hyperfine('node -e 0'),
  python_bare: hyperfine('/usr/bin/python3 -c pass'),
  python_import_fitz: hyperfine("/usr/bin/python3 -c 'import fitz'"),
  ...(extraCerts ? { node_bare_default_env: hyperfine('node -e 0', { defaultEnvironment: true }) } : {}),
};
const rows = FILES.map(({ path, tuned }) => {
  const cacheFiles = `${sh(bundleDir)}/convert-*/main.cjs.v8cache`;
  const pycache = join(scratch, 'pycache');
  const row = {
    file: basename(path),
    pages: pages(path),
    tuned,
    ours_warm: hyperfine(ours(path)),
    ours_conversion_ms: conversionMs(path),
    ours_no_code_cache: hyperfine(ours(path), { prepare: `rm -f ${cacheFiles}` }),
    ours_rebuilt: hyperfine(ours(path), {
      prepare: `rm -rf ${sh(bundleDir)}`,
      runs: Math.max(3, Math.round(runs / 4)),
    }),
    pymupdf_warm: hyperfine(pymupdf(path)),
    pymupdf_cold: hyperfine(`PYTHONPYCACHEPREFIX=${sh(pycache)} ${pymupdf(path)}`, {
      prepare: `rm -rf ${sh(pycache)}`,
    }),
    ...(extraCerts
      ? {
          default_env: {
            ours_warm: hyperfine(ours(path), { defaultEnvironment: true }),
            pymupdf_warm: hyperfine(pymupdf(path), { defaultEnvironment: true }),
          },
        }
      : {}),
  };
  // leave the program built and cached for the next file's warm runs
  execFileSync(process.execPath, [bin, 'convert', '--no-ocr', generated], { stdio: 'ignore' });
  const ratio = row.ours_warm.wall_ms / row.pymupdf_warm.wall_ms;
  const outside = row.ours_warm.wall_ms - row.ours_conversion_ms;
  process.stderr.write(
    `${row.file} (${row.pages} p.): ours ${row.ours_warm.wall_ms.toFixed(1)} ms (CPU ${row.ours_warm.cpu_ms.toFixed(1)}), ` +
      `outside the conversion ${outside.toFixed(1)}, no cache ${row.ours_no_code_cache.wall_ms.toFixed(1)}, rebuilt ${row.ours_rebuilt.wall_ms.toFixed(0)}; ` +
      `PyMuPDF ${row.pymupdf_warm.wall_ms.toFixed(1)} ms (CPU ${row.pymupdf_warm.cpu_ms.toFixed(1)}), cold ${row.pymupdf_cold.wall_ms.toFixed(1)}; ratio ${ratio.toFixed(2)}` +
      (row.default_env
        ? `; NODE_EXTRA_CA_CERTS unset: ours ${row.default_env.ours_warm.wall_ms.toFixed(1)} ms, PyMuPDF ${row.default_env.pymupdf_warm.wall_ms.toFixed(1)} ms, ratio ${(row.default_env.ours_warm.wall_ms / row.default_env.pymupdf_warm.wall_ms).toFixed(2)}`
        : '') +
      '\n',
  );
  return { ...row, ours_outside_conversion_ms: outside };
});
const environment = {
  NODE_EXTRA_CA_CERTS: extraCerts ?? null,
  extra_certificates: extraCertCount,
  node: process.version,
};
writeFileSync(
  out,
  `${JSON.stringify({ started, load_average_at_start: load, runs, environment, baseline, rows }, null, 2)}\n`,
);
plot(rows);
rmSync(scratch, { recursive: true, force: true });
process.stderr.write(`wrote ${out}\n`);
