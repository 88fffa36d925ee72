// SPDX-License-Identifier: AGPL-3.0-or-later
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { documentStoreReader, resolveProject } from '@lectern/document-store';
import { createPlatform } from '@lectern/platform';
import {
  makeTextPdf,
  repoRoot,
  silentLogger,
  spawnService,
  startRedis,
  testModelEnv,
  type SpawnedService,
  type TestRedis,
} from '@lectern/testing';
import { lectern } from './lectern-binary.testkit.js';

interface Summary {
  totals: { documents: number; chunks: number; written: number; removed: number; errors: number };
}
interface CheckReport {
  chunks: number;
  orphan_chunks: number;
  consistent: boolean;
}

const FILES = 6;
/**
 * Pages of each report; the last (ingested last: files are taken in name order) is long, so that the run is still
 * converting it when the first reports are seen stored — the test model embeds in microseconds, so without it the
 * whole run could finish between two looks and leave nothing to kill.
 */
const pagesOf = (d: number): number => (d === FILES - 1 ? 40 : 3);

/**
 * Issue 24: `kill -9` of a spec 004 `lectern ingest` mid-run (observed mid-way: some of the directory's documents in
 * the store, the run not finished), embedded and distributed (conversion jobs on a converter worker through a real
 * Redis). A spec 004 run has no "running" state to recover: each document is one store write with deterministic chunk
 * ids and no registry. So: nothing is left stuck, the rerun converges to what a clean ingest of the same directory
 * writes, and `lectern docstore check` calls the project consistent.
 */
describe.each([
  ['embedded', false],
  ['distributed', true],
] as const)('lectern ingest killed mid-run (%s mode)', (_mode, distributed) => {
  let dataDir: string;
  let docs: string;
  let redis: TestRedis | undefined;
  let converter: SpawnedService | undefined;
  let env: Record<string, string>;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'lectern-ingest-kill-'));
    docs = join(dataDir, 'docs');
    mkdirSync(docs);
    for (let d = 0; d < FILES; d++)
      writeFileSync(
        join(docs, `report-${d}.pdf`),
        makeTextPdf(
          Array.from({ length: pagesOf(d) }, (_, p) => [
            `# Report ${d} part ${p + 1}`,
            ...Array.from(
              { length: 14 },
              (_, l) => `Report ${d} page ${p + 1} line ${l + 1} weighs drainage, parking and open space provision.`,
            ),
          ]),
        ),
      );
    env = { ...testModelEnv(), DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    if (distributed) {
      redis = await startRedis();
      env['REDIS_URL'] = redis.url;
      // spawnService waits for fastify's "Server listening" line, logged at info
      converter = await spawnService('apps/converter/src/main.ts', 'CONVERTER_PORT', { ...env, LOG_LEVEL: 'info' });
    }
  }, 60_000);
  afterAll(async () => {
    await converter?.stop();
    await redis?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Chunks stored in a project (0 before its collection exists), read by another process as an operator would. */
  const storedChunks = async (project: string): Promise<number> => {
    const platform = createPlatform({ dataDir, log: silentLogger() });
    try {
      const deps = documentStoreReader(platform, { defaultProject: 'application_docs' });
      const resolved = await resolveProject(deps, project);
      return resolved ? deps.store.count(resolved.info.name) : 0;
    } finally {
      await platform.close();
    }
  };

  it('leaves nothing stuck; the rerun converges to a clean ingest; docstore check is consistent', async () => {
    for (const p of ['killed', 'clean']) expect((await lectern(['project', 'create', p], env)).code).toBe(0);

    const child = spawn(
      process.execPath,
      [join(repoRoot(), 'apps/cli/bin/lectern.cjs'), 'ingest', docs, '-p', 'killed'],
      {
        env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
        stdio: 'ignore',
      },
    );
    const exited = new Promise<NodeJS.Signals | null>((r) => child.once('exit', (_code, signal) => r(signal)));
    // mid-way: the first documents are in the store, the run is still going
    let midway = 0;
    for (let i = 0; i < 1200 && child.exitCode === null && midway === 0; i++) {
      midway = await storedChunks('killed');
      if (midway === 0) await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(midway).toBeGreaterThan(0);

    const rerun = await lectern(['ingest', docs, '-p', 'killed', '--json'], env);
    expect(rerun.code).toBe(0);
    const clean = await lectern(['ingest', docs, '-p', 'clean', '--json'], env);
    expect(clean.code).toBe(0);
    const [again, reference] = [rerun, clean].map((r) => (JSON.parse(r.stdout) as Summary).totals);
    expect(reference).toMatchObject({ documents: FILES, errors: 0 });
    expect(again).toMatchObject({ documents: FILES, chunks: reference?.chunks, errors: 0 });
    // the killed run's documents were kept, not written twice: the rerun wrote only the rest
    expect(again?.written).toBeLessThan(reference?.written ?? 0);
    expect(await storedChunks('killed')).toBe(reference?.chunks);

    const check = await lectern(['docstore', 'check', '-p', 'killed', '--json'], env);
    expect(check.code).toBe(0);
    expect(JSON.parse(check.stdout) as CheckReport).toMatchObject({
      chunks: reference?.chunks,
      orphan_chunks: 0,
      consistent: true,
    });
  }, 180_000);
});
