// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Child process for the crash test: commits one upsert, then starts a second one of two write batches
 * (`EMBEDDED_WRITE_BATCH` points each) and hangs inside the second batch's transaction (after half of its rows are
 * written) until the parent kills it.
 * Run: node --import tsx crash-writer.fixture.ts <dataDir> <collection>
 */
import { writeSync } from 'node:fs';
import type { Point } from '../vector-store.port.js';
import { EmbeddedVectorStore, EMBEDDED_WRITE_BATCH } from './embedded.adapter.js';

const dataDir = process.argv[2] ?? '';
const name = process.argv[3] ?? '';
const fingerprint = { model_id: 'test/mini-4d', revision: 'r1', dimension: 4, normalized: true };
const point = (batch: number, i: number): Point => ({
  id: `b${batch}-${i}`,
  vector: [1, batch, i % 7, 0.5],
  text: `batch ${batch} row ${i}`,
  payload: { batch, i },
});

const store = new EmbeddedVectorStore({ dataDir });
await store.upsert(
  name,
  Array.from({ length: 100 }, (_, i) => point(1, i)),
  { fingerprint },
);
writeSync(1, 'committed\n');
const second = Array.from({ length: 2 * EMBEDDED_WRITE_BATCH }, (_, i) => point(2, i));
// JSON.stringify calls toJSON while the row is written, i.e. inside the open transaction.
(second[EMBEDDED_WRITE_BATCH + EMBEDDED_WRITE_BATCH / 2] as Point).payload = {
  toJSON(): never {
    writeSync(1, 'inside\n');
    for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
  },
};
await store.upsert(name, second, { fingerprint });
writeSync(1, 'unreachable\n');
