// SPDX-License-Identifier: AGPL-3.0-or-later
// SciFact texts for the embedding benchmarks (corpus from ../shared/corpora/beir-scifact, never copied).
import { existsSync, readFileSync } from 'node:fs';
import { corpusFile } from '@lectern/testing';

export interface Doc {
  id: string;
  title: string;
  text: string;
}
export interface Query {
  id: string;
  text: string;
}

const jsonl = <T>(file: string): T[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);

export const loadCorpus = (): Doc[] =>
  jsonl<{ _id: string; title: string; text: string }>(corpusFile('beir-scifact', 'corpus.jsonl')).map((d) => ({
    id: d._id,
    title: d.title,
    text: d.text,
  }));

export const loadQueries = (): Query[] =>
  jsonl<{ _id: string; text: string }>(corpusFile('beir-scifact', 'queries.jsonl')).map((q) => ({
    id: q._id,
    text: q.text,
  }));

/** query id -> relevant doc ids (train judgments). */
export const loadQrels = (split: 'train' | 'test' = 'train'): Map<string, Set<string>> => {
  const rel = new Map<string, Set<string>>();
  for (const line of readFileSync(corpusFile('beir-scifact', 'qrels', `${split}.tsv`), 'utf8')
    .split('\n')
    .slice(1)) {
    const [q, d, s] = line.split('\t');
    if (!q || !d || Number(s) <= 0) continue;
    rel.set(q, (rel.get(q) ?? new Set()).add(d));
  }
  return rel;
};

/**
 * Splits a text into pieces of at most `maxTokens` model tokens (special tokens included), on word boundaries,
 * with `overlapWords` words repeated between neighbours. Used to keep long abstracts from being silently cut by a
 * model's limit (each piece is embedded whole; a document scores as its best piece).
 */
export const chunkByTokens = (
  text: string,
  maxTokens: number,
  countTokens: (t: string) => number,
  overlapWords = 0,
): string[] => {
  const words = text.split(/\s+/).filter(Boolean);
  const pieces: string[] = [];
  let start = 0;
  while (start < words.length) {
    // Binary search the longest run of words from `start` that fits.
    let lo = start + 1;
    let hi = words.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (countTokens(words.slice(start, mid).join(' ')) <= maxTokens) lo = mid;
      else hi = mid - 1;
    }
    pieces.push(words.slice(start, lo).join(' '));
    if (lo >= words.length) break;
    start = Math.max(start + 1, lo - overlapWords);
  }
  return pieces;
};

/** Deterministic shuffle (mulberry32), so every run measures the same texts in the same order. */
export const shuffled = <T>(items: T[], seed = 42): T[] => {
  const out = [...items];
  let a = seed >>> 0;
  const rand = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
};

/**
 * An abstract cut the way the store and load benches store it: two chunks, the title with the first half of its
 * sentences and the title with the rest (`k` = 0, 1, counted after an empty half is left out).
 */
export const abstractHalves = (d: Doc): { k: number; text: string }[] => {
  const sentences = d.text.split(/(?<=\.)\s+/);
  const half = Math.max(1, Math.ceil(sentences.length / 2));
  return [sentences.slice(0, half).join(' '), sentences.slice(half).join(' ')]
    .filter((p) => p.trim() !== '')
    .map((text, k) => ({ k, text: `${d.title}. ${text}` }));
};

/**
 * Natural-language keyword queries: `claims` SciFact claims (shuffled with seed 7) and, when the file is there, the
 * questions of a planning question set (bench/retrieval/eval/sets/*.json).
 */
export const naturalQuerySets = (claims: number, planningFile: string): { name: string; queries: string[] }[] => {
  const sets = [
    {
      name: 'scifact-claims',
      queries: shuffled(loadQueries(), 7)
        .slice(0, claims)
        .map((q) => q.text),
    },
  ];
  if (existsSync(planningFile)) {
    const set = JSON.parse(readFileSync(planningFile, 'utf8')) as { questions: { question: string }[] };
    sets.push({ name: 'planning-dev', queries: set.questions.map((q) => q.question) });
  }
  return sets;
};
