import { once } from 'node:events';
import { tsWorker } from './ts-worker.js';

describe('tsWorker', () => {
  it('runs a TypeScript worker module through the bootstrap, with its workerData', async () => {
    const entry = new URL('./ts-worker-echo.worker.ts', import.meta.url);
    const worker = tsWorker(entry, { workerData: { greeting: 'hello' } });
    try {
      const [reply] = await once(worker, 'message');
      expect(reply).toEqual({ greeting: 'HELLO', entry: entry.href });
    } finally {
      await worker.terminate();
    }
  });

  it('fails the worker when the entry module does not exist', async () => {
    const worker = tsWorker(new URL('./no-such.worker.ts', import.meta.url));
    const [error] = await once(worker, 'error');
    expect(String(error)).toMatch(/no-such\.worker\.ts/);
  });
});
