// SPDX-License-Identifier: AGPL-3.0-or-later
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMBEDDED_DB_FILE, EmbeddedVectorStore } from './embedded.adapter.js';
import { COMMON_TERM_MIN_CHUNKS } from './embedded-search.js';
import { FIELD_WEIGHTS, HEADER_CREDIT, PHRASE_CREDIT, SHORT_CHUNK_DAMPING } from '../lexical.js';

const FP = { model_id: 'test/unit-4', revision: '1', dimension: 4, normalized: true };
const vec = (i: number): number[] => [1, i / 10, 0, 0];

/** The schema files were written with before the lexical fields (text-only FTS5 index), as it stood. */
const OLD_SCHEMA = `
CREATE TABLE vs_collections (cid INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE, fingerprint TEXT NOT NULL,
  hybrid INTEGER NOT NULL, version INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL);
INSERT INTO vs_collections(cid, name, fingerprint, hybrid, version, created_at)
  VALUES (1, 'lectern_old', '${JSON.stringify(FP)}', 1, 1, '2026-01-01T00:00:00Z');
CREATE TABLE vs_points_1 (rid INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, payload BLOB NOT NULL);
CREATE TABLE vs_chunks_1 (rid INTEGER PRIMARY KEY, text TEXT NOT NULL);
CREATE TABLE vs_vectors_1 (rid INTEGER PRIMARY KEY, ver INTEGER NOT NULL, vector BLOB NOT NULL);
CREATE INDEX vs_vectors_1_ver ON vs_vectors_1(ver);
CREATE TABLE vs_deleted_1 (rid INTEGER NOT NULL, ver INTEGER NOT NULL);
CREATE INDEX vs_deleted_1_ver ON vs_deleted_1(ver);
CREATE TRIGGER vs_points_1_ad AFTER DELETE ON vs_points_1 BEGIN
  DELETE FROM vs_chunks_1 WHERE rid = old.rid;
  DELETE FROM vs_vectors_1 WHERE rid = old.rid;
END;
CREATE VIRTUAL TABLE vs_fts_1 USING fts5(text, content='vs_chunks_1', content_rowid='rid', tokenize='porter unicode61 remove_diacritics 2');
CREATE TRIGGER vs_fts_1_ai AFTER INSERT ON vs_chunks_1 BEGIN
  INSERT INTO vs_fts_1(rowid, text) VALUES (new.rid, new.text);
END;
CREATE TRIGGER vs_fts_1_ad AFTER DELETE ON vs_chunks_1 BEGIN
  INSERT INTO vs_fts_1(vs_fts_1, rowid, text) VALUES ('delete', old.rid, old.text);
END;
CREATE TRIGGER vs_fts_1_au AFTER UPDATE OF text ON vs_chunks_1 BEGIN
  INSERT INTO vs_fts_1(vs_fts_1, rowid, text) VALUES ('delete', old.rid, old.text);
  INSERT INTO vs_fts_1(rowid, text) VALUES (new.rid, new.text);
END;`;

const DOCS = [
  { id: 'streets', text: 'Carriageway widths for residential roads.', payload: { source_title: 'Manual for Streets' } },
  { id: 'drive', text: 'Wiring the MR-J5-60G4 servo amplifier.', payload: { section_path: ['Installation'] } },
  { id: 'para', text: 'Para 11 sets out the presumption in favour.', payload: { section_heading: 'Achieving growth' } },
  { id: 'other', text: 'Streets and roads are mentioned here; para 3 and 11 buses.', payload: {} },
];

