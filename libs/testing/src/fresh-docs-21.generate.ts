// SPDX-License-Identifier: AGPL-3.0-or-later
/*
 * Writes fresh variant 21's five Word documents (fresh-docs-21.docx.ts, built with the `docx` package) into
 * libs/testing/fixtures/fresh-21/ (committed; fresh-docs-21.spec.ts builds them again and compares the XML). The five
 * PDFs are drawn by PyMuPDF from fresh-docs-21.generate.py. Run both by hand after a change:
 *
 *   npx tsx libs/testing/src/fresh-docs-21.generate.ts && /usr/bin/python3 libs/testing/src/fresh-docs-21.generate.py
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FRESH_21_WORD, wordBytes } from './fresh-docs-21.docx.js';
import { repoRoot } from './paths.js';

const dir = join(repoRoot(), 'libs', 'testing', 'fixtures', 'fresh-21');
mkdirSync(dir, { recursive: true });
for (const name of Object.keys(FRESH_21_WORD)) {
  const bytes = await wordBytes(name);
  writeFileSync(join(dir, name), bytes);
  process.stdout.write(`${name} ${bytes.length} bytes\n`);
}
