/** Lower-case alphanumeric words of a text. */
export const words = (s: string): string[] => s.toLowerCase().match(/[a-z0-9]+/g) ?? [];

/**
 * Share of the reference's words (with multiplicity) found in `text` — the OCR accuracy measure the
 * conversion tests and benchmark report (order-insensitive, so column order does not count against OCR).
 */
export const wordRecall = (text: string, reference: string): number => {
  const expected = words(reference);
  const left = new Map<string, number>();
  for (const w of words(text)) left.set(w, (left.get(w) ?? 0) + 1);
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
