// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProject, CLIENT_CHUNKING } from '@lectern/document-store';
import { documentStoreDeps } from '@lectern/document-store';
import { createPlatform, type Platform } from '@lectern/platform';
import { TEST_MODEL_ID, makeTextPdf, silentLogger, testModelDir, testModelEnv } from '@lectern/testing';
import { lectern } from './lectern-binary.testkit.js';

const json = <T>(s: string): T => JSON.parse(s) as T;

interface Summary {
  documents: Array<{
    file: string;
    chunks: number;
    written: number;
    citekey: string | null;
    citation: { by?: string; unmatched?: string } | null;
  }>;
  errors: Array<{ file: string; error: string }>;
  totals: { documents: number; chunks: number; written: number; removed: number; errors: number };
  citations: { matched: number; unmatched: number };
}
interface Found {
  results: Array<{
    doc_id: string;
    text: string;
    citation_text: string;
    section_heading: string | null;
    section_path: string[];
    page_start: number;
    page_end: number;
    citation: { citekey?: string } | null;
  }>;
}

/** The document store's services over a test's data directory (for setting up what the binary then reads). */
const storeDeps = (platform: Platform, dataDir: string) =>
  documentStoreDeps(platform, {
    embedding: { model: TEST_MODEL_ID, modelDir: testModelDir() },
    roots: [dataDir],
    defaultProject: 'application_docs',
    enableOcr: false,
    imageRatioThreshold: 0.7,
    ingestTimeoutMs: 60_000,
    maxDocumentBytes: 1e8,
  });

interface ProjectShown {
  collection: string;
  points_count: number;
  previous_collections: string[];
  chunking: Record<string, unknown>;
}

const filler = (topic: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) => `${topic} observation ${i + 1} is recorded in the laboratory notebook with its conditions.`,
  );

