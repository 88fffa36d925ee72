// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * The question sets: planning questions written by reading pages of ../shared/corpora/uk-planning-policy, manuals
 * questions on the long manuals and the two-column paper (JSON files beside this one, see README.md), and BEIR SciFact's train (dev) and test (report) judgments, read with the
 * loaders of bench/embedding/corpus.ts.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadQrels, loadQueries } from '../../embedding/corpus.js';
import { PlanningSetSchema } from './set-schema.js';

export { PlanningQuestionSchema, PlanningSetSchema, type PlanningQuestion } from './set-schema.js';

export const SET_NAMES = [
  'planning-smoke',
  'planning-dev',
  'planning-heldout',
  'planning-heldout2',
  'planning-heldout3',
  'planning-heldout4',
  'planning-heldout5',
  'planning-heldout6',
  'planning-heldout7',
  'planning-heldout8',
  'manuals-smoke',
  'manuals-heldout1',
  'scifact-train',
  'scifact-test',
] as const;
export type SetName = (typeof SET_NAMES)[number];
export type CorpusName = 'uk-planning-policy' | 'manuals' | 'beir-scifact';

/** One query of a set, in the form the harness scores. */
export interface EvalQuery {
  id: string;
  text: string;
  /** Planning: the document's corpus path; SciFact: relevant doc ids. */
  docs: string[];
  page?: number;
  keyPhrase?: string;
  /** Planning: the question's kind (number, code, definition, procedure, place, fact). */
  kind?: string;
}

export interface EvalSet {
  name: SetName;
  corpus: CorpusName;
  queries: EvalQuery[];
}

const here = dirname(fileURLToPath(import.meta.url));

export const loadSet = (name: SetName): EvalSet => {
  if (name.startsWith('planning-') || name.startsWith('manuals-')) {
    const set = PlanningSetSchema.parse(JSON.parse(readFileSync(join(here, 'sets', `${name}.json`), 'utf8')));
    const ids = new Set<string>();
    for (const q of set.questions) {
      if (ids.has(q.id)) throw new Error(`${name}: question id ${q.id} twice`);
      ids.add(q.id);
    }
    return {
      name,
      corpus: set.corpus,
      queries: set.questions.map((q) => ({
        id: q.id,
        text: q.question,
        docs: [q.document],
        page: q.page,
        keyPhrase: q.key_phrase,
        kind: q.kind,
      })),
    };
  }
  const split = name === 'scifact-train' ? 'train' : 'test';
  const text = new Map(loadQueries().map((q) => [q.id, q.text]));
  return {
    name,
    corpus: 'beir-scifact',
    queries: [...loadQrels(split)].map(([id, rel]) => ({ id, text: text.get(id) ?? '', docs: [...rel] })),
  };
};
