// SPDX-License-Identifier: AGPL-3.0-or-later
// Round 14 helper: a PDF's layout spans (first page), pairs and grid cells, OCR'd where a page has no text layer.
//   npx tsx bench/extraction/ocr26-try.mts some.pdf
import { readFileSync } from 'node:fs';
import { readPageSpans, layoutPairs, gridCells } from '../../libs/extraction/src/local/page-layout.js';
const f = process.argv[2]!;
const t0 = performance.now();
const pages = await readPageSpans(readFileSync(f));
console.log(
  'ms',
  Math.round(performance.now() - t0),
  'spans',
  pages.map((p) => p.length),
);
for (const s of pages[0]!.slice(0, 40))
  console.log(s.y0.toFixed(1), s.y1.toFixed(1), s.x0.toFixed(1), s.x1.toFixed(1), JSON.stringify(s.text));
const pairs = layoutPairs(pages, []);
for (const p of pairs) console.log('PAIR', p.where, JSON.stringify(p.label.text), '->', JSON.stringify(p.value.text));
for (const c of gridCells(pages).slice(0, 30))
  console.log('CELL', JSON.stringify(c.row.text), JSON.stringify(c.column.text), JSON.stringify(c.value.text));