describe('lectern project commands (spec 004) through the real binary', () => {
  let dataDir: string;
  let docs: string;
  let refs: string;
  let env: Record<string, string>;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'lectern-projects-'));
    docs = join(dataDir, 'library');
    mkdirSync(join(docs, 'sub'), { recursive: true });
    writeFileSync(
      join(docs, 'enzymes.pdf'),
      makeTextPdf([
        [
          '# Digestive enzymes at low pH',
          'doi: 10.1234/enz.2020.001',
          'Pepsin works best at a pH of about two, far more acidic than trypsin.',
        ],
        ['# Methods', ...filler('Kinetics', 8)],
        ['# Results', 'The Michaelis constant of pepsin fell as the temperature rose.', ...filler('Result', 6)],
      ]),
    );
    writeFileSync(
      join(docs, 'sub', 'cycling.pdf'),
      makeTextPdf([
        [
          '# Protected Cycle Lanes in Dense Cities',
          'Protected cycle lanes should be at least two metres wide where flows are high.',
        ],
        ['# Junctions', ...filler('Junction', 6)],
      ]),
    );
    writeFileSync(
      join(docs, 'sub', 'unrelated.pdf'),
      makeTextPdf([['# Minutes of the parish meeting', 'The parish council met on Tuesday and agreed the budget.']]),
    );
    writeFileSync(join(docs, 'notes.md'), '# Field notes\n\nThe heron returned to the pond in March.\n');
    writeFileSync(join(docs, 'broken.pdf'), 'this is not a PDF at all');
    refs = join(dataDir, 'references.json');
    writeFileSync(
      refs,
      JSON.stringify([
        {
          id: 'enzymes2020',
          type: 'article-journal',
          title: 'Something else entirely',
          DOI: 'https://doi.org/10.1234/ENZ.2020.001',
          author: [{ family: 'Smith', given: 'Ann' }],
          issued: { 'date-parts': [[2020]] },
          keyword: 'enzymes, biochemistry',
        },
        {
          id: 'x1',
          'citation-key': 'jones2019',
          type: 'article-journal',
          title: 'Protected cycle lanes in dense cities',
          author: [{ family: 'Jones', given: 'Bo' }],
          issued: { 'date-parts': [['2019']] },
        },
        { id: 'other', type: 'book', title: 'A history of canals' },
        { not: 'an item' },
      ]),
    );
    env = { ...testModelEnv(), DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('project create makes a project; creating it again exits 1', async () => {
    const created = await lectern(['project', 'create', 'papers', '--references', refs, '--json'], env);
    expect(created.code).toBe(0);
    expect(json(created.stdout)).toMatchObject({
      project: 'papers',
      collection: 'papers',
      hybrid: true,
      origin: 'explicit',
      chunking: { kind: 'heading', heading_context: true },
    });
    const shown = await lectern(['project', 'show', 'papers'], env);
    expect(shown.stdout).toMatch(/chunking: heading, max \d+ tokens, heading context on/);
    const again = await lectern(['project', 'create', 'papers'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/project_exists/);
    const bad = await lectern(['project', 'create', 'a__b'], env);
    expect(bad.code).toBe(1);
  }, 120_000);

  it('ingest walks the directory, enriches citations (DOI, fuzzy title), reports and skips a broken file', async () => {
    const { code, stdout, stderr } = await lectern(['ingest', docs, '--project', 'papers', '--json'], env);
    expect(code).toBe(0);
    const s = json<Summary>(stdout);
    expect(s.totals).toMatchObject({ documents: 4, errors: 1 });
    expect(s.errors[0]?.file).toBe('broken.pdf');
    const byFile = Object.fromEntries(s.documents.map((d) => [d.file, d]));
    expect(byFile['enzymes.pdf']).toMatchObject({ citekey: 'enzymes2020', citation: { by: 'doi' } });
    expect(byFile['sub/cycling.pdf']).toMatchObject({ citekey: 'jones2019', citation: { by: 'title' } });
    expect(byFile['sub/unrelated.pdf']?.citekey).toBeNull();
    expect(byFile['notes.md']?.chunks).toBeGreaterThan(0);
    expect(s.citations).toMatchObject({ matched: 2 });
    // The unmatched document is logged with what was tried and the closest candidates.
    expect(stderr).toMatch(/no citation metadata for sub\/unrelated\.pdf: tried .*Closest: /);
    expect(stderr).toMatch(/skipped broken\.pdf/);
  }, 300_000);

  it('search returns cited chunks with page spans and section paths, also unmatched documents; --hybrid too', async () => {
    const semantic = await lectern(
      ['search', 'how acidic is the optimum of pepsin', '--project', 'papers', '--json'],
      env,
    );
    expect(semantic.code).toBe(0);
    const found = json<Found>(semantic.stdout);
    const pepsin = found.results.find((r) => r.text.includes('Pepsin works best'));
    expect(pepsin).toMatchObject({
      citation_text: '(enzymes2020, p. 1)',
      section_heading: 'Digestive enzymes at low pH',
      page_start: 1,
      page_end: 1,
    });
    expect(pepsin?.citation).toMatchObject({ citekey: 'enzymes2020' });
    const parish = json<Found>(
      (await lectern(['search', 'parish council budget', '-p', 'papers', '--json'], env)).stdout,
    );
    expect(parish.results[0]?.text).toMatch(/parish council/);
    expect(parish.results[0]?.citation).toBeNull();
    const hybrid = await lectern(['search', 'Michaelis constant', '-p', 'papers', '--hybrid'], env);
    expect(hybrid.code).toBe(0);
    expect(hybrid.stdout).toMatch(/^\d\. \(enzymes2020, p\. 3\) Results .*\n {3}# Results The Michaelis constant/m);
  }, 120_000);

  it('inspect and validate report on the project; validate of an unknown project exits 1', async () => {
    const inspected = json<{
      points_count: number;
      documents_count: number;
      sample_payloads: Array<Record<string, unknown>>;
    }>((await lectern(['inspect', '-p', 'papers', '--sample', '3', '--json'], env)).stdout);
    expect(inspected.documents_count).toBe(4);
    expect(JSON.stringify(inspected.sample_payloads)).not.toContain(dataDir);
    // Chunks of a heading-context project were embedded with their section path; their source file is recorded (redacted here).
    expect(inspected.sample_payloads.every((p) => p['source_path'] === '[redacted]')).toBe(true);
    expect(inspected.sample_payloads.some((p) => p['heading_context'] === true)).toBe(true);
    const valid = await lectern(['validate', '-p', 'papers', '--json'], env);
    expect(valid.code).toBe(0);
    const report = json<{ ok: boolean; checks: Array<{ check: string; ok: boolean }> }>(valid.stdout);
    expect(report.checks.map((c) => c.check)).toEqual([
      'vector_store',
      'tokenizer',
      'collection',
      'model',
      'indexes',
      'references',
    ]);
    expect(report.ok).toBe(true);
    const unknown = await lectern(['validate', '-p', 'nope'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toMatch(/FAIL {2}collection: project nope does not exist/);
  }, 120_000);

  it('reindex --limit then --resume processes every document once and writes nothing unchanged (no duplicates)', async () => {
    const before = json<{ points_count: number }>(
      (await lectern(['inspect', '-p', 'papers', '--json'], env)).stdout,
    ).points_count;
    const first = json<Summary>(
      (await lectern(['reindex', docs, '-p', 'papers', '--limit', '2', '--json'], env)).stdout,
    );
    const rest = json<Summary>((await lectern(['reindex', docs, '-p', 'papers', '--resume', '--json'], env)).stdout);
    const files = [
      ...first.documents.map((d) => d.file),
      ...first.errors.map((e) => e.file),
      ...rest.documents.map((d) => d.file),
      ...rest.errors.map((e) => e.file),
    ];
    expect(files.sort()).toEqual(['broken.pdf', 'enzymes.pdf', 'notes.md', 'sub/cycling.pdf', 'sub/unrelated.pdf']);
    expect(first.totals.documents + first.totals.errors).toBe(2);
    expect(first.totals.written + rest.totals.written).toBe(0);
    const after = json<{ points_count: number }>(
      (await lectern(['inspect', '-p', 'papers', '--json'], env)).stdout,
    ).points_count;
    expect(after).toBe(before);
  }, 300_000);

  it('a write with another model is EMBEDDING_MISMATCH every time (exit 1), nothing written', async () => {
    const platform = createPlatform({ dataDir, log: silentLogger() });
    const deps = storeDeps(platform, dataDir);
    await createProject(deps, {
      project: 'minilm',
      chunking: CLIENT_CHUNKING,
      fingerprint: { model_id: 'all-MiniLM-L6-v2', revision: 'declared', dimension: 384, normalized: true },
    });
    await platform.close();
    for (const cmd of [
      ['ingest', docs],
      ['reindex', docs],
    ]) {
      const r = await lectern([...cmd, '-p', 'minilm'], env);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/EMBEDDING_MISMATCH: .*lectern rebuild --project minilm --migrate-to/);
    }
    const shown = json<{ points_count: number }>((await lectern(['project', 'show', 'minilm', '--json'], env)).stdout);
    expect(shown.points_count).toBe(0);
  }, 120_000);

  it('rebuild writes a new collection, verifies, switches and keeps the old one until --drop-old', async () => {
    const rebuilt = await lectern(['rebuild', '-p', 'papers', '--json'], env);
    expect(rebuilt.code).toBe(0);
    const s = json<{
      from: { collection: string; points: number };
      to: { collection: string; points: number };
      kept: string[];
    }>(rebuilt.stdout);
    expect(s.to).toMatchObject({ collection: 'papers__v2', points: s.from.points });
    expect(s.kept).toEqual(['papers']);
    const listed = json<{ projects: Array<{ project: string; collection: string }> }>(
      (await lectern(['project', 'list', '--json'], env)).stdout,
    );
    expect(listed.projects.find((p) => p.project === 'papers')?.collection).toBe('papers__v2');
    expect(listed.projects.map((p) => p.project)).toEqual(['minilm', 'papers']);
    const found = json<Found>((await lectern(['search', 'pepsin', '-p', 'papers', '--json'], env)).stdout);
    expect(found.results.length).toBeGreaterThan(0);
    const dropped = json<{ dropped: string[]; kept: string[] }>(
      (await lectern(['rebuild', '-p', 'papers', '--drop-old', '--json'], env)).stdout,
    );
    expect(dropped.dropped).toEqual(['papers']);
    expect(dropped.kept).toEqual([]);
  }, 300_000);

  it('rebuild --max-tokens re-chunks every document from its source file into a new collection, keeping the old one', async () => {
    const before = json<ProjectShown>((await lectern(['project', 'show', 'papers', '--json'], env)).stdout);
    expect(before.chunking).toMatchObject({ kind: 'heading', heading_context: true });
    const r = await lectern(['rebuild', '-p', 'papers', '--max-tokens', '24', '--no-heading-context', '--json'], env);
    expect(r.code).toBe(0);
    const s = json<{
      from: { collection: string; points: number };
      to: { collection: string; points: number };
      kept: string[];
      steps: string[];
    }>(r.stdout);
    expect(s.from).toMatchObject({ collection: before.collection, points: before.points_count });
    expect(s.to.points).toBeGreaterThan(before.points_count);
    expect(s.to.collection).not.toBe(before.collection);
    expect(s.kept).toEqual([before.collection]);
    expect(s.steps.join('\n')).toMatch(/re-chunked 4 documents/);
    const after = json<ProjectShown>((await lectern(['project', 'show', 'papers', '--json'], env)).stdout);
    expect(after).toMatchObject({
      collection: s.to.collection,
      points_count: s.to.points,
      previous_collections: [before.collection],
    });
    expect(after.chunking).toEqual({ kind: 'heading', max_tokens: 24, overlap_tokens: 0, heading_context: false });
    // The old collection is still there, whole, until --drop-old.
    const platform = createPlatform({ dataDir, log: silentLogger() });
    try {
      expect((await platform.vectorStore().getCollection(before.collection))?.pointsCount).toBe(before.points_count);
    } finally {
      await platform.close();
    }
    // Search reads the new collection: smaller chunks, still cited, with their sections.
    const found = json<Found>(
      (await lectern(['search', 'how acidic is the optimum of pepsin', '-p', 'papers', '--json'], env)).stdout,
    );
    const pepsin = found.results.find((x) => x.text.includes('Pepsin works best'));
    expect(pepsin).toMatchObject({
      citation_text: '(enzymes2020, p. 1)',
      section_heading: 'Digestive enzymes at low pH',
    });
    const audit = json<Array<{ kind: string; steps?: string[] }>>(
      (await lectern(['audit', '-p', 'papers', '--kind', 'rebuild', '--limit', '1', '--json'], env)).stdout,
    );
    expect(audit[0]?.steps?.join('\n')).toMatch(/chunking heading, max 24 tokens, heading context off/);
  }, 300_000);

  it('rebuild --policy refuses a project whose chunks have no recorded source file, changing nothing', async () => {
    const platform = createPlatform({ dataDir, log: silentLogger() });
    try {
      const deps = storeDeps(platform, dataDir);
      const fingerprint = (await deps.embedders.configured()).fingerprint;
      await createProject(deps, { project: 'legacy', chunking: CLIENT_CHUNKING, fingerprint });
      // A chunk as an ingest from before source files were recorded wrote it: no source_path.
      await platform.vectorStore().upsert(
        'legacy',
        [
          {
            id: 'c1',
            vector: new Float32Array(fingerprint.dimension).fill(0.1),
            text: 'An old chunk.',
            payload: { document_id: 'doc_old', source_file: 'old.pdf', origin: 'project_ingest' },
          },
        ],
        { fingerprint },
      );
    } finally {
      await platform.close();
    }
    const r = await lectern(['rebuild', '-p', 'legacy', '--max-tokens', '32'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /rebuild_needs_sources: .*1 document\(s\) of legacy have none recorded \(old\.pdf\).*lectern reindex/,
    );
    const shown = json<ProjectShown>((await lectern(['project', 'show', 'legacy', '--json'], env)).stdout);
    expect(shown).toMatchObject({
      collection: 'legacy',
      previous_collections: [],
      points_count: 1,
      chunking: { kind: 'client' },
    });
  }, 120_000);

  it('rebuild --policy of a document changed since ingest fails, drops its new collection, keeps the project as it was, audited', async () => {
    const before = json<ProjectShown>((await lectern(['project', 'show', 'papers', '--json'], env)).stdout);
    writeFileSync(join(docs, 'notes.md'), '# Field notes\n\nThe heron left the pond in April.\n');
    const r = await lectern(['rebuild', '-p', 'papers', '--overlap', '4'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/rebuild_failed: .*notes\.md changed since it was ingested.*reindex the project first/);
    const after = json<ProjectShown>((await lectern(['project', 'show', 'papers', '--json'], env)).stdout);
    expect(after).toEqual(before);
    const platform = createPlatform({ dataDir, log: silentLogger() });
    try {
      const names = (await platform.vectorStore().listCollections())
        .map((c) => c.name)
        .filter((n) => n.startsWith('papers'));
      expect(names.sort()).toEqual([...before.previous_collections, before.collection].sort());
    } finally {
      await platform.close();
    }
    const audit = json<Array<{ steps?: string[] }>>(
      (await lectern(['audit', '-p', 'papers', '--kind', 'rebuild', '--limit', '1', '--json'], env)).stdout,
    );
    expect(audit[0]?.steps?.join('\n')).toMatch(/re-chunking failed .*project not switched/);
  }, 300_000);

  it('audit lists the runs and the retrievals (replayable: query and returned chunk ids)', async () => {
    const { code, stdout } = await lectern(['audit', '-p', 'papers', '--limit', '100', '--json'], env);
    expect(code).toBe(0);
    const records =
      json<
        Array<{ kind: string; query?: string; returned_chunk_ids?: string[]; documents?: Array<{ chunks: number }> }>
      >(stdout);
    const kinds = new Set(records.map((r) => r.kind));
    expect([...kinds].sort()).toEqual(['ingest', 'rebuild', 'reindex', 'retrieval']);
    const retrieval = records.find((r) => r.query === 'parish council budget');
    expect(retrieval?.returned_chunk_ids?.length).toBeGreaterThan(0);
    const missing = await lectern(['audit', '-p', 'nope'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/INVALID_PROJECT/);
  }, 120_000);
});
