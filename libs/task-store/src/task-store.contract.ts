// SPDX-License-Identifier: AGPL-3.0-or-later
import { newTaskId } from './task-id.js';
import type { NewTask, TaskStore } from './task-store.port.js';

/** One empty backing store (a SQLite file, a Redis key prefix) that several stores may open; removed by `cleanup`. */
export interface TaskStoreFixture {
  open(): Promise<TaskStore>;
  cleanup(): Promise<void>;
}

/**
 * The behaviour every TaskStore adapter must show (spec 003 section 8): the status walk, each step visible to
 * another store on the same backing at once; guarded transitions (a task is claimed once; a deleted task cannot
 * change); the failure shape; newest-first pages by status; a job delivered again re-claims its own task only.
 */
export const runTaskStoreContract = (makeFixture: () => Promise<TaskStoreFixture>): void => {
  let fixture: TaskStoreFixture;
  let opened: TaskStore[];
  let store: TaskStore;
  const open = async (): Promise<TaskStore> => {
    const s = await fixture.open();
    opened.push(s);
    return s;
  };
  const newTask = (over: Partial<NewTask> = {}): NewTask => ({
    task_id: newTaskId(),
    original_filename: 'sheet.pdf',
    upload_path: '/data/uploads/x/original.pdf',
    schema: { a: '', b: { c: '' } },
    extractor: 'local',
    ...over,
  });

  beforeEach(async () => {
    fixture = await makeFixture();
    opened = [];
    store = await open();
  });
  afterEach(async () => {
    for (const s of opened) await s.close();
    await fixture.cleanup();
  });

  it('walks queued → running → succeeded, each step seen by another store on the same backing', async () => {
    const task = await store.create(newTask());
    expect(task).toMatchObject({
      status: 'queued',
      attempts: 0,
      started_at: null,
      finished_at: null,
      result: null,
      error: null,
      schema: { a: '', b: { c: '' } },
      original_filename: 'sheet.pdf',
      upload_path: '/data/uploads/x/original.pdf',
      extractor: 'local',
      progress: { stage: 'queued' },
    });
    const other = await open();
    expect(await store.claim(task.task_id, { stage: 'indexing' }, 'job-1')).toMatchObject({
      status: 'running',
      attempts: 1,
      progress: { stage: 'indexing' },
    });
    expect((await other.get(task.task_id))?.status).toBe('running');
    expect(await other.claim(task.task_id, { stage: 'indexing' }, 'job-2')).toBeUndefined();
    await store.setProgress(task.task_id, { stage: 'extracting', fields_done: 1, fields_total: 2 });
    expect((await other.get(task.task_id))?.progress).toEqual({ stage: 'extracting', fields_done: 1, fields_total: 2 });
    expect(await store.succeed(task.task_id, { data: { a: 1 } })).toBe(true);
    const done = await other.get(task.task_id);
    expect(done).toMatchObject({ status: 'succeeded', result: { data: { a: 1 } }, error: null });
    expect(done?.finished_at).not.toBeNull();
    expect(await store.fail(task.task_id, { code: 'x', message: 'late', details: [] })).toBe(false);
    expect(await store.claim(task.task_id, { stage: 'indexing' }, 'job-1')).toBeUndefined();
  });

  it('claims a task once among concurrent claimers', async () => {
    const task = await store.create(newTask());
    const stores = [store, await open(), await open()];
    const claims = await Promise.all(
      stores.flatMap((s, i) => [0, 1].map((j) => s.claim(task.task_id, { stage: 'indexing' }, `job-${i}-${j}`))),
    );
    expect(claims.filter((c) => c !== undefined)).toHaveLength(1);
    expect((await store.get(task.task_id))?.attempts).toBe(1);
  });

  it('lets the same job re-claim its running task (its worker died), counting an attempt; another job cannot', async () => {
    const task = await store.create(newTask());
    await store.claim(task.task_id, { stage: 'indexing' }, 'task-job-0');
    expect(await store.claim(task.task_id, { stage: 'indexing' }, 'task-job-other')).toBeUndefined();
    expect(await store.claim(task.task_id, { stage: 'indexing' })).toBeUndefined();
    expect(await store.claim(task.task_id, { stage: 'extracting' }, 'task-job-0')).toMatchObject({
      status: 'running',
      attempts: 2,
      progress: { stage: 'extracting' },
    });
  });

  it('fails a task with the error shape, re-queues a running one, and a deleted task can no longer change', async () => {
    const a = await store.create(newTask());
    const error = { code: 'unsupported_format', message: 'Unsupported file format: .pptx', details: ['Only PDF'] };
    expect(await store.fail(a.task_id, error)).toBe(true);
    expect((await store.get(a.task_id))?.error).toEqual(error);
    expect((await store.get(a.task_id))?.status).toBe('failed');

    const b = await store.create(newTask());
    await store.claim(b.task_id, { stage: 'indexing' }, 'j');
    expect(await store.requeue(b.task_id, 'Attempt 1 failed: boom')).toBe(true);
    expect(await store.get(b.task_id)).toMatchObject({
      status: 'queued',
      attempts: 1,
      progress: { stage: 'queued', message: 'Attempt 1 failed: boom' },
    });
    expect(await store.requeue(b.task_id)).toBe(false);
    await store.claim(b.task_id, { stage: 'indexing' }, 'j2');
    expect(await store.delete(b.task_id)).toBe(true);
    expect(await store.succeed(b.task_id, {})).toBe(false);
    expect(await store.get(b.task_id)).toBeUndefined();
    expect(await store.delete(b.task_id)).toBe(false);
    expect((await store.list({ limit: 10 })).tasks.map((t) => t.task_id)).toEqual([a.task_id]);
  });

  it('lists newest first, in pages, optionally by status; queued ids oldest first', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push((await store.create(newTask())).task_id);
    await store.fail(ids[1]!, { code: 'x', message: 'm', details: [] });
    const first = await store.list({ limit: 2 });
    expect(first.tasks.map((t) => t.task_id)).toEqual([ids[4], ids[3]]);
    const second = await store.list({ limit: 2, cursor: first.next_cursor });
    expect(second.tasks.map((t) => t.task_id)).toEqual([ids[2], ids[1]]);
    const third = await store.list({ limit: 2, cursor: second.next_cursor });
    expect(third.tasks.map((t) => t.task_id)).toEqual([ids[0]]);
    expect(third.next_cursor).toBeUndefined();
    expect((await store.list({ limit: 10, status: 'failed' })).tasks.map((t) => t.task_id)).toEqual([ids[1]]);
    expect(await store.queuedIds()).toEqual([ids[0], ids[2], ids[3], ids[4]]);
    await store.claim(ids[2]!, { stage: 'indexing' }, 'j');
    expect(await store.queuedIds()).toEqual([ids[0], ids[3], ids[4]]);
    expect((await store.list({ limit: 10, status: 'running' })).tasks.map((t) => t.task_id)).toEqual([ids[2]]);
  });

  it('keeps every task across a close and a new store (durable)', async () => {
    const task = await store.create(newTask());
    await store.claim(task.task_id, { stage: 'indexing' }, 'j');
    await store.succeed(task.task_id, { data: { a: 'x' } });
    await store.close();
    opened = opened.filter((s) => s !== store);
    const again = await open();
    expect(await again.get(task.task_id)).toMatchObject({ status: 'succeeded', result: { data: { a: 'x' } } });
  });
};
