// SPDX-License-Identifier: AGPL-3.0-or-later
import { ResourcePool } from './resource-pool.js';

interface Res {
  id: number;
  broken: boolean;
  destroyed: boolean;
}

function makePool(size: number, idleMs?: number): { pool: ResourcePool<Res>; created: Res[] } {
  const created: Res[] = [];
  const pool = new ResourcePool<Res>({
    size,
    ...(idleMs === undefined ? {} : { idleMs }),
    create: async () => {
      const r = { id: created.length + 1, broken: false, destroyed: false };
      created.push(r);
      return r;
    },
    destroy: async (r) => {
      r.destroyed = true;
    },
    isBroken: (r) => r.broken,
  });
  return { pool, created };
}

const deferred = (): { promise: Promise<void>; resolve: () => void } => {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

describe('ResourcePool (worker pools of the conversion lib)', () => {
  it('creates at most `size` resources, reuses them, and queues the rest in order', async () => {
    const { pool, created } = makePool(2);
    const gate = deferred();
    const order: number[] = [];
    const tasks = [1, 2, 3, 4].map((n) =>
      pool.use(async (r) => {
        await gate.promise;
        order.push(n);
        return r.id;
      }),
    );
    await new Promise((r) => setImmediate(r));
    expect(created).toHaveLength(2);
    gate.resolve();
    const ids = await Promise.all(tasks);
    expect(created).toHaveLength(2);
    expect(new Set(ids)).toEqual(new Set([1, 2]));
    expect(order).toEqual([1, 2, 3, 4]);
  });

  it('destroys the resource of an aborted task and replaces it for the next one', async () => {
    const { pool, created } = makePool(1);
    const ac = new AbortController();
    const stuck = pool.use(() => new Promise<void>(() => undefined), ac.signal);
    await new Promise((r) => setImmediate(r));
    ac.abort(new Error('timeout'));
    await expect(stuck).rejects.toThrow('timeout');
    expect(created[0]?.destroyed).toBe(true);
    expect(await pool.use(async (r) => r.id)).toBe(2);
  });

  it('gives up waiting when the signal aborts, without taking a resource', async () => {
    const { pool } = makePool(1);
    const gate = deferred();
    const busy = pool.use(() => gate.promise);
    const ac = new AbortController();
    const waiting = pool.use(async () => 'never', ac.signal);
    ac.abort(new Error('gave up'));
    await expect(waiting).rejects.toThrow('gave up');
    gate.resolve();
    await busy;
    expect(await pool.use(async (r) => r.id)).toBe(1);
  });

  it('replaces a resource that broke while idle (its thread exited)', async () => {
    const { pool, created } = makePool(1);
    await pool.use(async () => undefined);
    const first = created[0];
    if (first) first.broken = true;
    expect(await pool.use(async (r) => r.id)).toBe(2);
    expect(first?.destroyed).toBe(true);
  });

  it('warms up: creates every resource ahead of use', async () => {
    const { pool, created } = makePool(3);
    await pool.warm();
    expect(created).toHaveLength(3);
    await Promise.all([1, 2, 3].map(() => pool.use(async () => undefined)));
    expect(created).toHaveLength(3);
  });

  it('refuses work after close and destroys idle resources', async () => {
    const { pool, created } = makePool(2);
    await pool.use(async () => undefined);
    await pool.close();
    expect(created[0]?.destroyed).toBe(true);
    await expect(pool.use(async () => undefined)).rejects.toThrow('pool closed');
  });

  describe('idle release (idleMs)', () => {
    const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

    it('destroys a resource left idle for idleMs, and creates a new one when next needed', async () => {
      const { pool, created } = makePool(2, 30);
      await pool.use(async () => undefined);
      expect(pool.liveCount).toBe(1);
      await sleep(150);
      expect(created[0]?.destroyed).toBe(true);
      expect(pool.liveCount).toBe(0);
      await pool.use(async (r) => expect(r.id).toBe(2));
      expect(created).toHaveLength(2);
      await pool.close();
    });

    it('keeps a resource that is used again before its idle period ends', async () => {
      const { pool, created } = makePool(1, 5000);
      for (let i = 0; i < 3; i++) {
        await pool.use(async () => undefined);
        await sleep(20);
      }
      expect(created).toHaveLength(1);
      expect(created[0]?.destroyed).toBe(false);
      await pool.close();
      expect(created[0]?.destroyed).toBe(true);
    });

    it('without idleMs keeps idle resources until close', async () => {
      const { pool, created } = makePool(1);
      await pool.use(async () => undefined);
      await sleep(100);
      expect(created[0]?.destroyed).toBe(false);
      expect(pool.liveCount).toBe(1);
      await pool.close();
    });
  });
});
