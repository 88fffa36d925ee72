// SPDX-License-Identifier: AGPL-3.0-or-later
// A search worker thread (SearchPool): dense, keyword and hybrid searches over its own read-only connection to
// the embedded store's file, with its own statement and matrix caches (EmbeddedReader). It never writes.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { AppError } from '@lectern/contracts';
import { EmbeddedReader } from './embedded-reader.js';
import type { SearchReply, SearchRequest, SearchWorkerData, WireError } from './search-pool.protocol.js';

const data = workerData as SearchWorkerData;
const port = parentPort;
if (!port) throw new Error('search.worker.ts runs as a worker thread');

const db = new Database(data.file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 10000');
db.pragma('mmap_size = 1073741824');
db.pragma('cache_size = -65536');
const reader = EmbeddedReader.open(db, data.prefix, data.fusion);

const wire = (e: unknown): WireError =>
  e instanceof AppError
    ? { code: e.code, message: e.message, httpStatus: e.httpStatus, ...(e.details ? { details: e.details } : {}) }
    : { message: e instanceof Error ? e.message : String(e) };

const run = (req: SearchRequest) => {
  switch (req.op) {
    case 'dense':
      return reader.searchDense(req.name, req.vector, req.opts);
    case 'keyword':
      return reader.searchKeyword(req.name, req.text, req.opts);
    case 'hybrid':
      return reader.searchHybrid(req.name, { vector: req.vector, text: req.text }, req.opts);
    case 'stall':
      if (data.testHooks) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, req.ms);
      return Promise.resolve([]);
  }
};

port.on('message', (req: SearchRequest) => {
  run(req).then(
    (hits) => port.postMessage({ id: req.id, ok: true, hits } satisfies SearchReply),
    (e: unknown) => port.postMessage({ id: req.id, ok: false, error: wire(e) } satisfies SearchReply),
  );
});
