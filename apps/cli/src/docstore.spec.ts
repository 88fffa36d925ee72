// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ingestDocument, storeDocumentChunks } from '@lectern/document-store';
import { numberedPdfFile } from '@lectern/testing';
import { openDocumentStore } from './cli.testkit.js';
import { runCli } from './cli.js';

const run = async (argv: string[], env: Record<string, string>) => {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { env, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
};

/** A generated 4-page text-layer PDF (this suite runs without ../shared). */
const STATEMENT = numberedPdfFile(4, 'Energy_SPD_Adoption_Statement.pdf');

const openDeps = openDocumentStore;

describe('lectern docstore check', () => {
  let dataDir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'lectern-cli-docstore-'));
    env = { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    const { platform, deps } = openDeps(dataDir);
    const ingested = await ingestDocument(deps, { file_path: STATEMENT, application_ref: 'CLI/1' });
    expect(ingested.status).toBe('success');
    // A spec 002 collection: chunks stored by store_document_chunks, no registry beside them.
    const stored = await storeDocumentChunks(deps, {
      collection: 'papers',
      chunks: [
        { text: 'Flood risk on the river plain', source_filename: 'a.pdf', chunk_index: 0 },
        { text: 'Air quality near the ring road', source_filename: 'a.pdf', chunk_index: 1 },
      ],
    });
    expect(stored.success).toBe(true);
    await platform.close();
  }, 120_000);
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('reports a consistent store and exits 0', async () => {
    const { code, stdout } = await run(['docstore', 'check', '--json'], env);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      project: 'application_docs',
      kind: 'documents',
      documents: 1,
      orphan_chunks: 0,
      consistent: true,
    });
  });

  it('does not flag a spec 002 collection (no registry) as broken', async () => {
    const { code, stdout } = await run(['docstore', 'check', '--project', 'papers', '--json'], env);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      project: 'papers',
      kind: 'collection',
      chunks: 2,
      unmanaged_chunks: 2,
      orphan_chunks: 0,
      consistent: true,
    });
    // and --repair leaves its chunks alone
    expect((await run(['docstore', 'check', '--project', 'papers', '--repair', '--json'], env)).code).toBe(0);
    expect(JSON.parse((await run(['docstore', 'check', '--project', 'papers', '--json'], env)).stdout)).toMatchObject({
      chunks: 2,
    });
  });

  it('answers an unknown project with a non-zero exit and INVALID_PROJECT', async () => {
    const { code, stdout, stderr } = await run(['docstore', 'check', '--project', 'no_such_project'], env);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^error: INVALID_PROJECT: Project "no_such_project" does not exist/);
  });

  it('finds planted orphan chunks, exits 1; --repair removes them and a re-check is clean', async () => {
    // What a process killed between chunk upsert and registry write leaves: chunks the registry does not know.
    const { platform } = openDeps(dataDir);
    const store = platform.vectorStore();
    const collection = await store.getCollection('application_docs');
    const embedder = await platform.embedders({ model: 'auto' }).for(collection!.fingerprint);
    const ghost = (doc: string, i: number) => ({
      id: `${doc}_${String(i).padStart(3, '0')}_000`,
      vector: embedder.embed(`ghost ${doc} ${i}`),
      text: `ghost ${doc} ${i}`,
      payload: { document_id: doc, chunk_index: i },
    });
    const planted = [ghost('GHOST_abcdef', 0), ghost('GHOST_abcdef', 1), ghost('PHANTOM_123456', 0)];
    await store.upsert(
      'application_docs',
      await Promise.all(planted.map(async (p) => ({ ...p, vector: await p.vector }))),
      {
        fingerprint: collection!.fingerprint,
      },
    );
    const chunksBefore = await store.count('application_docs');
    await platform.close();

    const found = await run(['docstore', 'check'], env);
    expect(found.code).toBe(1);
    expect(found.stdout).toContain('3 orphan chunks');
    expect(found.stdout).toContain('orphan: GHOST_abcdef');
    expect(found.stdout).toContain('orphan: PHANTOM_123456');
    expect(found.stderr).toMatch(/inconsistent .*--repair/);

    const repaired = await run(['docstore', 'check', '--repair', '--json'], env);
    expect(repaired.code).toBe(0);
    expect(JSON.parse(repaired.stdout)).toMatchObject({
      orphan_chunks: 3,
      removed_chunks: 3,
      repaired: true,
      consistent: true,
    });

    const after = await run(['docstore', 'check', '--json'], env);
    expect(after.code).toBe(0);
    expect(JSON.parse(after.stdout)).toMatchObject({
      orphan_chunks: 0,
      orphan_document_ids: [],
      documents: 1,
      consistent: true,
    });
    // the registered document's chunks are all still there
    const reopened = openDeps(dataDir).platform;
    expect(await reopened.vectorStore().count('application_docs')).toBe(chunksBefore - 3);
    await reopened.close();
  }, 120_000);
});
