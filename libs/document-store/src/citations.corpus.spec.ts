// SPDX-License-Identifier: AGPL-3.0-or-later
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { readPdfFrontMatter } from '@lectern/conversion';
import { corporaDir, repoRoot } from '@lectern/testing';
import { CslItemSchema, matchCitation, type CslItem } from './citations.js';

/*
 * Spec 004 SC-002 (issue 25): citation matching on the corpus PDFs against a CSL-JSON file written for them by this
 * project (bench/retrieval/citations: titles as a reference manager holds them — subtitles, dashes, "&", a DOI for
 * the paper, and entries with no document among them). The evidence is what the first pages say: the PDF's info
 * dictionary, the text of pages 1-2, the outline's first titles (where the converter gives its headings) and the file
 * name; the threshold is the command line's default (0.85).
 */
const dir = join(repoRoot(), 'bench', 'retrieval', 'citations');
const items: CslItem[] = (JSON.parse(readFileSync(join(dir, 'corpus-references.csl.json'), 'utf8')) as unknown[]).map(
  (i) => CslItemSchema.parse(i),
);
const expected = (JSON.parse(readFileSync(join(dir, 'corpus-files.json'), 'utf8')) as { files: Record<string, string> })
  .files;

describe('citation matching on the corpus PDFs (SC-002: >= 95%)', () => {
  it('matches at least 95% of the documents to their own entry, and none to another entry', async () => {
    const outcomes: Array<{ file: string; want: string; got: string | null; by?: string }> = [];
    for (const [file, want] of Object.entries(expected)) {
      const front = await readPdfFrontMatter(new Uint8Array(readFileSync(join(corporaDir(), file))), 2);
      const match = matchCitation(
        items,
        {
          metadata: front.metadata,
          title: front.metadata['title'] ?? front.outline[0]?.title ?? null,
          firstPages: front.text.slice(0, 20_000),
          headings: front.outline.slice(0, 3).map((o) => o.title),
          filename: basename(file),
        },
        0.85,
      );
      outcomes.push(
        match.matched
          ? {
              file,
              want,
              got: match.citation.citekey ?? null,
              by: `${match.by} ${match.score.toFixed(2)} ${match.candidate}`,
            }
          : { file, want, got: null },
      );
    }
    const right = outcomes.filter((o) => o.got === o.want);
    const wrong = outcomes.filter((o) => o.got !== null && o.got !== o.want);
    // What missed, in the failure message.
    expect({ wrong, missed: outcomes.filter((o) => o.got === null).map((o) => o.file) }).toEqual({
      wrong: [],
      missed: expect.any(Array),
    });
    expect(right.length / outcomes.length).toBeGreaterThanOrEqual(0.95);
    expect(outcomes.length).toBe(Object.keys(expected).length);
  }, 120_000);
});
