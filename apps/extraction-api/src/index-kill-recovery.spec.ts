// SPDX-License-Identifier: AGPL-3.0-or-later
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesDir, numberedPdfFile, toolText, killScenario } from '@lectern/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ProgressNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const ENTRY = 'apps/extraction-api/src/main.ts';
const PDF = numberedPdfFile(24, 'index-kill-recovery.pdf');

interface IndexBody {
  index_id: string;
  chunk_count: number;
  page_count: number | null;
  notes: string[];
}

/**
 * Issue 24: `kill -9` of extraction-api during spec 003's `doc_index_build`, at a progress notification proving the
 * build is mid-way (converting pages), in embedded mode and in distributed mode (the conversion job on a converter
 * worker through a real Redis). The half-built index is never served: after a restart the same call builds it whole
 * (not "loaded from cache"), with what a clean build of the same file gives; temporary build directories a kill
 * mid-write leaves (planted here, as `writeIndex` names them) are removed at start in embedded mode.
 */
describe.each([
  ['embedded', false],
  ['distributed', true],
] as const)('doc_index_build killed mid-way (%s mode)', (_mode, distributed) => {
  const scenario = killScenario({
    prefix: 'lectern-index-kill-',
    distributed,
    env: (dataDir) => ({ DATA_DIR: dataDir, DOCUMENT_ROOTS: fixturesDir(), LOG_LEVEL: 'info', EXTRACTOR: 'local' }),
  });
  const { start, connect } = scenario;
  const build = async (client: Client, args: Record<string, unknown>): Promise<IndexBody> =>
    toolText(
      await client.callTool({ name: 'doc_index_build', arguments: { file_path: PDF, ...args } }, undefined, {
        timeout: 120_000,
      }),
    ) as IndexBody;

  it('serves no half-built index after a restart; the rebuild equals a clean build; leftovers are swept', async () => {
    if (distributed) await start('apps/converter/src/main.ts', 'CONVERTER_PORT');
    const first = await start(ENTRY, 'EXTRACTION_API_PORT');
    const client = await connect(first);
    const killed = new Promise<string>((resolve) => {
      client.setNotificationHandler(ProgressNotificationSchema, async (n) => {
        const message = n.params.message ?? '';
        if (/page \d+\/\d+/.test(message) && first.child.exitCode === null && first.child.signalCode === null) {
          const exited = new Promise((r) => first.child.once('exit', r));
          first.child.kill('SIGKILL');
          await exited;
          resolve(message);
        }
      });
    });
    const call = client
      .callTool({ name: 'doc_index_build', arguments: { file_path: PDF } }, undefined, {
        onprogress: () => {},
        timeout: 120_000,
      })
      .catch((error: unknown) => error);
    expect(await killed).toMatch(/page \d+\/\d+/);
    await client.close().catch(() => undefined);
    expect(await call).toHaveProperty('message');

    // What a kill during `writeIndex` leaves: a temporary directory with part of the files (an hour old).
    const cache = join(scenario.dataDir, 'cache');
    const leftover = join(cache, '.building-0123abcd-deadbeef');
    mkdirSync(leftover, { recursive: true });
    writeFileSync(join(leftover, 'chunks.json'), '[{"locator":"h1"');
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(leftover, hourAgo, hourAgo);

    const second = await start(ENTRY, 'EXTRACTION_API_PORT');
    // embedded: removed whatever its age; distributed: older than the index timeout (600 s) -> removed too
    expect(existsSync(leftover)).toBe(false);
    const client2 = await connect(second);
    const rebuilt = await build(client2, {});
    expect(rebuilt.notes).not.toContain('Index loaded from cache');
    const clean = await build(client2, { cache_key: 'clean' });
    expect(clean.notes).not.toContain('Index loaded from cache');
    expect(rebuilt).toMatchObject({ chunk_count: clean.chunk_count, page_count: 24 });
    expect(rebuilt.chunk_count).toBeGreaterThan(0);
    const cached = await build(client2, {});
    expect(cached).toMatchObject({ index_id: rebuilt.index_id, chunk_count: rebuilt.chunk_count });
    expect(cached.notes).toContain('Index loaded from cache');
    // nothing temporary is left beside the two complete indexes
    expect(readdirSync(cache).sort()).toEqual([clean.index_id, rebuilt.index_id].sort());
  }, 120_000);
});
