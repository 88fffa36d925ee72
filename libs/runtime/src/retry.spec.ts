// SPDX-License-Identifier: AGPL-3.0-or-later
import { backoffDelay, parseRetryAfter, retry } from './retry.js';

class Transient extends Error {}

describe('backoffDelay', () => {
  it('doubles from the base delay, capped, exactly when there is no jitter', () => {
    const policy = { attempts: 10, baseDelayMs: 100, maxDelayMs: 1000 };
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, policy))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });

  it('spreads each delay by the jitter share around the exponential value', () => {
    const policy = { attempts: 5, baseDelayMs: 1000, jitter: 0.25 };
    expect(backoffDelay(2, policy, () => 0)).toBe(1500);
    expect(backoffDelay(2, policy, () => 0.5)).toBe(2000);
    expect(backoffDelay(2, policy, () => 1)).toBe(2500);
  });
});

describe('retry', () => {
  const fast = { attempts: 4, baseDelayMs: 1, maxDelayMs: 5 };

  it('runs until the work succeeds, telling each retry with its attempt and delay', async () => {
    const retries: Array<{ attempt: number; delayMs: number }> = [];
    const seen: number[] = [];
    const result = await retry(
      async (attempt) => {
        seen.push(attempt);
        if (attempt < 3) throw new Transient(`try ${attempt}`);
        return 'done';
      },
      { ...fast, onRetry: ({ attempt, delayMs }) => retries.push({ attempt, delayMs }) },
    );
    expect(result).toBe('done');
    expect(seen).toEqual([1, 2, 3]);
    expect(retries).toEqual([
      { attempt: 1, delayMs: 1 },
      { attempt: 2, delayMs: 2 },
    ]);
  });

  it('throws the last failure after `attempts` runs', async () => {
    let runs = 0;
    await expect(
      retry(async (attempt) => {
        runs += 1;
        throw new Transient(`failure ${attempt}`);
      }, fast),
    ).rejects.toThrow('failure 4');
    expect(runs).toBe(4);
  });

  it('throws a failure the predicate calls permanent at once', async () => {
    let runs = 0;
    await expect(
      retry(
        async () => {
          runs += 1;
          throw new Error('bad request');
        },
        { ...fast, retryable: (e) => e instanceof Transient },
      ),
    ).rejects.toThrow('bad request');
    expect(runs).toBe(1);
  });

  it('waits what the failure asks (Retry-After), capped by maxDelayMs', async () => {
    const delays: number[] = [];
    await retry(
      async (attempt) => {
        if (attempt === 1) throw Object.assign(new Transient('slow down'), { retryAfterMs: 3 });
        if (attempt === 2) throw Object.assign(new Transient('slow down more'), { retryAfterMs: 60_000 });
        return 'ok';
      },
      {
        ...fast,
        retryAfterMs: (e) => (e as { retryAfterMs?: number }).retryAfterMs,
        onRetry: ({ delayMs }) => delays.push(delayMs),
      },
    );
    expect(delays).toEqual([3, 5]);
  });

  it('stops waiting and attempting when its signal aborts, with the signal’s reason', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled by the client');
    let runs = 0;
    const running = retry(
      async () => {
        runs += 1;
        throw new Transient('down');
      },
      {
        attempts: 5,
        baseDelayMs: 60_000,
        signal: controller.signal,
        onRetry: () => controller.abort(reason),
      },
    );
    await expect(running).rejects.toBe(reason);
    expect(runs).toBe(1);
    await expect(retry(async () => 'never', { attempts: 1, baseDelayMs: 1, signal: controller.signal })).rejects.toBe(
      reason,
    );
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates; ignores what it cannot read', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    const inAMinute = new Date(Date.now() + 60_000).toUTCString();
    expect(parseRetryAfter(inAMinute)).toBeGreaterThan(50_000);
  });
});
