// SPDX-License-Identifier: AGPL-3.0-or-later
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EmbeddedVectorStore, EMBEDDED_WRITE_BATCH } from './embedded.adapter.js';

const fixture = fileURLToPath(new URL('./crash-writer.fixture.ts', import.meta.url));
const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const fingerprint = { model_id: 'test/mini-4d', revision: 'r1', dimension: 4, normalized: true };

/** Resolves when the child prints `line` on stdout; rejects if it exits first. */
const waitFor = (child: ChildProcess, line: string): Promise<void> =>
  new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const onData = (b: Buffer): void => {
      out += b.toString();
      if (out.split('\n').includes(line)) {
        child.stdout?.off('data', onData);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (b: Buffer) => (err += b.toString()));
    child.once('exit', (code) => reject(new Error(`writer exited (${code}) before "${line}": ${err}`)));
  });

describe('VectorStore (embedded) across processes', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'lectern-vs-crash-'));
  });
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it("sees another process's committed batch, and a writer killed mid-batch leaves none of that write batch", async () => {
    const store = new EmbeddedVectorStore({ dataDir: dir });
    await store.ensureCollection('crash', { fingerprint, hybrid: true });
    expect(await store.searchDense('crash', [1, 1, 0, 0.5], { fingerprint, limit: 5 })).toEqual([]);

    child = spawn(process.execPath, ['--import', 'tsx', fixture, dir, 'crash'], {
      cwd: repo,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await waitFor(child, 'committed');
    // The reader's cached matrix is stale; the collection's write version makes it reload.
    const hits = await store.searchDense('crash', [1, 1, 0, 0.5], { fingerprint, limit: 5 });
    expect(hits).toHaveLength(5);
    expect(hits.every((h) => h.id.startsWith('b1-'))).toBe(true);

    await waitFor(child, 'inside');
    // The second upsert's first write batch is committed; the writer holds the write lock with half of its second
    // batch uncommitted; readers see only committed data.
    const committed = 100 + EMBEDDED_WRITE_BATCH;
    expect(await store.count('crash')).toBe(committed);
    const exited = new Promise((r) => child?.once('exit', r));
    child.kill('SIGKILL');
    await exited;

    expect(await store.count('crash')).toBe(committed);
    expect(await store.count('crash', { batch: 2 })).toBe(EMBEDDED_WRITE_BATCH);
    expect(await store.count('crash', { $and: [{ batch: 2 }, { i: { $gte: EMBEDDED_WRITE_BATCH } }] })).toBe(0);
    expect(await store.searchKeyword('crash', 'batch row', { limit: 1000 })).toHaveLength(committed);
    // The lock died with the writer: this process can write again.
    await store.upsert('crash', [{ id: 'after', vector: [1, 0, 0, 0], text: 'after the crash', payload: {} }], {
      fingerprint,
    });
    expect(await store.count('crash')).toBe(committed + 1);
    await store.close();

    // A fresh connection (as after a restart) recovers the WAL and sees the same state.
    const reopened = new EmbeddedVectorStore({ dataDir: dir });
    expect(await reopened.count('crash')).toBe(committed + 1);
    await reopened.close();
  });
});
