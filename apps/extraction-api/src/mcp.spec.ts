// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTextPdf } from '@lectern/testing';
import { startExtractionApi, type RunningExtractionApi } from './doc-tools.testkit.js';

const MARKDOWN = [
  '# MOD 8~15KTL3-X2(Pro)',
  '',
  'Three-phase hybrid solar inverter for homes and small businesses, with battery backup.',
  '',
  '## PV DC Input',
  '',
  'Max. DC voltage: 1100V. Start voltage: 160V. Number of MPP trackers: 2, one string per tracker.',
  '',
  '| Model | Max. recommended PV power |',
  '|---|---|',
  '| MOD 8KTL3-X2(Pro) | 12000W |',
  '| MOD 10KTL3-X2(Pro) | 15000W |',
  '',
  '## Environment',
  '',
  'Protection degree IP66. Operating temperature range -30~60°C, derating above 45°C.',
].join('\n');

interface IndexBody {
  index_id: string;
  doc_fingerprint: string;
  doc_type: string;
  page_count: number | null;
  chunk_count: number;
  toc: { locator: string; title: string }[];
  notes: string[];
}
type Hits = { locator: string; kind: string; snippet: string; score: number }[];

describe('extraction-api /mcp: the doc tools over a real MCP client (Streamable HTTP)', () => {
  let api: RunningExtractionApi;
  let mdPath: string;

  beforeAll(async () => {
    api = await startExtractionApi({ MCP_API_KEY: 'doc-token' });
    mdPath = join(api.dataDir, 'uploads', 'mod.md');
    await mkdir(join(api.dataDir, 'uploads'), { recursive: true });
    await writeFile(mdPath, MARKDOWN);
  });

  afterAll(async () => {
    await api.stop();
  });

  it('lists exactly the four spec 003 tools', async () => {
    const { tools } = await api.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'doc_index_build',
      'doc_search',
      'doc_read',
      'json_validate_and_normalize',
    ]);
  });

  it('refuses /mcp without the bearer token', async () => {
    const response = await fetch(`${api.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
  });

  it('indexes a Markdown file through the conversion job, caches it by fingerprint, and serves search and read', async () => {
    const built = await api.call('doc_index_build', { file_path: mdPath });
    expect(built.isError).toBe(false);
    const index = built.body as IndexBody;
    expect(index.index_id).toMatch(/^[0-9a-f]{64}$/);
    expect(index.doc_fingerprint).toBe(index.index_id);
    expect(index).toMatchObject({ doc_type: 'md', page_count: null });
    expect(index.toc.map((t) => [t.locator, t.title])).toEqual([
      ['h1', 'MOD 8~15KTL3-X2(Pro)'],
      ['h2', 'PV DC Input'],
      ['h3', 'Environment'],
    ]);
    expect(index.chunk_count).toBe(4);
    expect(built.progress.length).toBeGreaterThan(0);
    expect(built.progress.at(-1)).toMatchObject({ progress: 100, total: 100 });
    expect((await readdir(join(api.dataDir, 'cache', index.index_id))).sort()).toEqual([
      'chunks.json',
      'idf.json',
      'index.json',
    ]);

    const again = (await api.call('doc_index_build', { file_path: mdPath })).body as IndexBody;
    expect(again.index_id).toBe(index.index_id);
    expect(again.notes).toContain('Index loaded from cache');
    const keyed = (await api.call('doc_index_build', { file_path: mdPath, cache_key: 'v2' })).body as IndexBody;
    expect(keyed.index_id).not.toBe(index.index_id);
    expect(keyed.doc_fingerprint).toBe(index.doc_fingerprint);

    const search = await api.call('doc_search', { index_id: index.index_id, query: 'max DC voltage', top_k: 3 });
    const hits = search.body as Hits;
    expect(Array.isArray(hits)).toBe(true);
    expect(hits[0]?.locator).toBe('h2-c1');
    expect(hits[0]?.snippet).toContain('Max. DC voltage: 1100V');
    expect(search.structured).toEqual({ result: hits });

    const tables = (
      await api.call('doc_search', { index_id: index.index_id, query: 'recommended PV power', scope: 'tables' })
    ).body as Hits;
    expect(tables.map((h) => h.locator)).toEqual(['h2-t1']);

    const read = await api.call('doc_read', { index_id: index.index_id, locator: 'h2-t1' });
    expect(read.body).toMatchObject({
      locator: 'h2-t1',
      kind: 'table',
      meta: { heading_path: 'MOD 8~15KTL3-X2(Pro) > PV DC Input', original_heading: 'PV DC Input', chunk_index: 1 },
    });
    expect((read.body as { content: string }).content).toContain('| MOD 10KTL3-X2(Pro) | 15000W |');
    const short = (await api.call('doc_read', { index_id: index.index_id, locator: 'h3-c1', max_chars: 20 })).body as {
      content: string;
      truncated: boolean;
    };
    expect(short).toMatchObject({ content: 'Protection degree IP', truncated: true });
  });

  it('ranks by hybrid search with the platform embedder', async () => {
    const index = (await api.call('doc_index_build', { file_path: mdPath })).body as IndexBody;
    const hits = (
      await api.call('doc_search', {
        index_id: index.index_id,
        query: 'ingress protection rating IP66',
        mode: 'hybrid',
        top_k: 2,
      })
    ).body as Hits;
    expect(hits[0]?.locator).toBe('h3-c1');
    expect(await readdir(join(api.dataDir, 'cache', index.index_id))).toContain('embeddings.json');
  });

  it('indexes a real PDF: headings from the text layer, page_count from the conversion', async () => {
    const pdfPath = join(api.dataDir, 'uploads', 'sheet.pdf');
    await writeFile(
      pdfPath,
      makeTextPdf([
        [
          '# Electrical data',
          'Rated torque 0.64 Nm at rated speed 3000 rpm for the 200 W motor.',
          'Rated current 1.6 A.',
        ],
        ['# Mechanical data', 'Weight 0.8 kg. Protection class IP65 for the motor body.'],
      ]),
    );
    const index = (await api.call('doc_index_build', { file_path: pdfPath })).body as IndexBody;
    expect(index).toMatchObject({ doc_type: 'pdf', page_count: 2 });
    expect(index.toc.map((t) => t.title)).toEqual(['Electrical data', 'Mechanical data']);
    const hits = (await api.call('doc_search', { index_id: index.index_id, query: 'rated torque' })).body as Hits;
    expect(hits[0]?.snippet).toContain('Rated torque 0.64 Nm');
    const read = (await api.call('doc_read', { index_id: index.index_id, locator: hits[0]?.locator as string }))
      .body as { meta: { original_heading: string } };
    expect(read.meta.original_heading).toBe('Electrical data');
  });

  it('validates and normalises JSON against a schema skeleton', async () => {
    const out = await api.call('json_validate_and_normalize', {
      data: { pv_dc_input: { max_dc_voltage: ' 1000~1500V ' } },
      schema: { pv_dc_input: { max_dc_voltage: '', number_of_mppts: 0 }, thd: '' },
    });
    expect(out.body).toEqual({
      ok: true,
      errors: [],
      warnings: ["Field 'pv_dc_input.number_of_mppts' is missing; set to null", "Field 'thd' is missing; set to null"],
      normalized: { pv_dc_input: { max_dc_voltage: '1000-1500V', number_of_mppts: null }, thd: null },
    });
  });

  it('answers typed errors: paths outside the roots, symlinks out, unknown index, bad arguments', async () => {
    const expectError = async (name: string, args: Record<string, unknown>, type: string) => {
      const result = await api.call(name, args);
      expect(result.isError).toBe(true);
      expect(result.body).toMatchObject({ status: 'error', error_type: type });
    };
    await expectError('doc_index_build', { file_path: '/etc/passwd' }, 'forbidden_path');
    await expectError('doc_index_build', { file_path: `${api.dataDir}/../../etc/passwd` }, 'forbidden_path');
    const link = join(api.dataDir, 'uploads', 'link.md');
    await symlink('/etc/hostname', link);
    await expectError('doc_index_build', { file_path: link }, 'forbidden_path');
    await expectError('doc_index_build', { file_path: join(api.dataDir, 'missing.pdf') }, 'file_not_found');
    await expectError('doc_search', { index_id: 'e'.repeat(64), query: 'x' }, 'index_not_found');
    await expectError('doc_search', { index_id: '../../etc', query: 'x' }, 'invalid_arguments');
    await expectError('doc_read', { index_id: 'e'.repeat(64), locator: 'h1/../../x' }, 'invalid_arguments');
    await expectError('doc_search', { index_id: 'e'.repeat(64), query: 'q'.repeat(5000) }, 'invalid_arguments');
  });
});

describe('extraction-api /mcp over the legacy SSE transport', () => {
  it('serves the same tools', async () => {
    const api = await startExtractionApi({}, 'sse');
    try {
      const out = await api.call('json_validate_and_normalize', { data: { a: 'x  y' }, schema: { a: '' } });
      expect(out.body).toMatchObject({ ok: true, normalized: { a: 'x y' } });
    } finally {
      await api.stop();
    }
  });
});
