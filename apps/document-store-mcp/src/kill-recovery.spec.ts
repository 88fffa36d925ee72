// SPDX-License-Identifier: AGPL-3.0-or-later
import { checkConsistency, documentStoreReader, resolveProject } from '@lectern/document-store';
import { createPlatform } from '@lectern/platform';
import { fixturesDir, numberedPdfFile, silentLogger, testModelEnv, toolText, killScenario } from '@lectern/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ProgressNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const ENTRY = 'apps/document-store-mcp/src/main.ts';
const SMALL = numberedPdfFile(2, 'kill-recovery-small.pdf');
const LARGE = numberedPdfFile(24, 'kill-recovery-large.pdf');
const PROJECT = 'application_docs'; // DOCUMENT_STORE_PROJECT's default

/**
 * Issue 24: `kill -9` of document-store-mcp during `ingest_document` (spec 000), at a progress notification proving the
 * ingest is mid-way, in embedded mode (in-process conversion, SQLite store) and in distributed mode (conversion jobs
 * on a converter worker through a real Redis). After a restart nothing half-written is searchable (embedded: chunks
 * a killed ingest left without their registry entry are removed at start — planted here as a kill between the chunk
 * write and the registry write leaves them), the retry gives what a clean ingest gives, and the consistency check
 * (`lectern docstore check`'s) is clean.
 */
describe.each([
  ['embedded', false],
  ['distributed', true],
] as const)('ingest_document killed mid-way (%s mode)', (_mode, distributed) => {
  const scenario = killScenario({
    prefix: 'lectern-docstore-kill-',
    distributed,
    env: (dataDir) => ({
      ...testModelEnv(),
      DATA_DIR: dataDir,
      DOCUMENT_ROOTS: fixturesDir(),
      LOG_LEVEL: 'info',
      INGEST_TIMEOUT_S: '120',
    }),
  });
  const { start, connect } = scenario;
  const ingest = async (client: Client, file: string, ref: string) =>
    (
      await client.callTool(
        { name: 'ingest_document', arguments: { file_path: file, application_ref: ref } },
        undefined,
        {
          timeout: 120_000,
        },
      )
    ).structuredContent as { status: string; document_id: string; chunks_created: number };
  const withStore = async <T>(work: (deps: ReturnType<typeof documentStoreReader>) => Promise<T>): Promise<T> => {
    const platform = createPlatform({ dataDir: scenario.dataDir, log: silentLogger() });
    try {
      return await work(documentStoreReader(platform, { defaultProject: PROJECT }));
    } finally {
      await platform.close();
    }
  };

  it('leaves nothing half-written after a restart; the retry converges to a clean ingest; the check is clean', async () => {
    if (distributed) await start('apps/converter/src/main.ts', 'CONVERTER_PORT');
    const first = await start(ENTRY, 'DOCUMENT_STORE_PORT');
    const client = await connect(first);
    expect(await ingest(client, SMALL, 'KILL/0')).toMatchObject({ status: 'success' });

    const killed = new Promise<string>((resolve) => {
      client.setNotificationHandler(ProgressNotificationSchema, async (n) => {
        const message = n.params.message ?? '';
        // mid-way: converting pages or embedding chunks, before anything of the document is registered
        if (/page \d+|embedded/.test(message) && first.child.exitCode === null && first.child.signalCode === null) {
          const exited = new Promise((r) => first.child.once('exit', r));
          first.child.kill('SIGKILL');
          await exited;
          resolve(message);
        }
      });
    });
    const call = client
      .callTool({ name: 'ingest_document', arguments: { file_path: LARGE, application_ref: 'KILL/1' } }, undefined, {
        onprogress: () => {},
        timeout: 120_000,
      })
      .catch((error: unknown) => error);
    expect(await killed).toMatch(/page \d+|embedded/);
    await client.close().catch(() => undefined);
    expect(await call).toHaveProperty('message');

    if (!distributed) {
      // What a kill between the chunk write and the registry write leaves: a document's chunks, no registry entry.
      await withStore(async (deps) => {
        const resolved = await resolveProject(deps, PROJECT);
        const info = resolved?.info ?? (await deps.store.getCollection(PROJECT));
        if (!info) throw new Error('the project collection should exist after the first ingest');
        const dim = info.fingerprint.dimension;
        const vector = new Float32Array(dim).fill(1 / Math.sqrt(dim));
        await deps.store.upsert(
          info.name,
          [0, 1, 2].map((i) => ({
            id: `half-written-doc_chunk_${i}`,
            vector,
            text: `half written chunk ${i} about drainage`,
            payload: { document_id: 'half-written-doc', application_ref: 'KILL/1', chunk_index: i },
          })),
          { fingerprint: info.fingerprint },
        );
        expect(await checkConsistency(deps, {})).toMatchObject({ orphan_chunks: 3, consistent: false });
      });
    }

    const second = await start(ENTRY, 'DOCUMENT_STORE_PORT');
    const client2 = await connect(second);
    // nothing of the interrupted document is registered or (embedded) stored
    expect(
      toolText(await client2.callTool({ name: 'list_ingested_documents', arguments: { application_ref: 'KILL/1' } })),
    ).toMatchObject({ document_count: 0 });
    if (!distributed)
      await withStore(async (deps) =>
        expect(await checkConsistency(deps, {})).toMatchObject({ orphan_chunks: 0, consistent: true }),
      );

    const retry = await ingest(client2, LARGE, 'KILL/1');
    const clean = await ingest(client2, LARGE, 'CLEAN/1');
    expect(retry).toMatchObject({ status: 'success' });
    expect(clean).toMatchObject({ status: 'success', chunks_created: retry.chunks_created });
    await second.stop();

    const report = await withStore((deps) => checkConsistency(deps, {}));
    expect(report).toMatchObject({ documents: 3, orphan_chunks: 0, count_mismatches: [], consistent: true });
  }, 120_000);
});
