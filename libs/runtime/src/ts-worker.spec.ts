// SPDX-License-Identifier: AGPL-3.0-or-later
import { once } from 'node:events';
import { compiledWorker, tsWorker } from './ts-worker.js';

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

describe('compiledWorker', () => {
  const root = new URL('file:///srv/lectern/');
  it('maps a TypeScript worker entry under the root to its compiled bundle in dist/', () => {
    expect(compiledWorker(new URL('libs/conversion/src/pdf/pdf-page.worker.ts', root), root)?.href).toBe(
      'file:///srv/lectern/dist/libs/conversion/src/pdf/pdf-page.worker.js',
    );
  });
  it('leaves alone a file outside the root or not TypeScript', () => {
    expect(compiledWorker(new URL('file:///elsewhere/x.worker.ts'), root)).toBeNull();
    expect(compiledWorker(new URL('libs/x/y.worker.js', root), root)).toBeNull();
  });
});
