// SPDX-License-Identifier: AGPL-3.0-or-later
import type { Database } from 'better-sqlite3';
import type { Logger } from '@lectern/runtime';
import { lexicalFields } from '../lexical.js';
import {
  CHUNK_FIELDS,
  chunksTable,
  createFtsSql,
  dropFtsSql,
  ftsTable,
  ftsTableSql,
  pointsTable,
  type CatalogRow,
} from './embedded-schema.js';

/** Fills the lexical fields of a collection's chunks (all, or those of `rids`) from their payload and text. */
export const fillLexicalFields = (db: Database, cid: number, rids?: number[]): number => {
  // Paged by rid (better-sqlite3 allows no write while a read iterates on the same connection).
  const read = db.prepare(
    `SELECT p.rid AS rid, json(p.payload) AS payload, ch.text AS text FROM ${pointsTable(cid)} p
     JOIN ${chunksTable(cid)} ch ON ch.rid = p.rid
     WHERE p.rid > ?${rids ? ' AND p.rid IN (SELECT value FROM json_each(?))' : ''} ORDER BY p.rid LIMIT 1000`,
  );
  const write = db.prepare(`UPDATE ${chunksTable(cid)} SET title = ?, section = ?, codes = ? WHERE rid = ?`);
  let n = 0;
  for (let after = -1; ; ) {
    const page = read.all(after, ...(rids ? [JSON.stringify(rids)] : [])) as {
      rid: number;
      payload: string;
      text: string;
    }[];
    for (const r of page) {
      const f = lexicalFields(JSON.parse(r.payload) as Record<string, unknown>, r.text);
      write.run(f.title, f.section, f.codes, r.rid);
    }
    n += page.length;
    const last = page[page.length - 1];
    if (!last || page.length < 1000) return n;
    after = last.rid;
  }
};

/**
 * Brings a file written by an older version up to the current lexical schema, on open: a chunks table without
 * the lexical columns gets them (filled from each point's payload and text), and a full-text index whose
 * definition differs from `ftsTableSql` (the text-only index of earlier versions) is dropped and rebuilt.
 * One IMMEDIATE transaction per collection, re-checked inside it (another process may have upgraded it first).
 * Returns the collections upgraded.
 */
export const upgradeLexicalSchema = (db: Database, log?: Logger): string[] => {
  const upgraded: string[] = [];
  const collections = db.prepare('SELECT cid, name, hybrid FROM vs_collections').all() as Pick<
    CatalogRow,
    'cid' | 'name' | 'hybrid'
  >[];
  for (const c of collections) {
    const run = db.transaction((): boolean => {
      const cols = new Set(
        (db.prepare(`PRAGMA table_info(${chunksTable(c.cid)})`).all() as { name: string }[]).map((x) => x.name),
      );
      if (cols.size === 0) return false; // dropped meanwhile
      const missing = CHUNK_FIELDS.filter((f) => !cols.has(f));
      const fts = db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').pluck().get(ftsTable(c.cid)) as
        | string
        | undefined;
      const staleIndex = c.hybrid === 1 && fts !== ftsTableSql(c.cid);
      if (missing.length === 0 && !staleIndex) return false;
      // The index goes first: an old update trigger would not see the new columns.
      if (c.hybrid === 1) db.exec(dropFtsSql(c.cid));
      for (const f of missing) {
        db.exec(`ALTER TABLE ${chunksTable(c.cid)} ADD COLUMN ${f} TEXT NOT NULL DEFAULT ''`);
      }
      const n = fillLexicalFields(db, c.cid);
      if (c.hybrid === 1) db.exec(createFtsSql(c.cid));
      log?.info({ collection: c.name, chunks: n }, 'full-text index upgraded to the lexical fields; re-indexed');
      return true;
    });
    if (run.immediate()) upgraded.push(c.name);
  }
  return upgraded;
};
