// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Small, valid text-layer PDFs for plain-tier tests that need "some PDF" (a real one, with a text layer the
 * converter reads), written by hand so the helper needs no PDF library. Each page is a list of lines; a line
 * starting with `# ` is set large and bold (a heading to the converter), the rest in 11-point Helvetica.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

export interface TextPdfOptions {
  /** Document title (the Info dictionary). */
  title?: string;
}

const escapePdfText = (text: string): string => text.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, '?');

const pageContent = (lines: readonly string[]): string => {
  // Start below the top 10% of the page (where the converter drops repeated running headers).
  const ops: string[] = ['BT', '72 690 Td'];
  for (const line of lines) {
    const heading = line.startsWith('# ');
    const size = heading ? 20 : 11;
    ops.push(
      `/${heading ? 'F2' : 'F1'} ${size} Tf`,
      `(${escapePdfText(heading ? line.slice(2) : line)}) Tj`,
      `0 -${size + 8} Td`,
    );
  }
  ops.push('ET');
  return ops.join('\n');
};

/** A grey image drawn on a page (an XObject named /Im1 in its resources): `gray` holds width x height bytes. */
export interface PdfImage {
  width: number;
  height: number;
  gray: Uint8Array;
}

/** A grey image of dark bars on white: something for tesseract to look at on a page without text (`makePdf`'s `image`). */
export const barsImage = (): PdfImage => {
  const width = 200;
  const height = 60;
  const gray = new Uint8Array(width * height).fill(255);
  for (let y = 20; y < 40; y++) for (let x = 10; x < 190; x++) if (x % 12 < 6) gray[y * width + x] = 0;
  return { width, height, gray };
};

/**
 * One page of `makePdf`: its content stream as written (PDF operators), with the fonts /F1 Helvetica, /F2
 * Helvetica-Bold, /F3 Courier and, when `image` is given, the image /Im1 available to it.
 */
export interface PdfPageSpec {
  content: string;
  /** [x0 y0 x1 y1] in points; default US Letter [0 0 612 792]. */
  mediaBox?: readonly [number, number, number, number];
  /** The visible part of the page (a printer's proof has marks outside it). */
  cropBox?: readonly [number, number, number, number];
  image?: PdfImage;
}

/** A PDF from hand-written page content streams (for tests that need a particular drawing on a page). */
export const makePdf = (pages: readonly PdfPageSpec[], options: TextPdfOptions = {}): Buffer => {
  if (pages.length === 0) throw new Error('makePdf: at least one page');
  const objects: string[] = [];
  const add = (body: string): number => objects.push(body);
  const catalog = add('');
  const pagesObj = add('');
  const f1 = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const f2 = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>');
  const f3 = add('<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>');
  const box = (b: readonly number[]): string => `[${b.join(' ')}]`;
  const kids: number[] = [];
  for (const page of pages) {
    // Deflated, as real PDFs' content streams are (so the file is binary, not text, to a type sniffer).
    const content = deflateSync(Buffer.from(page.content, 'latin1')).toString('latin1');
    const stream = add(`<< /Length ${content.length} /Filter /FlateDecode >>\nstream\n${content}\nendstream`);
    let xobjects = '';
    if (page.image) {
      const { width, height, gray } = page.image;
      const data = deflateSync(gray).toString('latin1');
      const im = add(
        `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Length ${data.length} /Filter /FlateDecode >>\nstream\n${data}\nendstream`,
      );
      xobjects = ` /XObject << /Im1 ${im} 0 R >>`;
    }
    const crop = page.cropBox ? ` /CropBox ${box(page.cropBox)}` : '';
    kids.push(
      add(
        `<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox ${box(page.mediaBox ?? [0, 0, 612, 792])}${crop} /Resources << /Font << /F1 ${f1} 0 R /F2 ${f2} 0 R /F3 ${f3} 0 R >>${xobjects} >> /Contents ${stream} 0 R >>`,
      ),
    );
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`;
  objects[pagesObj - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  const info = add(`<< /Title (${escapePdfText(options.title ?? 'Test document')}) /Producer (lectern tests) >>`);

  // The binary comment line after the header marks the file as binary (as PDF writers do).
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R /Info ${info} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
};

/** `text` as a PDF string literal's contents (non-Latin-1 characters become '?'). */
export const pdfString = escapePdfText;

/** One run of `text` at (x, y) in a page's content stream (F1 Helvetica, F2 Helvetica-Bold, F3 Courier). */
export const pdfTextAt = (x: number, y: number, text: string, size = 10, font = 'F1'): string =>
  `BT /${font} ${size} Tf ${x} ${y} Td (${escapePdfText(text)}) Tj ET`;

/** A PDF whose page i shows `pages[i]` (one string per line). */
export const makeTextPdf = (pages: readonly (readonly string[])[], options: TextPdfOptions = {}): Buffer =>
  makePdf(
    pages.map((lines) => ({ content: pageContent(lines) })),
    options,
  );

/** `count` pages of numbered, distinct sentences (page n mentions "page n"), each page opening with a heading. */
export const makeNumberedPdf = (count: number, linesPerPage = 12): Buffer =>
  makeTextPdf(
    Array.from({ length: count }, (_, p) => [
      `# Section ${p + 1}`,
      ...Array.from(
        { length: linesPerPage },
        (_, l) =>
          `Page ${p + 1} line ${l + 1}: the quick brown fox jumps over the lazy dog number ${p * linesPerPage + l}.`,
      ),
    ]),
  );

