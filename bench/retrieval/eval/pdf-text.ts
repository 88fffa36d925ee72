// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Page text of every PDF of a corpus folder by PyMuPDF 1.21 (Debian's `/usr/bin/python3`, not the pyenv one), for
 * the BM25 peer and for writing question sets. One Python process for the whole corpus; its CPU time comes back
 * with the text so the report can put it beside Lectern's ingest.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';
import { corpusFile } from '@lectern/testing';

const run = promisify(execFile);

const SCRIPT = `
import fitz, json, sys, time
t = time.process_time()
out = []
for path in sys.argv[1:]:
    doc = fitz.open(path)
    out.append({"path": path, "pages": [page.get_text() for page in doc]})
json.dump({"cpu_s": time.process_time() - t, "files": out}, sys.stdout)
`;

const Extracted = z.object({
  cpu_s: z.number(),
  files: z.array(z.object({ path: z.string(), pages: z.array(z.string()) })),
});

export interface CorpusPdf {
  /** Path under the corpus folder, '/'-separated (the key question sets use). */
  rel: string;
  abs: string;
  /** sha256 of the file (first 16 hex): copies of one file are one document. */
  hash: string;
  bytes: number;
}

/** Every PDF under `root`, sorted by path, with its content hash; `rel` is relative to `base` (default `root`). */
export const listPdfs = (root: string, base = root): CorpusPdf[] => {
  const out: CorpusPdf[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      if (name.startsWith('.')) continue;
      const abs = join(dir, name);
      const st = statSync(abs);
      if (st.isDirectory()) walk(abs);
      else if (name.toLowerCase().endsWith('.pdf'))
        out.push({
          rel: relative(base, abs).split('\\').join('/'),
          abs,
          hash: createHash('sha256').update(readFileSync(abs)).digest('hex').slice(0, 16),
          bytes: st.size,
        });
    }
  };
  walk(root);
  return out;
};

/** The PDF corpora question sets are written on. */
export type PdfCorpusName = 'uk-planning-policy' | 'manuals';

/**
 * A PDF corpus's files, the folder their names are relative to (`base`) and the folders a server must allow. Planning documents are named relative to
 * uk-planning-policy/; the manuals corpus (two long manuals and a two-column paper) relative to the corpora folder.
 */
export const corpusPdfs = (corpus: PdfCorpusName): { base: string; roots: string[]; pdfs: CorpusPdf[] } => {
  if (corpus === 'uk-planning-policy') {
    const root = corpusFile('uk-planning-policy');
    return { base: root, roots: [root], pdfs: listPdfs(root) };
  }
  const base = corpusFile();
  const roots = [corpusFile('long-manuals'), corpusFile('multicolumn-papers')];
  return { base, roots, pdfs: roots.flatMap((r) => listPdfs(r, base)) };
};

export interface PdfPages {
  pdf: CorpusPdf;
  /** Page texts, index 0 = page 1. */
  pages: string[];
}

/** Page texts of `pdfs` by PyMuPDF, and the Python process's CPU seconds. */
export const pymupdfPages = async (pdfs: readonly CorpusPdf[]): Promise<{ docs: PdfPages[]; cpuS: number }> => {
  const { stdout } = await run('/usr/bin/python3', ['-c', SCRIPT, ...pdfs.map((p) => p.abs)], {
    maxBuffer: 1 << 30,
  });
  const parsed = Extracted.parse(JSON.parse(stdout));
  return { docs: parsed.files.map((f, i) => ({ pdf: pdfs[i] as CorpusPdf, pages: f.pages })), cpuS: parsed.cpu_s };
};

export interface Window {
  doc: string;
  page: number;
  text: string;
}

/** Each page's text cut into consecutive windows of `size` characters (whitespace runs collapsed first). */
export const pageWindows = (docs: readonly PdfPages[], size = 800): Window[] =>
  docs.flatMap(({ pdf, pages }) =>
    pages.flatMap((raw, i) => {
      const text = raw.replace(/\s+/g, ' ').trim();
      const out: Window[] = [];
      for (let at = 0; at < text.length; at += size)
        out.push({ doc: pdf.hash, page: i + 1, text: text.slice(at, at + size) });
      return out;
    }),
  );
