// SPDX-License-Identifier: AGPL-3.0-or-later
import { eng } from 'stopword';

const STOPWORDS = new Set(eng);

/**
 * The words of a keyword query: letters/digits, lowercased, de-duplicated, at most `max`, English stopwords
 * dropped unless nothing else is left. Why drop them: a stopword matches nearly every chunk, and FTS5 scores
 * every match (measured on the benchmark corpus at 100k chunks: 9-10 ms for content words alone, 120-138 ms
 * with two of the corpus's most frequent words added), while its near-zero IDF adds almost nothing to the ranking.
 */
export const queryTerms = (text: string, max = 32): string[] => {
  const words = [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
  const content = words.filter((w) => !STOPWORDS.has(w));
  return (content.length > 0 ? content : words).slice(0, max);
};

/**
 * Word pairs for phrase credit: two content words next to each other in the query ("air quality", "open space",
 * "affordable housing"), lowercased, de-duplicated, at most `max`, in order. A pair with a stopword or punctuation
 * between its words is not one (the query's own adjacency says they form a unit). Matched as FTS5 phrases beside
 * the single words, a pair scores with its own (higher) IDF where the chunk holds the words together: a two-term
 * sequential-dependence credit (Metzler & Croft 2005) in plain BM25, so a chunk that says "air quality" ranks above
 * one that has "air" and "quality" far apart.
 */
export const queryPhrases = (text: string, max = 8): [string, string][] => {
  const out = new Map<string, [string, string]>();
  // Runs of words separated by whitespace only: punctuation between two words ends the run.
  for (const run of text.toLowerCase().split(/[^\p{L}\p{N}\s]+/u)) {
    const words = run.match(/[\p{L}\p{N}]+/gu) ?? [];
    for (let i = 0; i + 1 < words.length && out.size < max; i++) {
      const a = words[i] as string;
      const b = words[i + 1] as string;
      if (a === b || STOPWORDS.has(a) || STOPWORDS.has(b)) continue;
      out.set(`${a} ${b}`, [a, b]);
    }
  }
  return [...out.values()];
};