const CHAPTER_TITLES = ['Introduction', 'Housing supply', 'Sustainable transport', 'Design quality', 'Climate change'];

/**
 * A policy document in the NPPF's layout: numbered chapter titles (`2. Housing supply`), numbered paragraphs
 * running on across chapters (`4. Paragraph 4 of the <theme> policy: ...`) and, in chapter 2, `Table 2-1`; one
 * page per chapter. Every paragraph names `theme`, so two revisions with different themes are told apart.
 */
export const makePolicyPdf = (theme: string, chapters = 3, parasPerChapter = 3): Buffer => {
  let para = 0;
  return makeTextPdf(
    Array.from({ length: chapters }, (_, c) => [
      `${c + 1}. ${CHAPTER_TITLES[c % CHAPTER_TITLES.length]}`,
      ...Array.from({ length: parasPerChapter }, () => {
        para += 1;
        return `${para}. Paragraph ${para} of the ${theme} policy: ${theme} proposals meet standard ${para}.`;
      }),
      ...(c === 1
        ? [`Table 2-1 ${theme} parking standards`, `Each dwelling has ${c + 2} secure ${theme} cycle spaces.`]
        : []),
    ]),
    { title: `${theme} policy` },
  );
};

/** Where `fixtureFile` writes (created on first use): a directory tests can add to DOCUMENT_ROOTS. */
export const fixturesDir = (): string => {
  const dir = join(tmpdir(), 'lectern-fixtures');
  mkdirSync(dir, { recursive: true });
  return dir;
};

/**
 * `bytes` written to a content-addressed file under the system temp directory (`lectern-fixtures/<sha256>/<name>`),
 * synchronously so a spec can name it at module level like a corpus file; the same bytes reuse the same file.
 */
export const fixtureFile = (name: string, bytes: Uint8Array): string => {
  const dir = join(fixturesDir(), createHash('sha256').update(bytes).digest('hex'));
  const file = join(dir, name);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, bytes);
    renameSync(temp, file);
  }
  return file;
};

/** A generated stand-in for "an 82-page text-layer PDF" (what many suites used the NPPF for), on disk. */
export const numberedPdfFile = (pages = 82, name = `generated-${pages}-pages.pdf`): string =>
  fixtureFile(name, makeNumberedPdf(pages));
