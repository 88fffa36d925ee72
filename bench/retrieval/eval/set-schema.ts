// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * The schema of a question set file (sets/*.json): the planning sets over ../shared/corpora/uk-planning-policy and
 * the manuals sets over software manuals and papers elsewhere under ../shared/corpora.
 */
import { z } from 'zod';

export const PlanningQuestionSchema = z.object({
  id: z.string().min(1),
  question: z.string().min(5),
  /**
   * Path of the PDF: under ../shared/corpora/uk-planning-policy for a 'uk-planning-policy' set, under
   * ../shared/corpora itself for a 'manuals' set (e.g. `long-manuals/gnuplot.pdf`).
   */
  document: z.string().endsWith('.pdf'),
  /** 1-based page that answers the question. */
  page: z.number().int().positive(),
  /** The answer's key phrase as it stands on the page (matched after normalisation). */
  key_phrase: z.string().min(2),
  answer: z.string().min(1),
  kind: z.enum(['number', 'code', 'definition', 'procedure', 'place', 'fact']),
  /** True when the question does not reuse the page's wording. */
  paraphrased: z.boolean(),
});
export type PlanningQuestion = z.infer<typeof PlanningQuestionSchema>;

export const PlanningSetSchema = z.object({
  name: z.string(),
  corpus: z.enum(['uk-planning-policy', 'manuals']),
  description: z.string(),
  questions: z.array(PlanningQuestionSchema).min(1),
});
