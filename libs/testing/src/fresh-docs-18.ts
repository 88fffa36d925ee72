// SPDX-License-Identifier: AGPL-3.0-or-later
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BusinessDoc } from './business-docs.js';
import { FRESH_18_DOCS, fresh18Name } from './fresh-docs-18.html.js';
import { repoRoot } from './paths.js';

/** Where the committed PDFs of variant 18 are. */
export const fresh18Dir = (): string => join(repoRoot(), 'libs', 'testing', 'fixtures', 'fresh-18');

/**
 * Fresh variant 18 (issue 26, a blind held-out set; fresh-docs-18.html.ts says what is in it): the first set drawn
 * by a browser — HTML + CSS rendered to PDF by chromium, not by the repository's drawing kit. The PDFs are committed
 * under libs/testing/fixtures/fresh-18 and read here (tests and the bench start no browser); after changing the
 * HTML, render them again with
 *
 *   npx tsx libs/testing/src/fresh-docs-18.generate.ts
 *
 * (fresh-docs-18.spec.ts fails until the committed PDFs are the current HTML's).
 */
export const freshVariant18Docs = (): BusinessDoc[] =>
  FRESH_18_DOCS.map(({ html: _html, format: _format, header: _header, footer: _footer, ...doc }, i) => ({
    ...doc,
    name: fresh18Name(FRESH_18_DOCS[i]!),
    pdf: readFileSync(join(fresh18Dir(), fresh18Name(FRESH_18_DOCS[i]!))),
  }));
