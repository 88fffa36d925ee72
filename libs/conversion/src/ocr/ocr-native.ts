// SPDX-License-Identifier: AGPL-3.0-or-later
import { constants, accessSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { OcrText } from './ocr-pool.js';

/**
 * Which tesseract reads the pages: `native` Debian's `tesseract` program (tesseract-ocr 5.x, its own eng data),
 * `wasm` tesseract.js in worker threads (npm `@tesseract.js-data/eng`), `auto` (default) native when a `tesseract`
 * with the eng language is on PATH, else WASM. Chosen by the conversion engine's `ocrEngine` option, which the
 * services and the command line read from `OCR_ENGINE` (libs/runtime/src/env.ts).
 */
export const OCR_ENGINES = ['auto', 'native', 'wasm'] as const;
export type OcrEngine = (typeof OCR_ENGINES)[number];

/** A native read that takes longer than this is killed (a 300-DPI page takes 1-3 s of CPU here). */
export const NATIVE_OCR_TIMEOUT_MS = 120_000;
/** Largest image handed to the native program (pixels): a 600-DPI A3 page is ~70 M. */
export const NATIVE_OCR_MAX_PIXELS = 80_000_000;
/** tesseract's TSV for a full page is ~100 KB; more than this is not a page of text. */
const MAX_STDOUT = 32 * 1024 * 1024;
const MAX_STDERR = 64 * 1024;

/** Why a native read failed, as a client may be told it (the program's own output goes to the log only). */
export type OcrFailure = 'timeout' | 'image_too_large' | 'output_too_large' | 'engine_failed' | 'aborted';

const FAILURE_TEXT: Record<OcrFailure, string> = {
  timeout: 'the OCR engine took too long on the page',
  image_too_large: 'the page image is too large to OCR',
  output_too_large: 'the OCR engine returned too much output',
  engine_failed: 'the OCR engine failed on the page',
  aborted: 'OCR was aborted',
};

/**
 * A native read that failed: `reason` is one of a few fixed causes and the message a fixed sentence for it; `detail`
 * (tesseract's stderr line, an exit code, a spawn error) is for the log, never for a client or a page warning.
 */
export class OcrEngineError extends Error {
  constructor(
    readonly reason: OcrFailure,
    readonly detail: string,
  ) {
    super(FAILURE_TEXT[reason]);
    this.name = 'OcrEngineError';
  }
}

export interface NativeTesseract {
  /** Absolute path of the program. */
  bin: string;
  /** `tesseract --version`'s first line. */
  version: string;
}

/** An executable file named `name` in one of PATH's directories (no shell: nothing is interpreted). */
export function findOnPath(name: string, path = process.env['PATH'] ?? ''): string | null {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, name);
    try {
      if (!statSync(file).isFile()) continue;
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * `node:child_process`, loaded on first use: a conversion that OCRs nothing never loads it (the compiled one-shot
 * `lectern convert` starts without it; apps/cli/src/cli-build.spec.ts).
 */
const childProcess = () => import('node:child_process');

const run = async (bin: string, args: string[]): Promise<string> => {
  const { execFile } = await childProcess();
  return new Promise((resolve, reject) =>
    execFile(bin, args, { timeout: 10_000, maxBuffer: 1024 * 1024, encoding: 'utf8' }, (e, out, err) =>
      e ? reject(e) : resolve(`${out}\n${err}`),
    ),
  );
};

/**
 * The native tesseract, when one is on PATH and has the `lang` language data; null otherwise (why in `reason`).
 * Run once per pool: `--version` and `--list-langs`, each bounded by a 10 s timeout.
 */
export async function probeNativeTesseract(
  lang: string,
  path?: string,
): Promise<{ native: NativeTesseract | null; reason: string }> {
  const bin = findOnPath('tesseract', path);
  if (!bin) return { native: null, reason: 'no tesseract program on PATH' };
  try {
    const version = (await run(bin, ['--version'])).split('\n').find((l) => /tesseract/i.test(l)) ?? 'tesseract';
    const langs = (await run(bin, ['--list-langs'])).split(/\s+/);
    if (!langs.includes(lang)) return { native: null, reason: `the tesseract on PATH has no "${lang}" language data` };
    return { native: { bin, version: version.trim() }, reason: 'tesseract on PATH' };
  } catch {
    return { native: null, reason: 'the tesseract on PATH did not run' };
  }
}

interface Pam {
  width: number;
  height: number;
  depth: number;
  maxval: number;
  /** Offset of the first pixel byte. */
  data: number;
}

/** The header of a PAM image (what the PDF workers render: grey, 8 bits). */
export function parsePam(image: Uint8Array): Pam {
  const head = Buffer.from(image.buffer, image.byteOffset, Math.min(image.byteLength, 512)).toString('latin1');
  const end = head.indexOf('ENDHDR\n');
  if (!head.startsWith('P7\n') || end < 0) throw new Error('not a PAM image');
  const field = (name: string): number => {
    const m = new RegExp(`(?:^|\\n)${name} (\\d+)\\n`).exec(head.slice(0, end));
    return m ? Number(m[1]) : NaN;
  };
  const pam = {
    width: field('WIDTH'),
    height: field('HEIGHT'),
    depth: field('DEPTH'),
    maxval: field('MAXVAL'),
    data: end + 'ENDHDR\n'.length,
  };
  const ok = [pam.width, pam.height, pam.depth].every((n) => Number.isInteger(n) && n > 0) && pam.maxval === 255;
  if (!ok || pam.depth > 4 || image.byteLength < pam.data + pam.width * pam.height * pam.depth)
    throw new Error('unsupported or truncated PAM image');
  return pam;
}

/** A region of a PAM image as a PAM of the same depth: what tesseract.js's `rectangle` option does. */
export function cropPam(
  image: Uint8Array,
  rect: { left: number; top: number; width: number; height: number },
): Uint8Array {
  const pam = parsePam(image);
  const left = Math.max(0, Math.min(pam.width - 1, Math.floor(rect.left)));
  const top = Math.max(0, Math.min(pam.height - 1, Math.floor(rect.top)));
  const width = Math.max(1, Math.min(pam.width - left, Math.floor(rect.width)));
  const height = Math.max(1, Math.min(pam.height - top, Math.floor(rect.height)));
  const header = Buffer.from(
    `P7\nWIDTH ${width}\nHEIGHT ${height}\nDEPTH ${pam.depth}\nMAXVAL 255\nTUPLTYPE ${pam.depth === 1 ? 'GRAYSCALE' : pam.depth === 3 ? 'RGB' : pam.depth === 2 ? 'GRAYSCALE_ALPHA' : 'RGB_ALPHA'}\nENDHDR\n`,
    'latin1',
  );
  const out = new Uint8Array(header.length + width * height * pam.depth);
  out.set(header, 0);
  const row = pam.width * pam.depth;
  for (let y = 0; y < height; y++) {
    const from = pam.data + (top + y) * row + left * pam.depth;
    out.set(image.subarray(from, from + width * pam.depth), header.length + y * width * pam.depth);
  }
  return out;
}

/**
 * tesseract's TSV as the text and mean word confidence tesseract.js returns (its `GetUTF8Text` and
 * `MeanTextConf`): words of a line joined by spaces, a line per line, a blank line after each paragraph.
 */
export function textFromTsv(tsv: string): OcrText {
  const lines: string[] = [];
  let line: string[] = [];
  let lineKey = '';
  let paraKey = '';
  let confSum = 0;
  let confN = 0;
  const endLine = (): void => {
    if (line.length) lines.push(line.join(' '));
    line = [];
  };
  for (const row of tsv.split('\n')) {
    const c = row.split('\t');
    if (c[0] !== '5' || c.length < 12) continue; // words only (the header and page/block/paragraph/line rows skipped)
    const text = c.slice(11).join('\t').trim();
    if (!text) continue;
    const para = `${c[1]}.${c[2]}.${c[3]}`;
    const key = `${para}.${c[4]}`;
    if (key !== lineKey) {
      endLine();
      if (para !== paraKey && lines.length) lines.push('');
      lineKey = key;
      paraKey = para;
    }
    line.push(text);
    const conf = Number(c[10]);
    if (Number.isFinite(conf) && conf >= 0) {
      confSum += conf;
      confN += 1;
    }
  }
  endLine();
  return { text: lines.length ? `${lines.join('\n')}\n` : '', confidence: confN ? Math.round(confSum / confN) : 0 };
}

export interface NativeReadOptions {
  lang: string;
  dpi: number;
  psm: number;
  thresholding: number;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/**
 * One page read by the native program: the image on its stdin, TSV on its stdout (no temporary file, no shell;
 * every argument is a number or the fixed language name). One thread per process (OMP_THREAD_LIMIT=1): the pool
 * runs one process per core. Killed on abort or after `timeoutMs`; its output is bounded.
 */
export async function recognizeNative(bin: string, image: Uint8Array, o: NativeReadOptions): Promise<OcrText> {
  return textFromTsv(await nativeTsv(bin, image, o));
}

/** A word of tesseract's TSV: its text, its box in the image's pixels, its line (block.paragraph.line) and confidence. */
export interface OcrWord {
  text: string;
  /** `block.paragraph.line`: the words of one line share it. */
  line: string;
  left: number;
  top: number;
  width: number;
  height: number;
  confidence: number;
}

/** The words of tesseract's TSV (level 5 rows with text), in reading order. */
export function wordsFromTsv(tsv: string): OcrWord[] {
  const words: OcrWord[] = [];
  for (const row of tsv.split('\n')) {
    const c = row.split('\t');
    if (c[0] !== '5' || c.length < 12) continue;
    const text = c.slice(11).join('\t').trim();
    if (!text) continue;
    words.push({
      text,
      line: `${c[2]}.${c[3]}.${c[4]}`,
      left: Number(c[6]),
      top: Number(c[7]),
      width: Number(c[8]),
      height: Number(c[9]),
      confidence: Number(c[10]),
    });
  }
  return words;
}

/** One page's words with their boxes, read by the native program (as `recognizeNative`). */
export async function recognizeNativeWords(bin: string, image: Uint8Array, o: NativeReadOptions): Promise<OcrWord[]> {
  return wordsFromTsv(await nativeTsv(bin, image, o));
}

async function nativeTsv(bin: string, image: Uint8Array, o: NativeReadOptions): Promise<string> {
  const pam = parsePam(image);
  if (pam.width * pam.height > NATIVE_OCR_MAX_PIXELS)
    throw new OcrEngineError('image_too_large', `${pam.width}x${pam.height} pixels`);
  const { spawn } = await childProcess();
  const args = [
    'stdin',
    'stdout',
    '-l',
    o.lang,
    '--dpi',
    String(Math.round(o.dpi)),
    '--psm',
    String(Math.trunc(o.psm)),
    '-c',
    `thresholding_method=${Math.trunc(o.thresholding)}`,
    'tsv',
  ];
  return new Promise<string>((resolve, reject) => {
    o.signal?.throwIfAborted();
    const child = spawn(bin, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
    });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    let failure: OcrEngineError | null = null;
    const kill = (why: OcrEngineError): void => {
      failure ??= why;
      child.kill('SIGKILL');
    };
    const limit = o.timeoutMs ?? NATIVE_OCR_TIMEOUT_MS;
    const timer = setTimeout(() => kill(new OcrEngineError('timeout', `killed after ${limit} ms`)), limit);
    const onAbort = (): void => kill(new OcrEngineError('aborted', 'aborted'));
    o.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (b: Buffer) => {
      outBytes += b.length;
      if (outBytes > MAX_STDOUT) kill(new OcrEngineError('output_too_large', `over ${MAX_STDOUT} bytes`));
      else out.push(b);
    });
    child.stderr.on('data', (b: Buffer) => {
      if (err.length < MAX_STDERR) err += b.toString('utf8');
    });
    child.stdin.on('error', () => undefined); // a process that exits early closes its stdin: its exit code tells
    child.on('error', (e) => kill(new OcrEngineError('engine_failed', e.message)));
    child.on('close', (code) => {
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      if (failure) return reject(failure);
      if (code !== 0) {
        const why = err.split('\n').find((l) => /error|fail|can't|cannot/i.test(l)) ?? '';
        return reject(new OcrEngineError('engine_failed', `exit code ${code}${why ? `: ${why.slice(0, 200)}` : ''}`));
      }
      resolve(Buffer.concat(out).toString('utf8'));
    });
    child.stdin.end(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
  });
}
