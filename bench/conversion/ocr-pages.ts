// SPDX-License-Identifier: AGPL-3.0-or-later
// The OCR benchmarks' shared parts (conversion.bench.ts through convert-one.ts, ocr-trials.bench.ts): the
// ocrmypdf scans, which of them have linn.txt as every page's transcript, and how a set of scans is converted.
import { readFileSync } from 'node:fs';
import type { ConversionEngine } from '@lectern/conversion';
import { corpusFile } from '@lectern/testing';

export const scan = (n: string): string => corpusFile('scanned-ocr', 'ocrmypdf-resources', n);

/** Scans whose every page is linn.txt (cardinal.pdf: 4 pages, turned 0/90/180/270°): the 8 reference pages. */
export const LINN_FILES = ['linn.pdf', 'skew.pdf', 'rotated_skew.pdf', 'ccitt.pdf', 'cardinal.pdf'] as const;
export const LINN_PAGES: ReadonlySet<string> = new Set(LINN_FILES);
export const linnReference = (): string => readFileSync(scan('linn.txt'), 'utf8');

export interface OcrPageText {
  file: string;
  page: number;
  text: string;
  rotation: number;
  confidence: number | null;
}

/**
 * CPU seconds (user + system) of this process, all its threads, plus every child process it has waited for (the
 * native tesseract processes of OCR_ENGINE=native): /proc/self/stat's utime, stime, cutime, cstime.
 */
export function processTreeCpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // after "pid (comm) ": state is field 3
  const ticks = [11, 12, 13, 14].reduce((s, i) => s + Number(f[i]), 0); // fields 14-17 of proc(5)
  return ticks / 100; // USER_HZ is 100 on Linux
}

export interface OcrRun {
  seconds: number;
  /** CPU time of the whole process (main thread and every mupdf/tesseract worker thread) and its child processes. */
  cpu_seconds: number;
  per_file: { file: string; pages: number; seconds: number }[];
  pages: OcrPageText[];
}

/** Converts `files` two documents at a time, as the converter service runs them (and the native side runs two tesseracts). */
export async function convertTwoAtATime(conversion: ConversionEngine, files: readonly string[]): Promise<OcrRun> {
  const pages: OcrPageText[] = [];
  const perFile: OcrRun['per_file'] = [];
  const queue = [...files];
  const since = (t: number): number => (performance.now() - t) / 1000;
  const lane = async (): Promise<void> => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const started = performance.now();
      const r = await conversion.convert({ path: file });
      const name = file.split('/').pop() ?? file;
      perFile.push({ file: name, pages: r.page_count, seconds: since(started) });
      for (const p of r.pages)
        pages.push({
          file: name,
          page: p.page_number,
          text: p.text,
          rotation: p.rotation ?? 0,
          confidence: p.ocr_confidence,
        });
    }
  };
  const t = performance.now();
  const cpu = processTreeCpuSeconds();
  await Promise.all([lane(), lane()]);
  const used = processTreeCpuSeconds() - cpu;
  pages.sort((a, b) => a.file.localeCompare(b.file) || a.page - b.page);
  return { seconds: since(t), cpu_seconds: used, per_file: perFile, pages };
}
