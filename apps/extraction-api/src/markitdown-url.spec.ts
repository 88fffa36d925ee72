// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTextPdf, spawnService, type SpawnedService } from '@lectern/testing';
import { startExtractionApi, type RunningExtractionApi } from './doc-tools.testkit.js';

/**
 * Spec 003's split kept possible: with MARKITDOWN_URL set, doc_index_build converts through a converter service
 * over HTTP (its task API) instead of the conversion job path. Here the converter is a real one, its own process.
 */
describe('doc_index_build with MARKITDOWN_URL: Markdown from a converter over HTTP', () => {
  let converter: SpawnedService;
  let converterDir: string;
  let api: RunningExtractionApi;

  beforeAll(async () => {
    converterDir = mkdtempSync(join(tmpdir(), 'lectern-converter-'));
    converter = await spawnService('apps/converter/src/main.ts', 'CONVERTER_PORT', {
      DATA_DIR: converterDir,
      MCP_API_KEY: 'converter-token-0123456789',
    });
    api = await startExtractionApi({
      MARKITDOWN_URL: converter.baseUrl,
      MARKITDOWN_API_KEY: 'converter-token-0123456789',
    });
    await mkdir(join(api.dataDir, 'uploads'), { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await api?.stop();
    await converter?.stop();
    rmSync(converterDir, { recursive: true, force: true });
  });

  it('indexes a PDF converted by the remote converter, and says so in notes', async () => {
    const pdf = join(api.dataDir, 'uploads', 'remote.pdf');
    await writeFile(
      pdf,
      makeTextPdf([
        ['# Input data', 'Max. DC voltage 1100 V with two MPP trackers.'],
        ['# Output data', 'Rated AC power 10 kW.'],
      ]),
    );
    const built = await api.call('doc_index_build', { file_path: pdf });
    expect(built.isError).toBe(false);
    const index = built.body as {
      index_id: string;
      doc_type: string;
      page_count: number;
      toc: { title: string }[];
      notes: string[];
    };
    expect(index).toMatchObject({ doc_type: 'pdf', page_count: 2 });
    expect(index.toc.map((t) => t.title)).toEqual(['Input data', 'Output data']);
    expect(index.notes[0]).toContain(`Converted via ${converter.baseUrl}`);
    const hits = (await api.call('doc_search', { index_id: index.index_id, query: 'rated AC power' })).body as {
      snippet: string;
    }[];
    expect(hits[0]?.snippet).toContain('Rated AC power 10 kW');
  });

  it("passes the converter's typed refusal through (an unsupported file)", async () => {
    const pptx = join(api.dataDir, 'uploads', 'slides.pptx');
    await writeFile(pptx, 'not really a presentation');
    const result = await api.call('doc_index_build', { file_path: pptx });
    expect(result.isError).toBe(true);
    expect(result.body).toMatchObject({ status: 'error', error_type: 'unsupported_file_type' });
  });
});
