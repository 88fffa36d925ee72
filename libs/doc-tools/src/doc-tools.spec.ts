// SPDX-License-Identifier: AGPL-3.0-or-later
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocReadInput, DocSearchInput, JsonValidateAndNormalizeInput } from '@lectern/contracts';
import { appErrorCode, silentLogger } from '@lectern/testing';
import { indexMarkdown } from './build-index.js';
import { createDocTools, type DocTools } from './doc-tools.js';
import type { MarkdownSource } from './markdown-source.js';

const DATASHEET = [
  'MOD 8~15KTL3-X2(Pro) three-phase hybrid solar inverter for homes and small businesses.',
  '',
  '# Datasheet',
  '',
  'The MOD series pairs a high-voltage battery with rooftop PV and keeps critical loads running during grid outages.',
  '',
  '## PV DC Input',
  '',
  'Max. DC voltage: 1100V. Start voltage: 160V. The number of MPP trackers is 2 with 1 string per tracker.',
  '',
  '| Model | Max. recommended PV power | Max. DC voltage |',
  '|---|---|---|',
  '| MOD 8KTL3-X2(Pro) | 12000W | 1100V |',
  '| MOD 10KTL3-X2(Pro) | 15000W | 1100V |',
  '',
  '## AC Output',
  '',
  'Rated AC output power 8000W to 15000W; grid type 3W/N/PE; THD below 3% at rated power for all models.',
  '',
  '| Model | Rated AC power |',
  '|---|---|',
  '| MOD 8KTL3-X2(Pro) | 8000W |',
  '',
  '## Environment',
  '',
  'Protection degree IP66. Operating temperature range -30~60°C with derating above 45°C, altitude up to 4000m.',
].join('\n');

const noConversion: MarkdownSource = {
  toMarkdown: () => Promise.reject(new Error('these tests index Markdown directly')),
};