describe('VectorStore (embedded): lexical fields', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lectern-vs-lexical-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const keywordIds = async (store: EmbeddedVectorStore, name: string, q: string): Promise<string[]> =>
    (await store.searchKeyword(name, q, { limit: 10 })).map((h) => h.id);

  const expectLexicalRanking = async (store: EmbeddedVectorStore, name: string): Promise<void> => {
    // A title word: only in the title field of 'streets', in the text of 'other'.
    expect(await keywordIds(store, name, 'manual')).toEqual(['streets']);
    expect((await keywordIds(store, name, 'streets'))[0]).toBe('streets');
    // A section path word.
    expect(await keywordIds(store, name, 'installation')).toEqual(['drive']);
    // A code matches as one unit; a labelled number beats its parts scattered in another chunk.
    expect((await keywordIds(store, name, 'MR-J5-60G4 wiring'))[0]).toBe('drive');
    expect((await keywordIds(store, name, 'Para 11'))[0]).toBe('para');
    // Stemming: "widths" and "width".
    expect(await keywordIds(store, name, 'width')).toEqual(['streets']);
  };

  it('indexes title, section path and code tokens as weighted fields', async () => {
    const store = new EmbeddedVectorStore({ dataDir: dir });
    await store.ensureCollection('c', { fingerprint: FP, hybrid: true });
    await store.upsert(
      'c',
      DOCS.map((d, i) => ({ ...d, vector: vec(i) })),
      { fingerprint: FP },
    );
    await expectLexicalRanking(store, 'c');
    // A patched section path re-indexes the point.
    expect(await store.setPayload('c', { section_heading: 'Achieving growth' }, { section_heading: 'Viability' })).toBe(
      1,
    );
    expect(await keywordIds(store, 'c', 'viability')).toEqual(['para']);
    expect(await keywordIds(store, 'c', 'growth')).toEqual([]);
    await store.close();
  });

  it('adds document evidence to the keyword side of a hybrid search when asked (spec 004 query_hybrid, round 10)', async () => {
    const store = new EmbeddedVectorStore({ dataDir: dir });
    await store.ensureCollection('c', { fingerprint: FP, hybrid: true });
    // Enough other chunks that "bridge" (in three) keeps a positive IDF.
    const filler = Array.from({ length: 12 }, (_, i) => `Parking standards for offices, zone ${i}.`);
    await store.upsert(
      'c',
      [
        { id: 'x', text: 'River bridge, river bridge inspection.', payload: { document_id: 'X' } },
        { id: 'd1', text: 'River bridge inspection report.', payload: { document_id: 'D' } },
        { id: 'd2', text: 'Bridge maintenance programme.', payload: { document_id: 'D' } },
        ...filler.map((text, i) => ({ id: `f${i}`, text, payload: { document_id: `F${i}` } })),
      ].map((p, i) => ({ ...p, vector: vec(i) })),
      { fingerprint: FP },
    );
    const search = (documentEvidence?: number) =>
      store.searchHybrid(
        'c',
        { vector: vec(0), text: 'river bridge' },
        {
          fingerprint: FP,
          limit: 3,
          denseWeight: 0,
          keywordWeight: 1,
          ...(documentEvidence !== undefined ? { documentEvidence } : {}),
        },
      );
    // Off (the store default): the chunk that repeats the words leads.
    expect((await search()).map((h) => h.id)).toEqual(['x', 'd1', 'd2']);
    // On: d1 gains its document's other match (d2, and d2 gains d1); x's document has no other.
    const on = await search(1);
    expect(on[0]?.id).toBe('d1');
    expect(on.map((h) => h.id).sort()).toEqual(['d1', 'd2', 'x']);
    expect(on.map((h) => h.score)).toEqual([...on.map((h) => h.score)].sort((a, b) => b - a));
    await expect(search(-1)).rejects.toThrow(/document evidence/);
    await store.close();
  });

  it('rebuilds the full-text index of a file written with the old text-only schema on open', async () => {
    const db = new Database(join(dir, EMBEDDED_DB_FILE));
    db.exec(OLD_SCHEMA);
    const ins = db.prepare('INSERT INTO vs_points_1(id, payload) VALUES (?, jsonb(?)) RETURNING rid');
    DOCS.forEach((d, i) => {
      const { rid } = ins.get(d.id, JSON.stringify(d.payload)) as { rid: number };
      db.prepare('INSERT INTO vs_chunks_1(rid, text) VALUES (?, ?)').run(rid, d.text);
      const v = new Float32Array(vec(i));
      const n = Math.hypot(...v);
      db.prepare('INSERT INTO vs_vectors_1(rid, ver, vector) VALUES (?, 1, ?)').run(
        rid,
        Buffer.from(v.map((x) => x / n).buffer),
      );
    });
    // The old index answers on the text only.
    const old = db.prepare(`SELECT rowid FROM vs_fts_1 WHERE vs_fts_1 MATCH '"manual"'`).all();
    expect(old).toEqual([]);
    db.close();

    const store = new EmbeddedVectorStore({ dataDir: dir });
    expect((await store.getCollection('old'))?.pointsCount).toBe(4);
    await expectLexicalRanking(store, 'old');
    // Writes after the upgrade keep the index in step (insert, update, delete).
    await store.upsert(
      'old',
      [{ id: 'new', text: 'A new chunk.', payload: { title: 'Design Code' }, vector: vec(9) }],
      {
        fingerprint: FP,
      },
    );
    expect(await keywordIds(store, 'old', 'design code')).toEqual(['new']);
    await store.deleteByIds('old', ['drive']);
    expect(await keywordIds(store, 'old', 'installation')).toEqual([]);
    const hybrid = await store.searchHybrid('old', { vector: vec(0), text: 'manual' }, { fingerprint: FP, limit: 2 });
    expect(hybrid[0]?.id).toBe('streets');
    await store.close();
    // A second open finds nothing to upgrade and keeps the index.
    const again = new EmbeddedVectorStore({ dataDir: dir });
    expect(await keywordIds(again, 'old', 'manual')).toEqual(['streets']);
    await again.close();
  });

  it('leaves a word found in most chunks out of a long query, keeping the rarer words and their ranking', async () => {
    const store = new EmbeddedVectorStore({ dataDir: dir });
    await store.ensureCollection('c', { fingerprint: FP, hybrid: true });
    // More filler chunks than COMMON_TERM_MIN_CHUNKS: below that a common word costs little and is kept.
    const filler = Array.from({ length: COMMON_TERM_MIN_CHUNKS + 40 }, (_, i) => ({
      id: `f${i}`,
      text: `The patients in cohort ${i} were observed.`,
      payload: {},
      vector: vec(i % 9),
    }));
    await store.upsert(
      'c',
      [
        ...filler,
        { id: 'a', text: 'Patients given aspirin showed lower thrombosis risk.', payload: {}, vector: vec(1) },
        { id: 'b', text: 'Aspirin dosage and bleeding.', payload: {}, vector: vec(2) },
      ],
      { fingerprint: FP },
    );
    // 'patients' is in all chunks but b: with four rarer words it is not matched (no filler chunk comes back).
    const long = await keywordIds(store, 'c', 'patients aspirin thrombosis risk bleeding');
    expect(long.sort()).toEqual(['a', 'b']);
    // Short queries keep every word.
    expect((await keywordIds(store, 'c', 'patients aspirin')).filter((id) => id.startsWith('f'))).toHaveLength(8);
    // After more writes (a new collection version), the frequencies are read again: 'aspirin' now common.
    await store.upsert(
      'c',
      filler.map((f) => ({ ...f, text: `${f.text} aspirin` })),
      { fingerprint: FP },
    );
    const after = await keywordIds(store, 'c', 'patients aspirin thrombosis risk bleeding lower');
    expect(after.sort()).toEqual(['a', 'b']);
    await store.close();
  });

  it('keeps a common word in a small collection, where it costs little: its evidence still ranks', async () => {
    const store = new EmbeddedVectorStore({ dataDir: dir });
    await store.ensureCollection('small', { fingerprint: FP, hybrid: true });
    const filler = Array.from({ length: 40 }, (_, i) => ({
      id: `f${i}`,
      text: i < 5 ? `Air quality in ward ${i} was monitored.` : `Ward ${i} was visited.`,
      payload: {},
      vector: vec(i % 9),
    }));
    await store.upsert(
      'small',
      [
        ...filler,
        { id: 'a', text: 'Whole city Air Quality Management Area.', payload: {}, vector: vec(1) },
        { id: 'b', text: 'Whole city management area.', payload: {}, vector: vec(2) },
      ],
      { fingerprint: FP },
    );
    // 'air' and 'quality' are in 6 of 42 chunks (> 5%), but the collection is small: they still count, so the
    // chunk holding them beside the four rarer words comes before the shorter one holding only those four.
    expect((await keywordIds(store, 'small', 'whole city air quality management area'))[0]).toBe('a');
    await store.close();
  });

  it('ranks a chunk holding two query words side by side above one holding them apart (phrase credit)', async () => {
    const store = new EmbeddedVectorStore({ dataDir: dir });
    await store.ensureCollection('pairs', { fingerprint: FP, hybrid: true });
    await store.upsert(
      'pairs',
      [
        // Same words, same length: only the adjacency differs. 'apart' is first by id, so a tie would put it first.
        { id: 'apart', text: 'Open fields near the space station car park.', payload: {}, vector: vec(1) },
        { id: 'together', text: 'Fields near the station car park: open space.', payload: {}, vector: vec(2) },
        { id: 'x', text: 'Station car park charges.', payload: {}, vector: vec(3) },
      ],
      { fingerprint: FP },
    );
    expect((await keywordIds(store, 'pairs', 'open space'))[0]).toBe('together');
    // Words with a stopword or punctuation between them in the query are not a pair: no credit, the tie stays.
    expect((await keywordIds(store, 'pairs', 'open, space'))[0]).toBe('apart');
    await store.close();
  });

  it('weighs a pair below a word: a chunk with one more query word beats a chunk with only the pair', async () => {
    const store = new EmbeddedVectorStore({ dataDir: dir });
    await store.ensureCollection('weights', { fingerprint: FP, hybrid: true });
    const filler = Array.from({ length: 20 }, (_, i) => ({
      id: `f${i}`,
      text: `Ward ${i} has ${i % 2 ? 'open' : 'green'} land and ${i % 3 ? 'a play space' : 'trees'}.`,
      payload: {},
      vector: vec(i % 9),
    }));
    await store.upsert(
      'weights',
      [
        ...filler,
        { id: 'words', text: 'Allotments beside open fields and a space for play.', payload: {}, vector: vec(1) },
        { id: 'pair', text: 'Open space in the ward.', payload: {}, vector: vec(2) },
      ],
      { fingerprint: FP },
    );
    const q = 'open space allotments';
    expect((await keywordIds(store, 'weights', q))[0]).toBe('words');
    // Counted like a word (weight 1), the rare pair outweighs the rare word: what the weight is there to prevent.
    const weight = PHRASE_CREDIT.weight;
    Object.assign(PHRASE_CREDIT as { weight: number }, { weight: 1 });
    try {
      expect((await keywordIds(store, 'weights', q))[0]).toBe('pair');
    } finally {
      Object.assign(PHRASE_CREDIT as { weight: number }, { weight });
    }
    await store.close();
  });

  it("weighs a code's compound token below a word: the paragraph with the question's words beats a table holding only the year (codes weight)", async () => {
    const store = new EmbeddedVectorStore({ dataDir: dir });
    await store.ensureCollection('codes', { fingerprint: FP, hybrid: true });
    const filler = Array.from({ length: 20 }, (_, i) => ({
      id: `f${i}`,
      text: `Ward ${i} report: ${i % 2 ? 'employment land' : 'retail floorspace'} and ${i % 3 ? 'office space' : 'shops'}.`,
      payload: {},
      vector: vec(i % 9),
    }));
    await store.upsert(
      'codes',
      [
        ...filler,
        // The year range is in the table (its parts in the text field, "201718" in the codes field), not in the answer.
        {
          id: 'table',
          text: 'Table 6: housing supply in 2017/18, 1,395 gross and 1,285 net.',
          payload: {},
          vector: vec(1),
        },
        { id: 'answer', text: 'The council shows a housing land supply of 8.5 years.', payload: {}, vector: vec(2) },
      ],
      { fingerprint: FP },
    );
    const q = 'How many years of housing land supply did the 2017/18 report show?';
    expect((await keywordIds(store, 'codes', q))[0]).toBe('answer');
    // Weighed like a title word (1.5, the earlier default), the compound counts the year twice and the table leads.
    const codes = FIELD_WEIGHTS.codes;
    Object.assign(FIELD_WEIGHTS as Record<string, number>, { codes: 1.5 });
    try {
      expect((await keywordIds(store, 'codes', q))[0]).toBe('table');
    } finally {
      Object.assign(FIELD_WEIGHTS as Record<string, number>, { codes });
    }
    // The code still matches as one unit where the query names it alone.
    expect((await keywordIds(store, 'codes', '2017/18'))[0]).toBe('table');
    await store.close();
  });

  it("ranks the chunk of the document whose running header names the query's subject first (running-header credit)", async () => {
    const store = new EmbeddedVectorStore({ dataDir: dir });
    await store.ensureCollection('headers', { fingerprint: FP, hybrid: true });
    const header = 'Coventry Local Plan - Proposed Modifications, March 2017 Sustainability Appraisal';
    const text = 'Mitigation for waste: policies support re-use of materials.';
    await store.upsert(
      'headers',
      [
        // The same text in two documents; only the SA's running header says "sustainability appraisal".
        { id: 'other', text, payload: {}, vector: vec(1) },
        { id: 'sa', text, payload: { running_header: header }, vector: vec(2) },
        { id: 'sa-none', text: 'Housing trajectory', payload: { running_header: header }, vector: vec(3) },
        { id: 'x', text: 'Parking standards for offices.', payload: {}, vector: vec(4) },
      ],
      { fingerprint: FP },
    );
    const q = 'sustainability appraisal mitigation for waste';
    // Without the credit the two copies tie and the first written leads.
    const weight = HEADER_CREDIT.weight;
    Object.assign(HEADER_CREDIT as { weight: number }, { weight: 0 });
    try {
      expect(await keywordIds(store, 'headers', q)).toEqual(['other', 'sa']);
    } finally {
      Object.assign(HEADER_CREDIT as { weight: number }, { weight });
    }
    // With it the SA's copy leads; a chunk whose text matches nothing is not a candidate for its header alone.
    expect(await keywordIds(store, 'headers', q)).toEqual(['sa', 'other']);
    await store.close();
  });
  it("orders a document's chunks with its short leftovers damped, keeping the document's best score (short-chunk damping)", async () => {
    const store = new EmbeddedVectorStore({ dataDir: dir });
    await store.ensureCollection('lengths', { fingerprint: FP, hybrid: true });
    const filler = (w: string): string => `${w} ${'general planning matters for the city and its wards '.repeat(6)}`;
    await store.upsert(
      'lengths',
      [
        // Doc A: a 17-character leftover that holds both query words, and the paragraph that answers.
        { id: 'a-short', text: 'Date of adoption.', payload: { document_id: 'A', chunk_index: 0 }, vector: vec(1) },
        {
          id: 'a-answer',
          text:
            'The Council resolved to adopt the plan; the adoption took effect on the date below, 6th December 2017, ' +
            'after the inspector reported that the plan is sound subject to main modifications, which the Council ' +
            'accepted in full at its meeting with every ward member present and voting in favour of it.',
          payload: { document_id: 'A', chunk_index: 1 },
          vector: vec(2),
        },
        {
          id: 'b',
          text: filler('Adoption of another plan.'),
          payload: { document_id: 'B', chunk_index: 0 },
          vector: vec(3),
        },
        { id: 'x', text: filler('Parking.'), payload: { document_id: 'C', chunk_index: 0 }, vector: vec(4) },
      ],
      { fingerprint: FP },
    );
    const q = 'adoption date';
    const search = async () => (await store.searchKeyword('lengths', q, { limit: 10 })).map((h) => [h.id, h.score]);
    const exponent = SHORT_CHUNK_DAMPING.exponent;
    Object.assign(SHORT_CHUNK_DAMPING as { exponent: number }, { exponent: 0 });
    let plain: (string | number)[][];
    try {
      plain = await search();
    } finally {
      Object.assign(SHORT_CHUNK_DAMPING as { exponent: number }, { exponent });
    }
    // Without damping bm25()'s length normalisation puts the leftover first.
    expect(plain.map(([id]) => id)).toEqual(['a-short', 'a-answer', 'b']);
    const damped = await search();
    // With it the answer leads its document, with the document's best score; the other document keeps its own.
    expect(damped.map(([id]) => id)).toEqual(['a-answer', 'a-short', 'b']);
    expect(damped.map(([, score]) => score)).toEqual(plain.map(([, score]) => score));
    await store.close();
  });
});
