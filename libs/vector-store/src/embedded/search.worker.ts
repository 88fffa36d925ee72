// SPDX-License-Identifier: AGPL-3.0-or-later
// A search worker thread (SearchPool): dense, keyword and hybrid searches over its own read-only connection to
// the embedded store's file, with its own statement cache and a bounded SQLite page cache; the collections'
// matrices are shared with the other workers (SharedDenseCache, through the pool). It never writes.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { AppError } from '@lectern/contracts';
import { EmbeddedReader } from './embedded-reader.js';
import { SharedDenseCache, type MatrixBroker, type SharedMatrixHandle } from './shared-matrix.js';
import type {
  PoolMatrixMessage,
  SearchReply,
  SearchRequest,
  SearchWorkerData,
  WireError,
  WorkerMatrixMessage,
} from './search-pool.protocol.js';

const data = workerData as SearchWorkerData;
const port = parentPort;
if (!port) throw new Error('search.worker.ts runs as a worker thread');

const db = new Database(data.file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 10000');
db.pragma(`mmap_size = ${data.mmapBytes}`);
db.pragma(`cache_size = -${data.cacheKib}`);

const waiting = new Map<number, ((h: SharedMatrixHandle | 'build' | null) => void)[]>();
const send = (m: WorkerMatrixMessage): void => port.postMessage(m);
const broker: MatrixBroker = {
  acquire: (cid) =>
    new Promise((resolve) => {
      const list = waiting.get(cid);
      if (list) list.push(resolve);
      else {
        waiting.set(cid, [resolve]);
        send({ kind: 'acquire', cid });
      }
    }),
  publish: (handle) => send({ kind: 'publish', handle }),
  failed: (cid) => send({ kind: 'failed', cid }),
  claim: (cid) =>
    new Promise((resolve) => {
      (claims.get(cid) ?? claims.set(cid, []).get(cid)!).push(resolve);
      send({ kind: 'claim', cid });
    }),
};
const claims = new Map<number, ((granted: boolean) => void)[]>();
let matrices: SharedDenseCache | undefined;
const reader = EmbeddedReader.open(db, data.prefix, data.fusion, undefined, (stmt) => {
  matrices = new SharedDenseCache(db, stmt, broker, data.slot, data.slots);
  return matrices;
});

const onMatrix = (m: PoolMatrixMessage): void => {
  if (m.kind === 'drop') {
    matrices?.drop(m.cid);
    return;
  }
  if (m.kind === 'claimed') {
    claims.get(m.cid)?.shift()?.(m.granted);
    return;
  }
  if (m.handle !== null && m.handle !== 'build') matrices?.adopt(m.handle);
  const list = waiting.get(m.cid);
  waiting.delete(m.cid);
  for (const resolve of list ?? []) resolve(m.handle);
};

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

// After a quiet spell, the connection's spare page-cache memory goes back (SQLite's sqlite3_db_release_memory):
// memory comes down after a burst of load without capping the cache while searches run.
let idle: NodeJS.Timeout | undefined;
const searched = (): void => {
  clearTimeout(idle);
  idle = setTimeout(() => db.pragma('shrink_memory'), data.idleTrimMs);
  idle.unref();
};

port.on('message', (req: SearchRequest | PoolMatrixMessage) => {
  if ('kind' in req) return onMatrix(req);
  run(req).then(
    (hits) => port.postMessage({ id: req.id, ok: true, hits } satisfies SearchReply),
    (e: unknown) => port.postMessage({ id: req.id, ok: false, error: wire(e) } satisfies SearchReply),
  );
  searched();
});
