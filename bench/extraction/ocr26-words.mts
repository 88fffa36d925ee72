// SPDX-License-Identifier: AGPL-3.0-or-later
// Round 14 helper: a scanned PDF's OCR words with a digit, and their confidence (what the layout's spans are made of).
import { readFileSync } from 'node:fs';
import { ocrPageWords } from '@lectern/conversion';
import { readPageSpans } from '../../libs/extraction/src/local/page-layout.js';

for (const f of process.argv.slice(2)) {
  await readPageSpans(readFileSync(f), 2, async (image, dpi) => {
    const words = await ocrPageWords(image, dpi);
    for (const w of words ?? []) if (/\d/.test(w.text)) console.log(w.confidence.toFixed(0).padStart(3), w.text);
    return words;
  });
}