describe('doc tools (spec 003 section 11 unit tests)', () => {
  let dir: string;
  let tools: DocTools;
  let indexId: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'doc-tools-'));
    tools = createDocTools({
      cacheDir: join(dir, 'cache'),
      roots: [dir],
      maxDocumentBytes: 1e6,
      markdown: noConversion,
      defaultMode: 'tfidf',
      indexTimeoutMs: 60_000,
      log: silentLogger(),
    });
    indexId = createHash('sha256').update(DATASHEET).digest('hex');
    await indexMarkdown(join(dir, 'cache'), DATASHEET, {
      indexId,
      fingerprint: indexId,
      docType: 'md',
      pageCount: null,
      notes: [],
      filename: 'mod.md',
      cacheKey: null,
    });
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const search = (query: string, extra: Record<string, unknown> = {}) =>
    tools.search(DocSearchInput.parse({ index_id: indexId, query, ...extra }));
  const read = (locator: string, extra: Record<string, unknown> = {}) =>
    tools.read(DocReadInput.parse({ index_id: indexId, locator, ...extra }));

  it('writes index.json, chunks.json and idf.json under cache/{index_id}/ (IDF = log(N / df))', async () => {
    const idf = JSON.parse(await readFile(join(dir, 'cache', indexId, 'idf.json'), 'utf8')) as Record<string, number>;
    const chunks = JSON.parse(await readFile(join(dir, 'cache', indexId, 'chunks.json'), 'utf8')) as {
      locator: string;
    }[];
    expect(chunks.map((c) => c.locator)).toEqual(['h0-c1', 'h1-c1', 'h2-c1', 'h2-t1', 'h3-c1', 'h3-t1', 'h4-c1']);
    // "ip66" is in one chunk of seven
    expect(idf['ip66']).toBeCloseTo(Math.log(7 / 1), 10);
    const meta = JSON.parse(await readFile(join(dir, 'cache', indexId, 'index.json'), 'utf8')) as {
      chunk_count: number;
    };
    expect(meta.chunk_count).toBe(7);
  });

  it.each(['tfidf', 'bm25'] as const)(
    'extraction-api:§11 test_search_ranking (%s): the top hit for "DC voltage" contains "DC voltage"',
    async (mode) => {
      const hits = (await search('DC voltage', { mode })).result;
      expect(hits.length).toBeGreaterThan(0);
      expect(hits[0]?.snippet).toMatch(/DC voltage/i);
      expect(['h2-c1', 'h2-t1']).toContain(hits[0]?.locator);
      const scores = hits.map((h) => h.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      expect((await search('protection degree', { mode })).result[0]?.locator).toBe('h4-c1');
    },
  );

  it('returns at most top_k hits, each with a snippet of at most 200 characters around the match', async () => {
    const hits = (await search('MOD model power', { top_k: 2 })).result;
    expect(hits).toHaveLength(2);
    const long = (await search('altitude')).result[0];
    expect(long?.snippet.length).toBeLessThanOrEqual(200);
    expect(long?.snippet).toContain('altitude');
    expect(await search('nonexistentword')).toEqual({ result: [] });
  });

  it('extraction-api:§11 test_search_scope_filter: scope "tables" returns only table chunks, "text" only text', async () => {
    const tables = (await search('MOD DC voltage power', { scope: 'tables', top_k: 10 })).result;
    expect(tables.length).toBeGreaterThan(0);
    expect(tables.every((h) => h.kind === 'table' && /-t\d+$/.test(h.locator))).toBe(true);
    const text = (await search('MOD DC voltage power', { scope: 'text', top_k: 10 })).result;
    expect(text.length).toBeGreaterThan(0);
    expect(text.every((h) => h.kind === 'text')).toBe(true);
  });

  it('extraction-api:§11 test_read_locator: reads the exact chunk content with its heading ancestry', async () => {
    const chunk = await read('h2-t1');
    expect(chunk).toMatchObject({ locator: 'h2-t1', kind: 'table', truncated: false });
    expect(chunk.content).toBe(DATASHEET.split('\n').slice(10, 14).join('\n'));
    expect(chunk.meta).toMatchObject({
      heading_path: 'Datasheet > PV DC Input',
      original_heading: 'PV DC Input',
      chunk_index: 1,
    });
    const section = await read('h2');
    expect(section.kind).toBe('section');
    expect(section.content.startsWith('## PV DC Input\n\nMax. DC voltage: 1100V.')).toBe(true);
    expect(section.content).toContain('| MOD 10KTL3-X2(Pro) | 15000W | 1100V |');
    expect((await read('h0-c1')).meta.original_heading).toBeNull();
  });

  it('extraction-api:§11 test_read_max_chars: max_chars=100 truncates to 100 characters', async () => {
    const full = await read('h4-c1');
    const cut = await read('h4-c1', { max_chars: 100 });
    expect(cut.content).toHaveLength(100);
    expect(cut.content).toBe(full.content.slice(0, 100));
    expect(cut).toMatchObject({ truncated: true, total_chars: full.content.length });
  });

  it('answers index_not_found and locator_not_found', async () => {
    expect(await appErrorCode(tools.read(DocReadInput.parse({ index_id: 'f'.repeat(64), locator: 'h1' })))).toBe(
      'index_not_found',
    );
    expect(await appErrorCode(read('h2-c9'))).toBe('locator_not_found');
    expect(await appErrorCode(read('h99'))).toBe('locator_not_found');
  });

  it('replaces an index of an older version, and survives two builds of one index at once', async () => {
    const cache = join(dir, 'cache');
    const id = 'c'.repeat(64);
    const facts = {
      indexId: id,
      fingerprint: id,
      docType: 'md' as const,
      pageCount: null,
      notes: [],
      filename: 'x.md',
      cacheKey: null,
    };
    await indexMarkdown(cache, '# Old\n\nold text that is long enough to be a chunk of its own here.', facts);
    const file = join(cache, id, 'index.json');
    const meta = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    await writeFile(file, JSON.stringify({ ...meta, version: 0 }));
    await Promise.all([indexMarkdown(cache, DATASHEET, facts), indexMarkdown(cache, DATASHEET, facts)]);
    const read = await tools.read(DocReadInput.parse({ index_id: id, locator: 'h2-t1' }));
    expect(read.content).toContain('| MOD 8KTL3-X2(Pro) | 12000W | 1100V |');
    expect((await readdir(cache)).filter((n) => n.startsWith('.building-'))).toEqual([]);
  });

  it('answers hybrid search without an embedder with a clear error', async () => {
    expect(await appErrorCode(search('DC voltage', { mode: 'hybrid' }))).toBe('invalid_arguments');
  });
});

