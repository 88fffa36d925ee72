// SPDX-License-Identifier: AGPL-3.0-or-later
// The whole process tree of one `lectern convert` (docs/benchmarks/conversion.md, "Memory"): the compiled command line
// (the production build, `node tools/build.mjs` first) converting FILE with OCR on, as a user runs it; every 20 ms the
// VmRSS of the process and of every process below it (the native tesseract reading a page) is read from /proc and
// summed. Prints one JSON line: the largest sum (tree_peak_mb), the largest own and child RSS, wall seconds.
//   npx tsx bench/conversion/book-memory-tree.ts FILE [--runs N]   (env as for lectern: PDF_ENGINE, OCR_ENGINE...)
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@lectern/testing';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--')) ?? '';
const runsAt = args.indexOf('--runs');
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 1;
const cli = join(repoRoot(), 'dist', 'apps', 'cli', 'programs', 'convert.cjs');

const read = (path: string): string => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return ''; // the process exited between the listing and the read
  }
};
const rssKb = (pid: number): number => Number(/VmRSS:\s+(\d+) kB/.exec(read(`/proc/${pid}/status`))?.[1] ?? 0);
const children = (pid: number): number[] => {
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tasks.flatMap((t) => read(`/proc/${pid}/task/${t}/children`).split(' ').filter(Boolean).map(Number));
};

for (let run = 0; run < runs; run++) {
  const started = performance.now();
  const child = spawn(process.execPath, [cli, 'convert', file, '--json', '-o', '/dev/null'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const pid = child.pid as number;
  let tree = 0;
  let own = 0;
  let kid = 0;
  const timer = setInterval(() => {
    const pids = [pid];
    for (let i = 0; i < pids.length; i++) pids.push(...children(pids[i] as number));
    const rss = pids.map(rssKb);
    tree = Math.max(
      tree,
      rss.reduce((a, b) => a + b, 0),
    );
    own = Math.max(own, rss[0] ?? 0);
    kid = Math.max(kid, ...rss.slice(1), 0);
  }, 20);
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  clearInterval(timer);
  const mb = (kb: number): number => Math.round(kb / 1024);
  process.stdout.write(
    `${JSON.stringify({
      file: file.split('/').pop(),
      exit: code,
      seconds: +((performance.now() - started) / 1000).toFixed(1),
      tree_peak_mb: mb(tree),
      own_peak_mb: mb(own),
      child_peak_mb: mb(kid),
      pdf_engine: process.env['PDF_ENGINE'] ?? 'auto',
      ocr_engine: process.env['OCR_ENGINE'] ?? 'auto',
    })}\n`,
  );
}
