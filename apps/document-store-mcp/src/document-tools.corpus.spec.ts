// SPDX-License-Identifier: AGPL-3.0-or-later
import { copyFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { checkConsistency } from '@lectern/document-store';
import { corpusFile, sharedModelDir } from '@lectern/testing';
import { ProgressNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { startDocumentStore, type RunningDocumentStore } from './document-store.testkit.js';

const NPPF = corpusFile('uk-planning-policy', 'nppf-2024', 'NPPF_December_2024.pdf');
const COVENTRY = join(corpusFile('uk-planning-policy', 'dataset', 'Coventry'));
const ADOPTION = join(
  COVENTRY,
  '2. Supplementary Planning Documents (SPD)',
  'Adopted SPDs',
  'Energy SPD',
  'Energy_SPD_Adoption_Statement.pdf',
);
const CONTROL_PLAN = join(
  COVENTRY,
  '2. Supplementary Planning Documents (SPD)',
  'Historic Control Plans',
  'Stoke Green control plan',
  'Stoke_Green_control_plan.pdf',
);
const SCANNED = corpusFile('scanned-ocr', 'ocrmypdf-resources', 'skew.pdf');
const LINN_TXT = corpusFile('scanned-ocr', 'ocrmypdf-resources', 'linn.txt');

type Json = Record<string, unknown>;

describe('document-store-mcp tools (spec 000) through a real MCP client', () => {
  let ds: RunningDocumentStore;
  let nppfId: string;

  beforeAll(async () => {
    // A real pretrained model (potion-base-2M from ../shared/models), as a user who imported it gets: search
    // quality is asserted below, so the model must mean something.
    ds = await startDocumentStore({
      EMBEDDING_MODEL: 'potion-base-2M',
      EMBEDDING_MODEL_DIR: sharedModelDir('potion-base-2M'),
    });
  });
  afterAll(async () => {
    await ds.stop();
  });

  const chunkCount = async () => (await ds.deps.store.getCollection('application_docs'))?.pointsCount ?? 0;

  describe('tool ingest_document', () => {
    it('ingests the NPPF (82 pages) with chunk counts, method and progress notifications', async () => {
      const progress: number[] = [];
      ds.client.setNotificationHandler(ProgressNotificationSchema, async (n) => {
        progress.push(n.params.progress);
      });
      const result = await ds.client.callTool(
        {
          name: 'ingest_document',
          arguments: { file_path: NPPF, application_ref: '24/00001/NPPF', document_type: 'planning_statement' },
        },
        undefined,
        { onprogress: () => {}, timeout: 600_000 },
      );
      const body = result.structuredContent as Json;
      expect(body).toMatchObject({
        status: 'success',
        extraction_method: 'text_layer',
        contains_drawings: expect.any(Boolean),
      });
      expect(body['document_id']).toMatch(/^24_00001_NPPF_[0-9a-f]{6}$/);
      expect(body['chunks_created']).toBeGreaterThan(150);
      expect(body['total_words']).toBeGreaterThan(20_000);
      expect(progress.length).toBeGreaterThan(2);
      nppfId = body['document_id'] as string;
    }, 600_000);

    it('answers already_ingested for the same file and application, creating nothing', async () => {
      const before = await chunkCount();
      const { body } = await ds.call('ingest_document', { file_path: NPPF, application_ref: '24/00001/NPPF' });
      expect(body).toEqual({
        status: 'already_ingested',
        document_id: nppfId,
        message: 'Document has already been ingested with the same content',
      });
      expect(await chunkCount()).toBe(before);
    });

    it('makes one document of two simultaneous ingests of the same file', async () => {
      const args = { file_path: ADOPTION, application_ref: 'ENERGY/SPD' };
      const [a, b] = await Promise.all([ds.call('ingest_document', args), ds.call('ingest_document', args)]);
      const statuses = [(a.body as Json)['status'], (b.body as Json)['status']].sort();
      expect(statuses).toEqual(['already_ingested', 'success']);
      const { body } = await ds.call('list_ingested_documents', { application_ref: 'ENERGY/SPD' });
      expect((body as Json)['document_count']).toBe(1);
      const doc = ((body as Json)['documents'] as Json[])[0]!;
      expect(doc['document_type']).toBe('other');
    });

    it('OCRs a scanned document', async () => {
      const { body } = await ds.call('ingest_document', { file_path: SCANNED, application_ref: 'SCAN/1' });
      expect(body).toMatchObject({ status: 'success' });
      expect(['ocr', 'mixed']).toContain((body as Json)['extraction_method']);
      const text = await ds.call('get_document_text', { document_id: (body as Json)['document_id'] });
      expect(String((text.body as Json)['text']).length).toBeGreaterThan(200);
    }, 300_000);

    // Its pages are full-page images with the text set over them (average image ratio ~0.78): a text layer of prose
    // makes a page a text page, so the plan is ingested, not skipped as image_based (issue 25). The skip itself is
    // covered in plain tier (scanned-pdf-policy.spec.ts, convert: image-based.spec.ts).
    it('ingests a control plan printed over page-size images from its text layer', async () => {
      const { body } = await ds.call('ingest_document', { file_path: CONTROL_PLAN, application_ref: 'PLAN/1' });
      expect(body).toMatchObject({ status: 'success', extraction_method: 'text_layer' });
      const found = await ds.call('search_application_docs', {
        query: 'year the Stoke Green conservation area was declared',
        application_ref: 'PLAN/1',
      });
      const texts = ((found.body as Json)['results'] as Json[]).map((r) => String(r['text']));
      expect(texts.some((t) => /declared in 1968/.test(t.replace(/\s+/g, ' ')))).toBe(true);
    });
  });

  describe('tool search_application_docs', () => {
    it('finds the chunk stating a fact, with metadata and pages where it is printed', async () => {
      const { body, isError } = await ds.call('search_application_docs', {
        query: 'presumption in favour of sustainable development',
        application_ref: '24/00001/NPPF',
        max_results: 5,
      });
      expect(isError).toBe(false);
      const results = (body as Json)['results'] as Array<{ text: string; relevance_score: number; metadata: Json }>;
      expect(results.length).toBe(5);
      expect(results.some((r) => /presumption in favour of sustainable development/i.test(r.text))).toBe(true);
      for (const r of results) {
        expect(r.metadata['application_ref']).toBe('24/00001/NPPF');
        expect(r.metadata['document_id']).toBe(nppfId);
        expect(r.metadata['source_file']).toBe('NPPF_December_2024.pdf');
        expect(String(r.metadata['page_numbers'])).toMatch(/^\d+(,\d+)*$/);
        expect(r.relevance_score).toBeGreaterThanOrEqual(0);
        expect(r.relevance_score).toBeLessThanOrEqual(1);
      }
    });

    it('applies application_ref and document_types filters exactly', async () => {
      const other = await ds.call('search_application_docs', {
        query: 'energy',
        application_ref: 'ENERGY/SPD',
        max_results: 20,
      });
      const results = (other.body as Json)['results'] as Array<{ metadata: Json }>;
      expect(results.length).toBeGreaterThan(0);
      expect(results.every((r) => r.metadata['application_ref'] === 'ENERGY/SPD')).toBe(true);
      const typed = await ds.call('search_application_docs', {
        query: 'housing',
        document_types: ['planning_statement'],
        max_results: 20,
      });
      const typedResults = (typed.body as Json)['results'] as Array<{ metadata: Json }>;
      expect(typedResults.length).toBeGreaterThan(0);
      expect(typedResults.every((r) => r.metadata['document_type'] === 'planning_statement')).toBe(true);
      const none = await ds.call('search_application_docs', {
        query: 'housing',
        application_ref: 'ENERGY/SPD',
        document_types: ['planning_statement'],
      });
      expect((none.body as Json)['results_count']).toBe(0);
    });

    it('semantic search (dense only) ranks the historic-environment policy first for a heritage question, by cosine', async () => {
      const { body } = await ds.call('search_application_docs', {
        query: 'heritage assets conservation of historic buildings',
        application_ref: '24/00001/NPPF',
        search_mode: 'semantic',
        max_results: 5,
      });
      const results = (body as Json)['results'] as Array<{ text: string; relevance_score: number }>;
      expect(results[0]?.text).toMatch(/heritage asset/i);
      expect(results.filter((r) => /heritage|historic/i.test(r.text)).length).toBeGreaterThanOrEqual(3);
      // Dense ranking: relevance_score (the cosine) never increases down the list.
      const scores = results.map((r) => r.relevance_score);
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    });

    it.each(['semantic', 'keyword'])('supports search_mode %s', async (mode) => {
      const { body } = await ds.call('search_application_docs', {
        query: 'Green Belt boundaries',
        search_mode: mode,
        max_results: 3,
      });
      expect((body as Json)['results_count']).toBe(3);
    });
  });

  describe('tools get_document_text and list_ingested_documents', () => {
    it('reassembles a document once, in order, without the chunk overlaps', async () => {
      const { body } = await ds.call('get_document_text', { document_id: nppfId });
      const doc = body as Json;
      expect(doc).toMatchObject({
        status: 'success',
        document_id: nppfId,
        file_path: NPPF,
        document_type: 'planning_statement',
      });
      const text = String(doc['text']);
      const first = text.indexOf('The presumption in favour of sustainable development');
      expect(first).toBeGreaterThan(0);
      // An overlap left in would repeat this paragraph's opening right after it.
      const para = text.slice(first, first + 120);
      expect(text.split(para).length - 1).toBeLessThanOrEqual(2);
    });

    it('lists the documents of an application in the spec shape', async () => {
      const { body } = await ds.call('list_ingested_documents', { application_ref: '24/00001/NPPF' });
      expect(body).toEqual({
        status: 'success',
        application_ref: '24/00001/NPPF',
        document_count: 1,
        documents: [
          {
            document_id: nppfId,
            file_path: NPPF,
            document_type: 'planning_statement',
            chunk_count: expect.any(Number),
            ingested_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
            extraction_method: 'text_layer',
            contains_drawings: expect.any(Boolean),
          },
        ],
      });
      const empty = await ds.call('list_ingested_documents', { application_ref: 'NOTHING/HERE' });
      expect(empty.body).toEqual({
        status: 'success',
        application_ref: 'NOTHING/HERE',
        document_count: 0,
        documents: [],
      });
    });

    it('answers unknown ids with the spec errors', async () => {
      const { body, isError } = await ds.call('get_document_text', { document_id: 'XX_000000' });
      expect(isError).toBe(true);
      expect(body).toEqual({
        status: 'error',
        error_type: 'document_not_found',
        message: 'Document not found: XX_000000',
      });
      const del = await ds.call('delete_document', { document_id: 'XX_000000' });
      expect(del.body).toMatchObject({ status: 'error', error_type: 'document_not_found' });
    });
  });

  describe('bad input', () => {
    it.each([
      [
        'a missing file',
        () => ({ file_path: join(ds.dataDir, 'missing.pdf'), application_ref: 'B/1' }),
        'file_not_found',
      ],
      ['a directory', () => ({ file_path: ds.dataDir, application_ref: 'B/1' }), 'file_not_found'],
      ['an unsupported type', () => ({ file_path: LINN_TXT, application_ref: 'B/1' }), 'unsupported_file_type'],
      ['a path outside the roots', () => ({ file_path: '/etc/hostname', application_ref: 'B/1' }), 'forbidden_path'],
      [
        'a traversal',
        () => ({ file_path: `${ds.dataDir}/../../etc/hostname`, application_ref: 'B/1' }),
        'forbidden_path',
      ],
      [
        'a symlink escape',
        () => ({ file_path: join(ds.dataDir, 'escape.pdf'), application_ref: 'B/1' }),
        'forbidden_path',
      ],
      ['an empty reference', () => ({ file_path: NPPF, application_ref: '' }), 'invalid_arguments'],
    ])('refuses %s with the spec error and changes nothing', async (_name, args, errorType) => {
      symlinkIfMissing('/etc/hostname', join(ds.dataDir, 'escape.pdf'));
      const before = await chunkCount();
      const { body, isError } = await ds.call('ingest_document', args());
      expect(isError).toBe(true);
      expect(body).toMatchObject({ status: 'error', error_type: errorType, message: expect.any(String) });
      expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+/);
      expect(await chunkCount()).toBe(before);
    });

    it.each([
      [{ query: '   ' }],
      [{ query: 'x', max_results: -1 }],
      [{ query: 'x', max_results: 100_000 }],
      [{ query: 'x', document_types: 'planning_statement' }],
      [{}],
    ])('refuses search arguments %j with invalid_arguments', async (args) => {
      const { body, isError } = await ds.call('search_application_docs', args);
      expect(isError).toBe(true);
      expect(body).toMatchObject({ status: 'error', error_type: 'invalid_arguments' });
    });

    it('still serves after all that', async () => {
      expect((await fetch(`${ds.baseUrl}/health`)).status).toBe(200);
      const { body } = await ds.call('list_ingested_documents', { application_ref: '24/00001/NPPF' });
      expect((body as Json)['document_count']).toBe(1);
    });
  });

  describe('consistency and delete_document', () => {
    it('has zero orphans after ingest and re-ingest, and after a delete', async () => {
      expect(await checkConsistency(ds.deps, {})).toMatchObject({ orphan_chunks: 0, count_mismatches: [] });
      const copy = join(ds.dataDir, 'copy-of-adoption.pdf');
      copyFileSync(ADOPTION, copy);
      const ingested = await ds.call('ingest_document', { file_path: copy, application_ref: 'DEL/1' });
      const id = (ingested.body as Json)['document_id'] as string;
      const chunks = (ingested.body as Json)['chunks_created'];
      const before = await chunkCount();
      const deleted = await ds.call('delete_document', { document_id: id });
      expect(deleted.body).toEqual({
        status: 'success',
        document_id: id,
        chunks_deleted: chunks,
        registry_entries_deleted: 1,
      });
      expect(await chunkCount()).toBe(before - (chunks as number));
      expect(await checkConsistency(ds.deps, {})).toMatchObject({ orphan_chunks: 0, count_mismatches: [] });
      const again = await ds.call('get_document_text', { document_id: id });
      expect(again.body).toMatchObject({ error_type: 'document_not_found' });
    });
  });
});

const symlinkIfMissing = (target: string, link: string) => {
  try {
    symlinkSync(target, link);
  } catch {
    /* exists */
  }
};
