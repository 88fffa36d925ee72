// SPDX-License-Identifier: AGPL-3.0-or-later
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BusinessDoc } from './business-docs.js';
import { FRESH_19_DOCS, fresh19Name } from './fresh-docs-19.html.js';
import { repoRoot } from './paths.js';

/** Where the committed PDFs of variant 19 are. */
export const fresh19Dir = (): string => join(repoRoot(), 'libs', 'testing', 'fixtures', 'fresh-19');

/**
 * Fresh variant 19 (issue 26, a blind held-out set; fresh-docs-19.html.ts says what is in it): the first set of
 * scans — image-only PDFs with no text layer, drawn as HTML + CSS, photographed by chromium at 200–300 DPI and
 * degraded (grey paper, a small rotation, blur, grain; one 1-bit photocopy, one narrow till roll). Only OCR reads
 * them. The PDFs are committed under libs/testing/fixtures/fresh-19 and read here (tests and the bench start no
 * browser); after changing the HTML or a scan setting, make them again with
 *
 *   npx tsx libs/testing/src/fresh-docs-19.generate.ts
 *
 * (fresh-docs-19.spec.ts fails until the committed PDFs are the current HTML's).
 */
export const freshVariant19Docs = (): BusinessDoc[] =>
  FRESH_19_DOCS.map(({ html: _html, paper: _paper, scan: _scan, ...doc }, i) => ({
    ...doc,
    name: fresh19Name(FRESH_19_DOCS[i]!),
    pdf: readFileSync(join(fresh19Dir(), fresh19Name(FRESH_19_DOCS[i]!))),
  }));
