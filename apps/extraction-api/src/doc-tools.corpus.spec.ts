// SPDX-License-Identifier: AGPL-3.0-or-later
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { corporaDir } from '@lectern/testing';
import { startExtractionApi, type RunningExtractionApi } from './doc-tools.testkit.js';

/** The doc tools over MCP on the real datasheets of ../shared/corpora/datasheets (corpus tier). */
const sheet = (name: string) => join(corporaDir(), 'datasheets', 'datasheetminer-benchmark', 'datasheets', name);

interface IndexBody {
  index_id: string;
  doc_type: string;
  page_count: number;
  chunk_count: number;
  toc: { locator: string; title: string; level: number }[];
}
type Hits = { locator: string; kind: string; snippet: string; score: number }[];
interface Chunk {
  locator: string;
  kind: string;
  content: string;
}

describe('doc tools on real datasheets', () => {
  let api: RunningExtractionApi;

  beforeAll(async () => {
    api = await startExtractionApi({ DOCUMENT_ROOTS: corporaDir() });
  });

  afterAll(async () => {
    await api.stop();
  });

  const index = async (name: string) => {
    const built = await api.call('doc_index_build', { file_path: sheet(name) });
    expect(built.isError).toBe(false);
    return built.body as IndexBody;
  };
  const chunksOf = async (id: string) =>
    JSON.parse(await readFile(join(api.dataDir, 'cache', id, 'chunks.json'), 'utf8')) as Chunk[];

  it('OMRON G-Series: the spec tables are found, read and cited by locator', async () => {
    const omron = await index('omron-g-series-servo-motors.pdf');
    expect(omron).toMatchObject({ doc_type: 'pdf', page_count: 10 });
    expect(omron.toc.map((t) => t.title)).toEqual(
      expect.arrayContaining(['Servo motor specifications', 'Ratings and specifications', 'Ordering information']),
    );
    const chunks = await chunksOf(omron.index_id);
    expect(chunks.length).toBe(omron.chunk_count);
    for (const c of chunks) {
      expect(c.locator).toMatch(/^h\d+-[ct]\d+$/);
      if (c.kind === 'text') expect(c.content.length).toBeLessThanOrEqual(1500);
      else expect(c.content.startsWith('|')).toBe(true);
    }

    // the field queries of the expected JSON find the ratings table first (docs/benchmarks/extraction-search.md)
    const first = async (query: string, scope = 'all') =>
      ((await api.call('doc_search', { index_id: omron.index_id, query, scope })).body as Hits)[0];
    const torque = await first('rated torque', 'tables');
    expect(torque?.kind).toBe('table');
    const read = (await api.call('doc_read', { index_id: omron.index_id, locator: torque?.locator, max_chars: 20_000 }))
      .body as { content: string; meta: { heading_path: string } };
    // the cylindrical or the flat motors' ratings table: both list the 200 W motor's 0.64 N·m
    expect(read.content).toMatch(/\| Rated torque \| N·m \| [^\n]*0\.64/);
    expect(read.content).toMatch(/Torque constant/);
    expect(read.meta.heading_path).toBe('Servo motor specifications > Ratings and specifications');
    const ip = (
      await api.call('doc_read', {
        index_id: omron.index_id,
        locator: (await first('ip rating'))?.locator,
        max_chars: 20_000,
      })
    ).body as { content: string };
    expect(ip.content).toMatch(/IP65/);
    const radial = (
      await api.call('doc_read', { index_id: omron.index_id, locator: (await first('radial load'))?.locator })
    ).body as { content: string };
    expect(radial.content).toMatch(/Allowable radial load (\| )?N \| 68/);
  });

  it('Contactors: wide tables are never split, text before the first heading is under h0', async () => {
    const contactors = await index('Contactors.pdf');
    const chunks = await chunksOf(contactors.index_id);
    const tables = chunks.filter((c) => c.kind === 'table');
    expect(tables.some((t) => t.content.length > 1500)).toBe(true);
    for (const t of tables) {
      const rows = t.content.split('\n');
      expect(rows.every((r) => r.trimStart().startsWith('|'))).toBe(true);
      expect(rows[1]).toMatch(/^\|( --- \|)+$/);
    }
    expect(chunks[0]?.locator).toBe('h0-t1');
    const hits = (
      await api.call('doc_search', {
        index_id: contactors.index_id,
        query: 'rated insulation voltage',
        scope: 'tables',
      })
    ).body as Hits;
    // label, unit and value in one row (how many empty cells lie between them is the column layout's business)
    expect(hits[0]?.snippet).toMatch(/Rated Insulation Voltage[ |]*\[V\][ |]*690 /);
  });

  it('validates a datasheet-shaped result against its schema skeleton', async () => {
    const expected = JSON.parse(
      await readFile(
        join(corporaDir(), 'datasheets', 'datasheetminer-benchmark', 'expected', 'omron-g-series-servo-motors.json'),
        'utf8',
      ),
    ) as Record<string, unknown>[];
    const record = expected[0] as Record<string, unknown>;
    const schema = Object.fromEntries(
      Object.entries(record).map(([k, v]) => [
        k,
        typeof v === 'object' && v !== null
          ? Object.fromEntries(Object.keys(v).map((kk) => [kk, '']))
          : typeof v === 'number'
            ? 0
            : '',
      ]),
    );
    const data = {
      part_number: ' R88M-G20030 ',
      rated_torque: '0.64 Nm',
      rated_speed: '3000 ~ 5000 min-1',
      ip_rating: '65',
    };
    const out = (await api.call('json_validate_and_normalize', { data, schema })).body as {
      ok: boolean;
      warnings: string[];
      normalized: Record<string, unknown>;
    };
    expect(out.ok).toBe(true);
    expect(Object.keys(out.normalized).sort()).toEqual(Object.keys(record).sort());
    expect(out.normalized).toMatchObject({
      part_number: 'R88M-G20030',
      rated_torque: '0.64Nm',
      rated_speed: '3000-5000min-1',
      ip_rating: 65,
      dimensions: { width: null, length: null, height: null, unit: null },
    });
    expect(out.warnings).toEqual(
      expect.arrayContaining([
        "Field 'manufacturer' is missing; set to null",
        "Field 'dimensions' is missing; its fields set to null",
      ]),
    );
  });
});