describe('json_validate_and_normalize (spec 003 tool D)', () => {
  const tools = createDocTools({
    cacheDir: tmpdir(),
    roots: [],
    maxDocumentBytes: 1,
    markdown: noConversion,
    defaultMode: 'tfidf',
    indexTimeoutMs: 1,
    log: silentLogger(),
  });
  const validate = (data: unknown, schema: unknown) =>
    tools.validateAndNormalize(JsonValidateAndNormalizeInput.parse({ data, schema }));

  const schema = {
    product_identity: { series_name: '', models: [''] },
    pv_dc_input: { max_dc_voltage: '', number_of_mppts: 0, max_recommended_pv_power_per_model: {} },
    efficiency: { max_efficiency: '' },
    thd: '',
  };

  it('extraction-api:§11 test_validate_missing_keys: missing keys become null and are named in warnings', () => {
    const out = validate(
      { product_identity: { series_name: 'MOD 8~15KTL3-X2(Pro)' }, pv_dc_input: { max_dc_voltage: '1100V' } },
      schema,
    );
    expect(out.ok).toBe(true);
    expect(out.normalized).toEqual({
      product_identity: { series_name: 'MOD 8-15KTL3-X2(Pro)', models: null },
      pv_dc_input: { max_dc_voltage: '1100V', number_of_mppts: null, max_recommended_pv_power_per_model: null },
      efficiency: { max_efficiency: null },
      thd: null,
    });
    const warned = out.warnings.join('\n');
    for (const field of [
      'product_identity.models',
      'pv_dc_input.number_of_mppts',
      'pv_dc_input.max_recommended_pv_power_per_model',
      "'efficiency'",
      "'thd'",
    ]) {
      expect(warned).toContain(field);
    }
  });

  it('extraction-api:§11 test_validate_type_mismatch: a string where a dict is expected is an error', () => {
    const out = validate({ product_identity: 'MOD', pv_dc_input: { number_of_mppts: 'two' } }, schema);
    expect(out.ok).toBe(false);
    expect(out.errors).toEqual(
      expect.arrayContaining([
        expect.stringContaining("'product_identity' should be an object"),
        expect.stringContaining("'pv_dc_input.number_of_mppts' should be a number"),
      ]),
    );
    expect(out.normalized['product_identity']).toEqual({ series_name: null, models: null });
    expect(validate({ product_identity: { models: 'MOD 8K' } }, schema).errors).toEqual([
      expect.stringContaining("'product_identity.models' should be a list"),
    ]);
  });

  it('normalises whitespace and ranges, and number-unit spacing', () => {
    const out = validate(
      {
        pv_dc_input: { max_dc_voltage: '  1000~1500V ', number_of_mppts: '2' },
        efficiency: { max_efficiency: '98.2 %' },
        thd: 'below\n  3 %',
      },
      schema,
    );
    expect(out.normalized['pv_dc_input']).toMatchObject({ max_dc_voltage: '1000-1500V', number_of_mppts: 2 });
    expect(out.normalized['efficiency']).toEqual({ max_efficiency: '98.2%' });
    expect(out.normalized['thd']).toBe('below 3%');
    expect(validate({ thd: '-30 ~ 60 °C' }, { thd: '' }).normalized['thd']).toBe('-30-60°C');
    // an upper end with its own sign: "to", not a hyphen that reads as a minus ("-30-+70")
    expect(validate({ thd: '-30 ~ +70 °C' }, { thd: '' }).normalized['thd']).toBe('-30 to +70°C');
    expect(validate({ thd: '-40 – -10 °C' }, { thd: '' }).normalized['thd']).toBe('-40 to -10°C');
    expect(validate({ thd: '1100 V' }, { thd: '' }).normalized['thd']).toBe('1100V');
  });

  it('per-model dicts: a dict is normalised per model; a flat value is kept with a warning; a list is an error', () => {
    const dict = validate(
      { pv_dc_input: { max_recommended_pv_power_per_model: { ' MOD 8KTL3-X2(Pro) ': '12000 W', 'MOD 10KTL3': null } } },
      schema,
    );
    expect((dict.normalized['pv_dc_input'] as Record<string, unknown>)['max_recommended_pv_power_per_model']).toEqual({
      'MOD 8KTL3-X2(Pro)': '12000W',
      'MOD 10KTL3': null,
    });
    const flat = validate({ pv_dc_input: { max_recommended_pv_power_per_model: '12000W' } }, schema);
    expect(flat.ok).toBe(true);
    expect(flat.warnings).toEqual(
      expect.arrayContaining([
        expect.stringContaining("'pv_dc_input.max_recommended_pv_power_per_model' should be a dict keyed by model"),
      ]),
    );
    expect(validate({ pv_dc_input: { max_recommended_pv_power_per_model: ['12000W'] } }, schema).ok).toBe(false);
  });

  it('keeps keys the schema lacks, with a warning', () => {
    const out = validate({ thd: '3%', original_file: 'mod.pdf' }, { thd: '' });
    expect(out.normalized).toEqual({ thd: '3%', original_file: 'mod.pdf' });
    expect(out.warnings).toEqual([expect.stringContaining("'original_file' is not in the schema")]);
  });
});
