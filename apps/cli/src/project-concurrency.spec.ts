// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTextPdf } from '@lectern/testing';
import { lectern } from './lectern-binary.testkit.js';

/** FR-022: simultaneous ingests of one project (separate processes on one store) and a query during them. */
describe('concurrent ingests and queries into one project (separate lectern processes)', () => {
  let dataDir: string;
  let env: Record<string, string>;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'lectern-concurrent-'));
    const docs = join(dataDir, 'docs');
    mkdirSync(docs);
    for (let d = 0; d < 4; d++) {
      writeFileSync(
        join(docs, `report-${d}.pdf`),
        makeTextPdf(
          Array.from({ length: 3 }, (_, p) => [
            `# Report ${d} part ${p + 1}`,
            ...Array.from(
              { length: 12 },
              (_, l) => `Report ${d} page ${p + 1} line ${l + 1} discusses drainage, parking and open space provision.`,
            ),
          ]),
        ),
      );
    }
    env = { DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('ends with exactly one copy of every chunk, and a query during the ingests answers', async () => {
    expect((await lectern(['project', 'create', 'shared'], env)).code).toBe(0);
    const docs = join(dataDir, 'docs');
    const [a, b, query] = await Promise.all([
      lectern(['ingest', docs, '-p', 'shared', '--json'], env),
      lectern(['ingest', docs, '-p', 'shared', '--json'], env),
      lectern(['search', 'drainage and parking', '-p', 'shared', '--json'], env),
    ]);
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
    // The query ran while chunks were being written: it answers (possibly with fewer results), never fails.
    expect(query.code).toBe(0);
    const chunks = (JSON.parse(a.stdout) as { totals: { chunks: number } }).totals.chunks;
    expect((JSON.parse(b.stdout) as { totals: { chunks: number } }).totals.chunks).toBe(chunks);
    const inspected = JSON.parse((await lectern(['inspect', '-p', 'shared', '--json'], env)).stdout) as {
      points_count: number;
      documents_count: number;
    };
    expect(inspected).toMatchObject({ points_count: chunks, documents_count: 4 });
    // A third run finds nothing to write.
    const again = JSON.parse((await lectern(['reindex', docs, '-p', 'shared', '--json'], env)).stdout) as {
      totals: { written: number; removed: number };
    };
    expect(again.totals).toMatchObject({ written: 0, removed: 0 });
  }, 300_000);
});
