// SPDX-License-Identifier: AGPL-3.0-or-later
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { answerBearing, meanScores, normalise, scoreQuestion, type Hit } from './metrics.js';
import { PlanningSetSchema } from './set-schema.js';

const hit = (doc: string, pageStart: number | null, text: string, pageEnd = pageStart): Hit => ({
  doc,
  pageStart,
  pageEnd,
  text,
});

describe('bench/retrieval/eval metrics', () => {
  it('normalise unifies case, quotes, dashes, hyphenated line breaks and punctuation', () => {
    expect(normalise('The AAP adoption date is 6th\u00a0December\u20142017')).toBe(
      'the aap adoption date is 6th december 2017',
    );
    expect(normalise('City centre\u2019s   “University”')).toBe('city centre s university');
    expect(normalise('under-\n delivery of 1,020 homes')).toBe('underdelivery of 1 020 homes');
    expect(normalise('less than 75% of')).toBe('less than 75% of');
  });

  it('an answer-bearing hit needs the right document, a span covering the page and the key phrase', () => {
    const j = { docs: new Set(['A']), page: 6, keyPhrase: 'less than 75% of' };
    expect(answerBearing(hit('A', 5, 'below (less than 75% of) the requirement', 6), j)).toBe(true);
    expect(answerBearing(hit('B', 6, 'less than 75% of'), j)).toBe(false);
    expect(answerBearing(hit('A', 7, 'less than 75% of'), j)).toBe(false);
    expect(answerBearing(hit('A', 6, 'less than 85% of'), j)).toBe(false);
    expect(answerBearing(hit('A', null, 'less than 75% of'), j)).toBe(false);
  });

  it('planning scores: hit@1 on the document, answer@5 and MRR on answer-bearing hits, nDCG on the page', () => {
    const j = { docs: new Set(['A']), page: 3, keyPhrase: 'key phrase' };
    const ranked = [
      hit('B', 3, 'key phrase'),
      hit('A', 3, 'other words'),
      hit('A', 3, 'other words'),
      hit('A', 2, 'key phrase'),
      hit('A', 3, 'the key phrase here'),
    ];
    const s = scoreQuestion(ranked, j);
    expect(s.hit1).toBe(0);
    expect(s.answer5).toBe(1);
    expect(s.mrr).toBeCloseTo(1 / 5);
    expect(s.ndcg10).toBeCloseTo(1 / Math.log2(3));
    const late = scoreQuestion([...ranked.slice(0, 4), hit('C', 1, ''), hit('A', 3, 'key phrase')], j);
    expect(late.answer5).toBe(0);
    expect(late.mrr).toBeCloseTo(1 / 6);
    expect(scoreQuestion([], j)).toEqual({ ndcg10: 0, hit1: 0, answer5: 0, mrr: 0 });
  });

  it('SciFact scores collapse chunks to documents and use binary nDCG over the qrels', () => {
    const j = { docs: new Set(['d1', 'd2']) };
    const s = scoreQuestion([hit('d1', null, ''), hit('d1', null, ''), hit('x', null, ''), hit('d2', null, '')], j);
    expect(s.hit1).toBe(1);
    expect(s.mrr).toBe(1);
    expect(s.answer5).toBe(1);
    expect(s.ndcg10).toBeCloseTo((1 + 1 / Math.log2(4)) / (1 + 1 / Math.log2(3)));
    expect(meanScores([s, { ndcg10: 0, hit1: 0, answer5: 0, mrr: 0 }]).hit1).toBe(0.5);
  });

  it('the planning sets parse, have unique ids and share no document', () => {
    const load = (name: string) =>
      PlanningSetSchema.parse(JSON.parse(readFileSync(join(import.meta.dirname, 'sets', `${name}.json`), 'utf8')));
    const dev = load('planning-dev');
    const heldout = load('planning-heldout');
    expect(dev.questions.length).toBeGreaterThanOrEqual(45);
    expect(heldout.questions.length).toBeGreaterThanOrEqual(25);
    const ids = [...dev.questions, ...heldout.questions].map((q) => q.id);
    expect(new Set(ids).size).toBe(ids.length);
    const devDocs = new Set(dev.questions.map((q) => q.document));
    expect(heldout.questions.filter((q) => devDocs.has(q.document))).toEqual([]);
    for (const set of [dev, heldout])
      expect(set.questions.filter((q) => q.paraphrased).length * 2).toBeGreaterThanOrEqual(set.questions.length);
    // The round 3 reporting set: pages neither earlier set uses (its documents are theirs: every text-bearing
    // document of the corpus is in one of them).
    const heldout2 = load('planning-heldout2');
    expect(heldout2.questions.length).toBeGreaterThanOrEqual(30);
    const all = [...ids, ...heldout2.questions.map((q) => q.id)];
    expect(new Set(all).size).toBe(all.length);
    const usedPages = new Set([...dev.questions, ...heldout.questions].map((q) => `${q.document}#${q.page}`));
    expect(heldout2.questions.filter((q) => usedPages.has(`${q.document}#${q.page}`))).toEqual([]);
    expect(heldout2.questions.filter((q) => q.paraphrased).length * 2).toBeGreaterThanOrEqual(
      heldout2.questions.length,
    );
    // The round 4 reporting set: pages none of the three earlier sets uses.
    const heldout3 = load('planning-heldout3');
    expect(heldout3.questions.length).toBeGreaterThanOrEqual(30);
    const all3 = [...all, ...heldout3.questions.map((q) => q.id)];
    expect(new Set(all3).size).toBe(all3.length);
    const usedPages3 = new Set(
      [...dev.questions, ...heldout.questions, ...heldout2.questions].map((q) => `${q.document}#${q.page}`),
    );
    expect(heldout3.questions.filter((q) => usedPages3.has(`${q.document}#${q.page}`))).toEqual([]);
    expect(heldout3.questions.filter((q) => q.paraphrased).length * 2).toBeGreaterThanOrEqual(
      heldout3.questions.length,
    );
    // The round 5 reporting set: pages none of the four earlier sets uses.
    const heldout4 = load('planning-heldout4');
    expect(heldout4.questions.length).toBeGreaterThanOrEqual(30);
    const all4 = [...all3, ...heldout4.questions.map((q) => q.id)];
    expect(new Set(all4).size).toBe(all4.length);
    const usedPages4 = new Set(
      [...dev.questions, ...heldout.questions, ...heldout2.questions, ...heldout3.questions].map(
        (q) => `${q.document}#${q.page}`,
      ),
    );
    expect(heldout4.questions.filter((q) => usedPages4.has(`${q.document}#${q.page}`))).toEqual([]);
    expect(heldout4.questions.filter((q) => q.paraphrased).length * 2).toBeGreaterThanOrEqual(
      heldout4.questions.length,
    );
    // The round 8 reporting set: pages none of the five earlier sets uses.
    const heldout5 = load('planning-heldout5');
    expect(heldout5.questions.length).toBeGreaterThanOrEqual(36);
    const all5 = [...all4, ...heldout5.questions.map((q) => q.id)];
    expect(new Set(all5).size).toBe(all5.length);
    const usedPages5 = new Set(
      [...dev.questions, ...heldout.questions, ...heldout2.questions, ...heldout3.questions, ...heldout4.questions].map(
        (q) => `${q.document}#${q.page}`,
      ),
    );
    expect(heldout5.questions.filter((q) => usedPages5.has(`${q.document}#${q.page}`))).toEqual([]);
    expect(heldout5.questions.filter((q) => q.paraphrased).length * 2).toBeGreaterThanOrEqual(
      heldout5.questions.length,
    );
    expect(new Set(heldout5.questions.map((q) => q.document)).size).toBeGreaterThanOrEqual(10);
    // The round 9 reporting set: pages none of the six earlier sets (nor the smoke set) uses.
    const smoke = load('planning-smoke');
    const heldout6 = load('planning-heldout6');
    expect(heldout6.questions.length).toBeGreaterThanOrEqual(36);
    const all6 = [...all5, ...heldout6.questions.map((q) => q.id)];
    expect(new Set(all6).size).toBe(all6.length);
    const usedPages6 = new Set(
      [
        ...dev.questions,
        ...heldout.questions,
        ...heldout2.questions,
        ...heldout3.questions,
        ...heldout4.questions,
        ...heldout5.questions,
        ...smoke.questions,
      ].map((q) => `${q.document}#${q.page}`),
    );
    expect(heldout6.questions.filter((q) => usedPages6.has(`${q.document}#${q.page}`))).toEqual([]);
    expect(heldout6.questions.filter((q) => q.paraphrased).length * 2).toBeGreaterThanOrEqual(
      heldout6.questions.length,
    );
    expect(new Set(heldout6.questions.map((q) => q.document)).size).toBeGreaterThanOrEqual(10);
    // The round 10 reporting set: pages none of the seven earlier sets (nor the smoke set) uses, at least 10
    // documents and no more than 6 questions on any one.
    const heldout7 = load('planning-heldout7');
    expect(heldout7.questions.length).toBeGreaterThanOrEqual(36);
    const all7 = [...all6, ...heldout7.questions.map((q) => q.id)];
    expect(new Set(all7).size).toBe(all7.length);
    const usedPages7 = new Set([...usedPages6, ...heldout6.questions.map((q) => `${q.document}#${q.page}`)]);
    expect(heldout7.questions.filter((q) => usedPages7.has(`${q.document}#${q.page}`))).toEqual([]);
    expect(heldout7.questions.filter((q) => q.paraphrased).length * 2).toBeGreaterThanOrEqual(
      heldout7.questions.length,
    );
    const perDocument7 = new Map<string, number>();
    for (const q of heldout7.questions) perDocument7.set(q.document, (perDocument7.get(q.document) ?? 0) + 1);
    expect(perDocument7.size).toBeGreaterThanOrEqual(10);
    expect([...perDocument7].filter(([, n]) => n > 6)).toEqual([]);
    // The round 11 reporting set: pages none of the eight earlier sets (nor the smoke set) uses, no more than 8
    // questions on any one document (only five documents still have unused body pages).
    const heldout8 = load('planning-heldout8');
    expect(heldout8.questions.length).toBeGreaterThanOrEqual(30);
    const all8 = [...all7, ...heldout8.questions.map((q) => q.id)];
    expect(new Set(all8).size).toBe(all8.length);
    const usedPages8 = new Set([...usedPages7, ...heldout7.questions.map((q) => `${q.document}#${q.page}`)]);
    expect(heldout8.questions.filter((q) => usedPages8.has(`${q.document}#${q.page}`))).toEqual([]);
    expect(heldout8.questions.filter((q) => q.paraphrased).length * 2).toBeGreaterThanOrEqual(
      heldout8.questions.length,
    );
    const perDocument8 = new Map<string, number>();
    for (const q of heldout8.questions) perDocument8.set(q.document, (perDocument8.get(q.document) ?? 0) + 1);
    expect(perDocument8.size).toBeGreaterThanOrEqual(5);
    expect([...perDocument8].filter(([, n]) => n > 8)).toEqual([]);
    const devQuestions = new Set(dev.questions.map((q) => `${q.question}|${q.document}|${q.page}|${q.key_phrase}`));
    for (const q of smoke.questions)
      expect(devQuestions.has(`${q.question}|${q.document}|${q.page}|${q.key_phrase}`)).toBe(true);
  });

  it('the first manuals set covers the three documents, one question per page, off the smoke pages', () => {
    const set = PlanningSetSchema.parse(
      JSON.parse(readFileSync(join(import.meta.dirname, 'sets', 'manuals-heldout1.json'), 'utf8')),
    );
    expect(set.corpus).toBe('manuals');
    expect(set.questions.length).toBeGreaterThanOrEqual(32);
    expect(set.questions.filter((q) => q.paraphrased).length * 2).toBeGreaterThanOrEqual(set.questions.length);
    const ids = set.questions.map((q) => q.id);
    expect(new Set(ids).size).toBe(ids.length);
    const pages = set.questions.map((q) => `${q.document}#${q.page}`);
    expect(new Set(pages).size).toBe(pages.length);
    const perDocument = new Map<string, number>();
    for (const q of set.questions) perDocument.set(q.document, (perDocument.get(q.document) ?? 0) + 1);
    expect([...perDocument.keys()].sort()).toEqual([
      'long-manuals/R-intro.pdf',
      'long-manuals/gnuplot.pdf',
      'multicolumn-papers/tracemonkey.pdf',
    ]);
    expect(perDocument.get('long-manuals/R-intro.pdf')).toBeGreaterThanOrEqual(10);
    expect(perDocument.get('long-manuals/gnuplot.pdf')).toBeGreaterThanOrEqual(10);
    expect(perDocument.get('multicolumn-papers/tracemonkey.pdf')).toBeGreaterThanOrEqual(4);
    // R-intro pages 8-9 and gnuplot pages 30-31 are the manuals smoke set's.
    const reserved = new Set([
      'long-manuals/R-intro.pdf#8',
      'long-manuals/R-intro.pdf#9',
      'long-manuals/gnuplot.pdf#30',
      'long-manuals/gnuplot.pdf#31',
    ]);
    expect(pages.filter((p) => reserved.has(p))).toEqual([]);
    // Every key phrase keeps something to match after normalisation, and no two questions share one.
    const phrases = set.questions.map((q) => normalise(q.key_phrase));
    expect(phrases.filter((p) => p.length < 8)).toEqual([]);
    expect(new Set(phrases).size).toBe(phrases.length);
  });
});
