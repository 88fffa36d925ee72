// SPDX-License-Identifier: AGPL-3.0-or-later
/** Lower-case alphanumeric words of a text. */
export const words = (s: string): string[] => s.toLowerCase().match(/[a-z0-9]+/g) ?? [];

/** Share of `expected` items (with multiplicity) found among `found`. */
const multisetRecall = (found: string[], expected: string[]): number => {
  const left = new Map<string, number>();
  for (const w of found) left.set(w, (left.get(w) ?? 0) + 1);
  let hit = 0;
  for (const w of expected) {
    const n = left.get(w) ?? 0;
    if (n > 0) {
      hit += 1;
      left.set(w, n - 1);
    }
  }
  return expected.length === 0 ? 0 : hit / expected.length;
};

/**
 * Share of the reference's words (with multiplicity) found in `text` — the OCR accuracy measure the
 * conversion tests and benchmark report (order-insensitive, so column order does not count against OCR).
 */
export const wordRecall = (text: string, reference: string): number => multisetRecall(words(text), words(reference));

const pairs = (ws: string[]): string[] => ws.slice(1).map((w, i) => `${ws[i]} ${w}`);

/**
 * Share of the reference's adjacent word pairs (with multiplicity) found adjacent in `text`: the reading-order
 * check wordRecall leaves out (two columns read straight across both keep their words and lose their pairs).
 */
export const wordPairRecall = (text: string, reference: string): number =>
  multisetRecall(pairs(words(text)), pairs(words(reference)));
