// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import {
  connectMcp,
  handmadePdf,
  hostileCorpus,
  sharedModelDir,
  spawnService,
  toolText,
  type HostileCase,
  type SpawnedService,
} from '@lectern/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

const GB = 1024 ** 3;
/** The document store ingests PDFs and images only: anything else is refused by its extension first. */
const INGESTIBLE = new Set(['.pdf', '.png', '.jpg', '.jpeg', '.tif', '.tiff', '.bmp']);

/**
 * Issue 12's bad-input corpus through a real document-store-mcp process (spawned as `npm start` runs it): every
 * hostile file (built by the test) and every malformed argument is answered with a typed error or a graceful
 * result, the store is unchanged, the service keeps answering, and the process's peak RSS (VmHWM over its
 * whole life) stays under 1 GB.
 */
describe('ingest_document: the bad-input corpus', () => {
  let service: SpawnedService;
  let client: Client;
  let dataDir: string;
  let dir: string;
  let corpus: HostileCase[];

  const call = async (args: Record<string, unknown>, name = 'ingest_document') => {
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 300_000 });
    return {
      isError: Boolean(result.isError),
      body: toolText(result) as { status: string; error_type?: string; results?: unknown[] },
    };
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'lectern-corpus-'));
    dir = join(dataDir, 'corpus');
    mkdirSync(dir);
    corpus = await hostileCorpus();
    for (const c of corpus) writeFileSync(join(dir, c.filename), c.bytes);
    writeFileSync(join(dir, 'good.pdf'), handmadePdf({ text: 'Surface water drainage statement for the corpus run.' }));
    service = await spawnService('apps/document-store-mcp/src/main.ts', 'DOCUMENT_STORE_PORT', {
      DATA_DIR: dataDir,
      DOCUMENT_ROOTS: dataDir,
      INGEST_TIMEOUT_S: '120',
      EMBEDDING_MODEL: 'potion-base-2M',
      EMBEDDING_MODEL_DIR: sharedModelDir('potion-base-2M'),
    });
    client = await connectMcp(service.baseUrl, 'streamable-http');
    expect((await call({ file_path: join(dir, 'good.pdf'), application_ref: 'GOOD/1' })).body).toMatchObject({
      status: 'success',
    });
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const snapshot = async (): Promise<string> => {
    const listed = await call({}, 'list_ingested_documents');
    const found = await call({ query: 'drainage statement', max_results: 5 }, 'search_application_docs');
    return JSON.stringify([listed.body, found.body.results]);
  };

  it('answers every case typed, leaves the store unchanged, stays up and under 1 GB', async () => {
    const before = await snapshot();
    const answers: Record<string, string> = {};
    for (const c of corpus) {
      const { isError, body } = await call({ file_path: join(dir, c.filename), application_ref: 'HOSTILE/1' });
      answers[c.name] = isError ? String(body.error_type) : body.status;
      const allowed = !isError
        ? ['skipped', 'success']
        : INGESTIBLE.has(extname(c.filename))
          ? c.expect
          : ['unsupported_file_type'];
      // (the case's name in the comparison says which case failed)
      expect([c.name, allowed.includes(answers[c.name] ?? '') ? 'allowed' : answers[c.name]]).toEqual([
        c.name,
        'allowed',
      ]);
      // the service still answers between cases
      expect((await call({ application_ref: 'GOOD/1' }, 'list_ingested_documents')).isError).toBe(false);
    }
    const malformed: Array<{ name: string; args: Record<string, unknown>; expect: string[] }> = [
      { name: 'path not a string', args: { file_path: 42, application_ref: 'BAD/1' }, expect: ['invalid_arguments'] },
      { name: 'missing application_ref', args: { file_path: join(dir, 'good.pdf') }, expect: ['invalid_arguments'] },
      {
        name: 'path too long',
        args: { file_path: `/${'a'.repeat(100_000)}.pdf`, application_ref: 'BAD/1' },
        expect: ['invalid_arguments'],
      },
      {
        name: 'NUL byte',
        args: { file_path: `${dir}/good.pdf\u0000.png`, application_ref: 'BAD/1' },
        expect: ['invalid_arguments', 'forbidden_path'],
      },
      {
        name: 'traversal',
        args: { file_path: `${dir}/../../../../etc/passwd`, application_ref: 'BAD/1' },
        expect: ['forbidden_path', 'unsupported_file_type'],
      },
      {
        name: 'a directory',
        args: { file_path: dir, application_ref: 'BAD/1' },
        expect: ['file_not_found', 'unsupported_file_type'],
      },
      {
        name: 'missing file',
        args: { file_path: join(dir, 'missing.pdf'), application_ref: 'BAD/1' },
        expect: ['file_not_found'],
      },
      { name: 'huge query', args: { query: 'q'.repeat(5_000_000) }, expect: ['invalid_arguments'] },
    ];
    for (const m of malformed) {
      const tool = 'query' in m.args ? 'search_application_docs' : 'ingest_document';
      const result = await client.callTool({ name: tool, arguments: m.args }).catch((e: unknown) => e);
      const text = JSON.stringify(result);
      const typed = m.expect.some((code) => text.includes(code)) || /-32602|Invalid params/i.test(text);
      answers[m.name] = typed ? (m.expect.find((code) => text.includes(code)) ?? '-32602') : text.slice(0, 300);
      expect([m.name, typed ? 'typed' : text.slice(0, 300)]).toEqual([m.name, 'typed']);
    }
    const peak = service.peakRssBytes();
    process.stdout.write(
      `bad-input corpus, document-store-mcp: peak RSS ${(peak / 1024 / 1024).toFixed(0)} MB\n${JSON.stringify(answers)}\n`,
    );
    expect(peak).toBeLessThan(GB);
    expect(await snapshot()).toBe(before);
    expect(service.child.exitCode).toBeNull();
  }, 600_000);
});
