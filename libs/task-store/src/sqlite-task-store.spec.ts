import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteTaskStore, type NewTask } from './sqlite-task-store.js';
import { newTaskId } from './task-id.js';
import { taskUploadDir, uploadExtension } from './task-uploads.js';

describe('SqliteTaskStore', () => {
  let dir: string;
  let store: SqliteTaskStore;
  const newTask = (over: Partial<NewTask> = {}): NewTask => ({
    task_id: newTaskId(),
    original_filename: 'sheet.pdf',
    upload_path: '/data/uploads/x/original.pdf',
    schema: { a: '', b: { c: '' } },
    extractor: 'local',
    ...over,
  });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'task-store-'));
    store = new SqliteTaskStore({ path: join(dir, 'db', 'tasks.db') });
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('walks queued → running → succeeded, each step persisted (a second connection sees it)', () => {
    const task = store.create(newTask());
    expect(task).toMatchObject({
      status: 'queued',
      attempts: 0,
      started_at: null,
      result: null,
      schema: { a: '', b: { c: '' } },
    });
    const other = new SqliteTaskStore({ path: join(dir, 'db', 'tasks.db') });
    try {
      expect(store.claim(task.task_id, { stage: 'indexing' })).toMatchObject({
        status: 'running',
        attempts: 1,
        progress: { stage: 'indexing' },
      });
      expect(other.get(task.task_id)?.status).toBe('running');
      expect(store.claim(task.task_id, { stage: 'indexing' })).toBeUndefined();
      store.setProgress(task.task_id, { stage: 'extracting', fields_done: 1, fields_total: 2 });
      expect(other.get(task.task_id)?.progress).toEqual({ stage: 'extracting', fields_done: 1, fields_total: 2 });
      expect(store.succeed(task.task_id, { data: { a: 1 } })).toBe(true);
      const done = other.get(task.task_id);
      expect(done).toMatchObject({ status: 'succeeded', result: { data: { a: 1 } }, error: null });
      expect(done?.finished_at).not.toBeNull();
      expect(store.fail(task.task_id, { code: 'x', message: 'late', details: [] })).toBe(false);
    } finally {
      other.close();
    }
  });

  it('fails a task with the error shape, and a deleted task can no longer change', () => {
    const a = store.create(newTask());
    expect(
      store.fail(a.task_id, {
        code: 'unsupported_format',
        message: 'Unsupported file format: .pptx',
        details: ['Only PDF'],
      }),
    ).toBe(true);
    expect(store.get(a.task_id)?.error).toEqual({
      code: 'unsupported_format',
      message: 'Unsupported file format: .pptx',
      details: ['Only PDF'],
    });
    const b = store.create(newTask());
    store.claim(b.task_id, { stage: 'indexing' });
    expect(store.delete(b.task_id)).toBe(true);
    expect(store.succeed(b.task_id, {})).toBe(false);
    expect(store.get(b.task_id)).toBeUndefined();
    expect(store.delete(b.task_id)).toBe(false);
  });

  it('lists newest first, in pages, optionally by status', () => {
    const ids = Array.from({ length: 5 }, () => store.create(newTask()).task_id);
    store.fail(ids[1]!, { code: 'x', message: 'm', details: [] });
    const first = store.list({ limit: 2 });
    expect(first.tasks.map((t) => t.task_id)).toEqual([ids[4], ids[3]]);
    const second = store.list({ limit: 2, cursor: first.next_cursor });
    expect(second.tasks.map((t) => t.task_id)).toEqual([ids[2], ids[1]]);
    const third = store.list({ limit: 2, cursor: second.next_cursor });
    expect(third.tasks.map((t) => t.task_id)).toEqual([ids[0]]);
    expect(third.next_cursor).toBeUndefined();
    expect(store.list({ limit: 10, status: 'failed' }).tasks.map((t) => t.task_id)).toEqual([ids[1]]);
    expect(store.queuedIds()).toEqual([ids[0], ids[2], ids[3], ids[4]]);
  });

  it('re-queues interrupted running tasks at start-up while attempts remain, then fails them clearly', () => {
    const task = store.create(newTask());
    store.claim(task.task_id, { stage: 'extracting' });
    store.close();
    store = new SqliteTaskStore({ path: join(dir, 'db', 'tasks.db') });
    expect(store.recoverInterrupted(1)).toEqual({ requeued: [task.task_id], failed: [] });
    expect(store.get(task.task_id)).toMatchObject({ status: 'queued', attempts: 1 });
    store.claim(task.task_id, { stage: 'extracting' });
    store.close();
    store = new SqliteTaskStore({ path: join(dir, 'db', 'tasks.db') });
    expect(store.recoverInterrupted(1)).toEqual({ requeued: [], failed: [task.task_id] });
    expect(store.get(task.task_id)?.error).toMatchObject({
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
