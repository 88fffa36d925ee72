// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteTaskStore } from './sqlite-task-store.js';
import { runTaskStoreContract } from './task-store.contract.js';
import { newTaskId } from './task-id.js';
import { taskUploadDir, uploadExtension } from './task-uploads.js';

describe('TaskStore (SQLite adapter)', () => {
  runTaskStoreContract(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'task-store-'));
    const path = join(dir, 'db', 'tasks.db');
    return {
      open: async () => new SqliteTaskStore({ path }),
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  });
});

describe('SqliteTaskStore (one process owns the file)', () => {
  let dir: string;
  let store: SqliteTaskStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'task-store-'));
    store = new SqliteTaskStore({ path: join(dir, 'tasks.db') });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('re-queues interrupted running tasks at start-up while attempts remain, then fails them clearly', async () => {
    const task = await store.create({
      task_id: newTaskId(),
      original_filename: 'a.pdf',
      upload_path: '/x',
      schema: {},
      extractor: 'local',
    });
    await store.claim(task.task_id, { stage: 'extracting' }, 'j1');
    await store.close();
    store = new SqliteTaskStore({ path: join(dir, 'tasks.db') });
    expect(await store.recoverInterrupted(1)).toEqual({ requeued: [task.task_id], failed: [] });
    expect(await store.get(task.task_id)).toMatchObject({ status: 'queued', attempts: 1 });
    await store.claim(task.task_id, { stage: 'extracting' }, 'j2');
    await store.close();
    store = new SqliteTaskStore({ path: join(dir, 'tasks.db') });
    expect(await store.recoverInterrupted(1)).toEqual({ requeued: [], failed: [task.task_id] });
    expect((await store.get(task.task_id))?.error).toMatchObject({
      code: 'task_interrupted',
      message: expect.stringMatching(/AGENT_MAX_RETRIES=1/),
    });
  });

  it('keeps uploads under uploads/<task_id>/ with a sanitised extension', () => {
    const id = newTaskId();
    expect(taskUploadDir('/data', id)).toBe(`/data/uploads/${id}`);
    expect(() => taskUploadDir('/data', '../etc')).toThrow(/not a task id/);
    expect(uploadExtension('Sheet.PDF')).toBe('.pdf');
    expect(uploadExtension('x.p/df')).toBe('');
    expect(uploadExtension('noext')).toBe('');
  });
});
