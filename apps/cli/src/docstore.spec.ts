import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ingestDocument } from '@lectern/document-store';
import { createPlatform, documentStoreDeps } from '@lectern/platform';
import { corporaDir, corpusFile, silentLogger } from '@lectern/testing';
import { runCli } from './cli.js';

const run = async (argv: string[], env: Record<string, string>) => {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { env, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
};

const ADOPTION = corpusFile(
  'uk-planning-policy',
  'dataset',
  'Coventry',
  '2. Supplementary Planning Documents (SPD)',
  'Adopted SPDs',
  'Energy SPD',
  'Energy_SPD_Adoption_Statement.pdf',
);

describe('lectern docstore check', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'lectern-cli-docstore-'));
    const platform = createPlatform({ dataDir, log: silentLogger() });
    const deps = documentStoreDeps(platform, {
      embedding: { model: 'auto' },
      roots: [corporaDir()],
      defaultProject: 'application_docs',
      enableOcr: false,
      imageRatioThreshold: 0.7,
      ingestTimeoutMs: 120_000,
      maxDocumentBytes: 1e9,
    });
    const ingested = await ingestDocument(deps, { file_path: ADOPTION, application_ref: 'CLI/1' });
    expect(ingested.status).toBe('success');
    await platform.close();
  }, 120_000);
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('reports a consistent store and exits 0', async () => {
    const { code, stdout } = await run(['docstore', 'check', '--json'], { DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ project: 'application_docs', documents: 1, orphan_chunks: 0, consistent: true });
  });

  it('finds orphan chunks (chunks whose registry entry is missing), exits 1, and --repair removes them', async () => {
    // What a process killed between chunk upsert and registry write leaves: chunks the registry does not know.
    const platform = createPlatform({ dataDir, log: silentLogger() });
    const store = platform.vectorStore();
    const embedders = platform.embedders({ model: 'auto' });
    const collection = await store.getCollection('application_docs');
    const embedder = await embedders.for(collection!.fingerprint);
    await store.upsert(
      'application_docs',
      [{ id: 'GHOST_abcdef_001_000', vector: await embedder.embed('ghost'), text: 'ghost', payload: { document_id: 'GHOST_abcdef', chunk_index: 0 } }],
      { fingerprint: collection!.fingerprint },
    );
    await platform.close();

    const found = await run(['docstore', 'check'], { DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    expect(found.code).toBe(1);
    expect(found.stdout).toContain('1 orphan chunks');
    expect(found.stdout).toContain('orphan: GHOST_abcdef');
    expect(found.stderr).toMatch(/inconsistent/);

    const repaired = await run(['docstore', 'check', '--repair', '--json'], { DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    expect(repaired.code).toBe(0);
    expect(JSON.parse(repaired.stdout)).toMatchObject({ orphan_chunks: 1, repaired: true });
    const after = await run(['docstore', 'check', '--json'], { DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    expect(JSON.parse(after.stdout)).toMatchObject({ orphan_chunks: 0, documents: 1, consistent: true });
  }, 120_000);
});
