import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runVectorStoreContract } from '../vector-store.contract.js';
import { EmbeddedVectorStore } from './embedded.adapter.js';

describe('VectorStore (embedded SQLite adapter)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lectern-vs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  runVectorStoreContract(() => new EmbeddedVectorStore({ dataDir: dir }));
});
