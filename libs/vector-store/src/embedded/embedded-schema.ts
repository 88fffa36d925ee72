// SPDX-License-Identifier: AGPL-3.0-or-later
import type { Statement } from 'better-sqlite3';
import type { EmbeddingFingerprint } from '../vector-store.port.js';

/** Catalogue of collections; each collection's rows live in tables named by its never-reused `cid`. */
export const CATALOG_DDL = `
CREATE TABLE IF NOT EXISTS vs_collections (
  cid INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  fingerprint TEXT NOT NULL,
  hybrid INTEGER NOT NULL,
  version INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);`;

export const pointsTable = (cid: number): string => `vs_points_${cid}`;
export const chunksTable = (cid: number): string => `vs_chunks_${cid}`;
export const vectorsTable = (cid: number): string => `vs_vectors_${cid}`;
export const deletedTable = (cid: number): string => `vs_deleted_${cid}`;
export const ftsTable = (cid: number): string => `vs_fts_${cid}`;

/** The lexical fields beside the text in the chunks table (added to an older file's table on open). */
const CHUNK_FIELD_COLUMNS = `title TEXT NOT NULL DEFAULT '', section TEXT NOT NULL DEFAULT '', codes TEXT NOT NULL DEFAULT ''`;
export const CHUNK_FIELDS = ['title', 'section', 'codes'] as const;

/**
 * A point is spread over three tables sharing its `rid` (never reused: AUTOINCREMENT):
 * - points (id, payload): narrow, so payload filters scan few pages (with text and vector in the same
 *   row, a filter over 10k rows took 24-44 ms: every row filled most of a page);
 * - chunks (text, title, section, codes): the full-text index's content table (the lexical fields, lexical.ts);
 * - vectors (ver, vector): what the in-memory matrix loads; `ver` is the collection version that last wrote
 *   the point (an upsert, or a payload patch: the vector then unchanged), and deleted rids are logged with
 *   their version, so a process holding version V catches up by reading only the points changed after V
 *   (another process's writes cost what they changed): the matrix, and the keyword side's per-point cache.
 * Deleting a point deletes its chunk and vector rows (trigger); the full-text index follows its content.
 */
export const createPointsSql = (cid: number): string => {
  const [p, c, v, d] = [pointsTable(cid), chunksTable(cid), vectorsTable(cid), deletedTable(cid)];
  return `
CREATE TABLE ${p} (rid INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, payload BLOB NOT NULL);
CREATE TABLE ${c} (rid INTEGER PRIMARY KEY, text TEXT NOT NULL, ${CHUNK_FIELD_COLUMNS});
CREATE TABLE ${v} (rid INTEGER PRIMARY KEY, ver INTEGER NOT NULL, vector BLOB NOT NULL);
CREATE INDEX ${v}_ver ON ${v}(ver);
CREATE TABLE ${d} (rid INTEGER NOT NULL, ver INTEGER NOT NULL);
CREATE INDEX ${d}_ver ON ${d}(ver);
CREATE TRIGGER ${p}_ad AFTER DELETE ON ${p} BEGIN
  DELETE FROM ${c} WHERE rid = old.rid;
  DELETE FROM ${v} WHERE rid = old.rid;
END;`;
};

/** The full-text table's definition; a file whose index was made by another one is re-indexed on open. */
export const ftsTableSql = (cid: number): string =>
  `CREATE VIRTUAL TABLE ${ftsTable(cid)} USING fts5(text, title, section, codes, content='${chunksTable(cid)}', content_rowid='rid', tokenize='porter unicode61 remove_diacritics 2')`;

/**
 * Full text: an FTS5 external-content index over the chunk text and its lexical fields (porter stemming,
 * diacritics folded), kept in step by triggers inside the same transaction as the row change. Built from
 * existing rows.
 */
export const createFtsSql = (cid: number): string => {
  const c = chunksTable(cid);
  const f = ftsTable(cid);
  const cols = 'text, title, section, codes';
  const nw = 'new.text, new.title, new.section, new.codes';
  const old = 'old.text, old.title, old.section, old.codes';
  return `
${ftsTableSql(cid)};
CREATE TRIGGER ${f}_ai AFTER INSERT ON ${c} BEGIN
  INSERT INTO ${f}(rowid, ${cols}) VALUES (new.rid, ${nw});
END;
CREATE TRIGGER ${f}_ad AFTER DELETE ON ${c} BEGIN
  INSERT INTO ${f}(${f}, rowid, ${cols}) VALUES ('delete', old.rid, ${old});
END;
CREATE TRIGGER ${f}_au AFTER UPDATE ON ${c} BEGIN
  INSERT INTO ${f}(${f}, rowid, ${cols}) VALUES ('delete', old.rid, ${old});
  INSERT INTO ${f}(rowid, ${cols}) VALUES (new.rid, ${nw});
END;
INSERT INTO ${f}(${f}) VALUES ('rebuild');`;
};

/** Drops a full-text index and its triggers (the content table stays). */
export const dropFtsSql = (cid: number): string => {
  const f = ftsTable(cid);
  return `DROP TRIGGER IF EXISTS ${f}_ai; DROP TRIGGER IF EXISTS ${f}_ad; DROP TRIGGER IF EXISTS ${f}_au; DROP TABLE IF EXISTS ${f};`;
};

export const dropCollectionSql = (cid: number): string =>
  [ftsTable, pointsTable, chunksTable, vectorsTable, deletedTable]
    .map((t) => `DROP TABLE IF EXISTS ${t(cid)};`)
    .join(' ');

export interface CatalogRow {
  cid: number;
  name: string;
  fingerprint: string;
  hybrid: number;
  version: number;
}

export interface Collection {
  cid: number;
  name: string;
  fingerprint: EmbeddingFingerprint;
  hybrid: boolean;
  version: number;
}

export const toCollection = (r: CatalogRow): Collection => ({
  cid: r.cid,
  name: r.name,
  fingerprint: JSON.parse(r.fingerprint) as EmbeddingFingerprint,
  hybrid: r.hybrid === 1,
  version: r.version,
});

/**
 * A collection's catalogue row by its physical name, through a connection's statement cache (`Stmt`): every search
 * and every project lookup reads it, and preparing the statement each time cost more than running it.
 */
export const readCollection = (stmt: (sql: string) => Statement, physicalName: string): Collection | null => {
  const r = stmt('SELECT cid, name, fingerprint, hybrid, version FROM vs_collections WHERE name = ?').get(
    physicalName,
  ) as CatalogRow | undefined;
  return r ? toCollection(r) : null;
};
