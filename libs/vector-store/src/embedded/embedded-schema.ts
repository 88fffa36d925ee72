import type { Database } from 'better-sqlite3';
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
export const ftsTable = (cid: number): string => `vs_fts_${cid}`;

/** Points: the vector is the last column so payload/text reads stay on the row's first page. */
export const createPointsSql = (cid: number): string => `
CREATE TABLE ${pointsTable(cid)} (
  rid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  payload BLOB NOT NULL,
  text TEXT NOT NULL,
  vector BLOB NOT NULL
);`;

/**
 * Full text: an FTS5 external-content index over the points' text (porter stemming, diacritics folded),
 * kept in step by triggers inside the same transaction as the row change. Built from existing rows.
 */
export const createFtsSql = (cid: number): string => {
  const p = pointsTable(cid);
  const f = ftsTable(cid);
  return `
CREATE VIRTUAL TABLE ${f} USING fts5(text, content='${p}', content_rowid='rid', tokenize='porter unicode61 remove_diacritics 2');
CREATE TRIGGER ${f}_ai AFTER INSERT ON ${p} BEGIN
  INSERT INTO ${f}(rowid, text) VALUES (new.rid, new.text);
END;
CREATE TRIGGER ${f}_ad AFTER DELETE ON ${p} BEGIN
  INSERT INTO ${f}(${f}, rowid, text) VALUES ('delete', old.rid, old.text);
END;
CREATE TRIGGER ${f}_au AFTER UPDATE OF text ON ${p} BEGIN
  INSERT INTO ${f}(${f}, rowid, text) VALUES ('delete', old.rid, old.text);
  INSERT INTO ${f}(rowid, text) VALUES (new.rid, new.text);
END;
INSERT INTO ${f}(${f}) VALUES ('rebuild');`;
};

export const dropCollectionSql = (cid: number): string =>
  `DROP TABLE IF EXISTS ${ftsTable(cid)}; DROP TABLE IF EXISTS ${pointsTable(cid)};`;

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

export const readCollection = (db: Database, physicalName: string): Collection | null => {
  const r = db.prepare('SELECT cid, name, fingerprint, hybrid, version FROM vs_collections WHERE name = ?').get(physicalName) as
    | CatalogRow
    | undefined;
  return r ? toCollection(r) : null;
};
