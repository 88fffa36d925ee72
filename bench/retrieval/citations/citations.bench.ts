// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Citation matching (spec 004 SC-002) on the corpus PDFs against corpus-references.csl.json, a CSL-JSON file written
 * for them by this project (titles as a reference manager holds them; six entries have no document here). Evidence
 * per PDF: its info dictionary, the text of pages 1-2 and its outline's first titles (mupdf, no conversion), and its
 * file name — what `lectern ingest` hands `matchCitation`, except that the converter's headings are the outline's.
 *
 *   npx tsx bench/retrieval/citations/citations.bench.ts [--threshold 0.85]
 *
 * Prints one line per PDF (right / WRONG / missed, how it matched) and the match rate.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readPdfFrontMatter } from '@lectern/conversion';
import { CslItemSchema, matchCitation } from '@lectern/document-store';

const here = dirname(fileURLToPath(import.meta.url));
const corpora = process.env['CORPORA_DIR'] ?? join(here, '..', '..', '..', '..', 'shared', 'corpora');
const at = process.argv.indexOf('--threshold');
const threshold = at > 0 ? Number(process.argv[at + 1]) : 0.85;
const items = (JSON.parse(readFileSync(join(here, 'corpus-references.csl.json'), 'utf8')) as unknown[]).map((i) =>
  CslItemSchema.parse(i),
);
const { files } = JSON.parse(readFileSync(join(here, 'corpus-files.json'), 'utf8')) as {
  files: Record<string, string>;
};

let right = 0;
let wrong = 0;
for (const [file, want] of Object.entries(files)) {
  const front = await readPdfFrontMatter(new Uint8Array(readFileSync(join(corpora, file))), 2);
  const m = matchCitation(
    items,
    {
      metadata: front.metadata,
      title: front.metadata['title'] ?? front.outline[0]?.title ?? null,
      firstPages: front.text.slice(0, 20_000),
      headings: front.outline.slice(0, 3).map((o) => o.title),
      filename: basename(file),
    },
    threshold,
  );
  if (m.matched && m.citation.citekey === want) right++;
  else if (m.matched) wrong++;
  const what = m.matched
    ? `${m.citation.citekey === want ? 'right ' : 'WRONG '} ${m.citation.citekey} (${m.by} ${m.score.toFixed(2)}: ${m.candidate})`
    : `missed  closest ${m.closest.map((c) => `${c.citekey} ${c.score}`).join(', ')}`;
  console.log(`${basename(file).slice(0, 60).padEnd(60)} ${what}`);
}
const n = Object.keys(files).length;
console.log(
  `\n${right}/${n} right (${((100 * right) / n).toFixed(1)}%), ${wrong} wrong, ${n - right - wrong} missed; threshold ${threshold}`,
);
