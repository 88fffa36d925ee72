// SPDX-License-Identifier: AGPL-3.0-or-later
import { describeBlindSet } from './blind-set.testkit.js';
import { FRESH_18_DOCS, fresh18Name, htmlDigest } from './fresh-docs-18.html.js';
import { freshVariant18Docs } from './fresh-docs-18.js';

// Fresh variant 18, a blind held-out extraction set drawn by chromium, checked as test material
// (blind-set.testkit.ts says what).
describeBlindSet(18, freshVariant18Docs(), {
  contracts: 4,
  receipts: 4,
  datasheets: 4,
  minFields: 100,
  absentShare: [0.12, 0.2],
});

describe('fresh variant 18 committed PDFs', () => {
  it.each(FRESH_18_DOCS.map((d) => [fresh18Name(d), d] as const))(
    '%s was rendered by chromium from the HTML in fresh-docs-18.html.ts (its title is the HTML digest)',
    (name, doc) => {
      const pdf = freshVariant18Docs()
        .find((d) => d.name === name)!
        .pdf.toString('latin1');
      expect(/\/Producer \(Skia\/PDF[^)]*\)/.test(pdf)).toBe(true);
      // a stale PDF (the HTML changed, the generator not run again) carries another digest
      expect(/\/Title \(([^)]*)\)/.exec(pdf)?.[1]).toBe(htmlDigest(doc));
    },
  );
});
