// SPDX-License-Identifier: AGPL-3.0-or-later
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { loadNativeEngine } from '../../libs/conversion/src/pdf/pdf-native.js';
import type { RawPage } from '../../libs/conversion/src/pdf/pdf-page.protocol.js';

/** The value after `name` on the command line (`--out FILE`), if given: the conversion benches' options. */
export const flag = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

/** user + system of a `process.cpuUsage()` difference, in ms. */
export const cpuMs = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1e3;

/** The middle value (the upper of the two middles for an even count; NaN for none). */
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** The PDFs at `path` (a file, or every PDF under a directory, sorted) smaller than `maxBytes`. */
export const pdfFiles = (path: string, maxBytes: number): string[] =>
  statSync(path).isDirectory()
    ? readdirSync(path)
        .sort()
        .flatMap((f) => pdfFiles(join(path, f), maxBytes))
    : path.toLowerCase().endsWith('.pdf') && statSync(path).size < maxBytes
      ? [path]
      : [];

/** Every page of the document open under `key` in the native engine, extracted 16 pages a call. */
export const extractAllPages = (
  native: ReturnType<typeof loadNativeEngine>,
  key: string,
  pageCount: number,
): RawPage[] => {
  const pages = Array.from({ length: pageCount }, (_, i) => i + 1);
  const raws: RawPage[] = [];
  for (let i = 0; i < pages.length; i += 16) raws.push(...native.extract({ key, pages: pages.slice(i, i + 16) }, null));
  return raws;
};
