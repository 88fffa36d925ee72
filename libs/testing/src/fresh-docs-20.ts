// SPDX-License-Identifier: AGPL-3.0-or-later
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BusinessDoc } from './business-docs.js';
import { FRESH_20_DOCS, fresh20Name } from './fresh-docs-20.draw.js';
import { repoRoot } from './paths.js';

/** Where the committed PDFs of variant 20 are. */
export const fresh20Dir = (): string => join(repoRoot(), 'libs', 'testing', 'fixtures', 'fresh-20');

/**
 * Fresh variant 20 (issue 26, a blind held-out set; fresh-docs-20.draw.ts says what is in it): scans from another
 * pipeline than variant 19's — pages drawn by PyMuPDF with absolutely positioned Base-14 text and ruled boxes,
 * rasterised by PyMuPDF at 150–300 DPI, degraded by sharp and a seeded pixel pass (rotation, keystone, uneven
 * lighting, a coffee ring or a stamp, grain, JPEG at quality 38–60; one a dithered 1-bit fax). Only OCR reads them.
 * The PDFs are committed under libs/testing/fixtures/fresh-20 and read here (tests and the bench run no Python);
 * after changing a drawing or a scan setting, make them again with
 *
 *   npx tsx libs/testing/src/fresh-docs-20.generate.ts
 *
 * (fresh-docs-20.spec.ts fails until the committed PDFs are the current drawings').
 */
export const freshVariant20Docs = (): BusinessDoc[] =>
  FRESH_20_DOCS.map(({ page: _page, size: _size, scan: _scan, ...doc }, i) => ({
    ...doc,
    name: fresh20Name(FRESH_20_DOCS[i]!),
    pdf: readFileSync(join(fresh20Dir(), fresh20Name(FRESH_20_DOCS[i]!))),
  }));
