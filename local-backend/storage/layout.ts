/**
 * The database's layout, and the upgrades of every earlier one: `snapshot.json` of the earliest store,
 * then the SQLite layouts 1–3. Finishing some needs the indexes kept above (`LayoutUpgrades`): the
 * layer that keeps them passes them in.
 */
import { existsSync, readFileSync, renameSync } from "node:fs";
import path from "node:path";
import type Database from "better-sqlite3";
import { jsonToConvex, type JSONValue } from "convex/values";
import { parseDocument, type Document } from "./document.ts";
import type { Counters } from "./counters.ts";
import { DATABASE_FILE } from "./folder.ts";

/**
 * 1: documents only (the first SQLite store); 2: documents with indexes; 3: no search row for a text
 * without words; 4: documents in a rowid table (`moveDocumentsToRowidTable`).
 */
export const LAYOUT_VERSION = 4;
/**
 * Documents by id. A rowid table with a unique index on the id, not a WITHOUT ROWID table keyed by it:
 * such a table is one B-tree of whole records, and a lookup compares the id it seeks with whole
 * records, reading those that overflow their page (most documents here are over 1 KB) in full at
 * every step. Here the search compares ids in the small index and reads one record (decision 044).
 */
export const DOCUMENTS_TABLE = `
  CREATE TABLE IF NOT EXISTS documents (
    id TEXT NOT NULL UNIQUE,
    component TEXT NOT NULL,
    table_name TEXT NOT NULL,
    value TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS documents_by_table ON documents (component, table_name, id);
`;
/** Persistence's own tables: documents, index entries (an index's keys as ordered bytes), counts. */
export const PERSISTENCE_TABLES = `
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  ${DOCUMENTS_TABLE}
  CREATE TABLE IF NOT EXISTS index_entries (
    index_id INTEGER NOT NULL,
    key BLOB NOT NULL,
    document_id TEXT NOT NULL,
    PRIMARY KEY (index_id, key)
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS table_counts (
    component TEXT NOT NULL,
    table_name TEXT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (component, table_name)
  ) WITHOUT ROWID;
`;
const SNAPSHOT_FORMAT = "livelocal-local-backend-snapshot";

export function readMeta(db: Database.Database, key: string): string | null {
  const row = db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined;
  return row?.value ?? null;
}

export function writeMeta(db: Database.Database, key: string, value: string): void {
  db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)").run(key, value);
}

/**
 * Upgrades what can be upgraded before the tables are made: the first SQLite store's documents are
 * set aside to be rebuilt with their indexes (`finishLayout`), and layouts 2 and 3's moved into the
 * rowid table.
 */
export function upgradeLayout(db: Database.Database): void {
  db.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;");
  if (readMeta(db, "schemaVersion") === "1") {
    // The first SQLite store kept documents without indexes: rebuild them in the new layout.
    db.exec("ALTER TABLE documents RENAME TO documents_v1; DROP INDEX IF EXISTS documents_by_table;");
    writeMeta(db, "schemaVersion", "migrating");
  }
  moveDocumentsToRowidTable(db);
}

/**
 * Layouts 2 and 3 kept documents in a WITHOUT ROWID table (see `DOCUMENTS_TABLE`): copies them into
 * the rowid table, in one transaction. Nothing else refers to a document but by its id.
 */
function moveDocumentsToRowidTable(db: Database.Database): void {
  const sql = db
    .prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'documents'")
    .pluck()
    .get() as string | undefined;
  if (!sql || !/WITHOUT\s+ROWID/i.test(sql)) return;
  db.transaction(() => {
    db.exec(`
      ALTER TABLE documents RENAME TO documents_without_rowid;
      DROP INDEX IF EXISTS documents_by_table;
      ${DOCUMENTS_TABLE}
      INSERT INTO documents (id, component, table_name, value)
        SELECT id, component, table_name, value FROM documents_without_rowid;
      DROP TABLE documents_without_rowid;
    `);
  })();
}

/** What finishing an upgrade needs from the layer that keeps the indexes. */
export type LayoutUpgrades = {
  /** Writes documents of the root app as they are, with their index entries, in one transaction. */
  importDocuments(documents: Document[], counters?: Partial<Counters>): void;
  /**
   * Layout 2 kept a search row for every text, those without words too: drops them (inside the
   * upgrade's transaction).
   */
  dropWordlessSearchRows(): void;
  /** Flushes the WAL. */
  flushNow(): void;
};

/**
 * Finishes opening the database in `dir` (in memory when null) once every table exists: rebuilds a
 * version-1 store's documents, imports a `snapshot.json`, drops layout 2's wordless search rows, and
 * records the layout. True when the data is new (no earlier store or snapshot).
 */
export function finishLayout(db: Database.Database, dir: string | null, upgrades: LayoutUpgrades): boolean {
  const stored = readMeta(db, "schemaVersion");
  if (stored === "migrating") {
    // Finishes a migration from the first SQLite layout (once the new tables exist).
    const rows = db.prepare("SELECT value FROM documents_v1").all() as { value: string }[];
    upgrades.importDocuments(rows.map((row) => parseDocument(row.value)));
    db.exec("DROP TABLE documents_v1");
    writeMeta(db, "schemaVersion", String(LAYOUT_VERSION));
    return false;
  }
  if (stored === null) {
    writeMeta(db, "schemaVersion", String(LAYOUT_VERSION));
    return !importSnapshot(dir, upgrades);
  }
  if (stored === "2") {
    db.transaction(() => {
      upgrades.dropWordlessSearchRows();
      writeMeta(db, "schemaVersion", String(LAYOUT_VERSION));
    })();
    upgrades.flushNow();
    return false;
  }
  if (stored !== String(LAYOUT_VERSION)) writeMeta(db, "schemaVersion", String(LAYOUT_VERSION));
  return false;
}

/** Loads what the earliest store left (a `snapshot.json`); true if there was any. */
function importSnapshot(dir: string | null, upgrades: LayoutUpgrades): boolean {
  const file = dir ? path.join(dir, "snapshot.json") : null;
  if (!file || !existsSync(file)) return false;
  let imported: { documents: Document[]; nextDocId: number; lastCreationTime: number };
  try {
    imported = readSnapshotFile(readFileSync(file, "utf8"));
  } catch (e) {
    const aside = `${file}.unreadable-${Date.now()}`;
    renameSync(file, aside);
    console.warn(`local-backend: could not read ${file} (${String(e)}); moved it to ${aside}`);
    return false;
  }
  upgrades.importDocuments(imported.documents, imported);
  renameSync(file, `${file}.imported`);
  console.log(`local-backend: imported ${file} into ${DATABASE_FILE} (kept as snapshot.json.imported)`);
  return true;
}

type SnapshotFile = {
  format: string;
  version: number;
  nextDocId: number;
  lastCreationTime: number;
  documents: JSONValue[];
};

/** The documents and counters of a `snapshot.json` written by the earliest store. */
export function readSnapshotFile(text: string): {
  documents: Document[];
  nextDocId: number;
  lastCreationTime: number;
} {
  const file = JSON.parse(text) as SnapshotFile;
  if (file.format !== SNAPSHOT_FORMAT || file.version !== 1) {
    throw new Error(`Unknown snapshot format ${String(file.format)} v${String(file.version)}`);
  }
  return {
    documents: file.documents.map((json) => jsonToConvex(json) as Document),
    nextDocId: file.nextDocId,
    lastCreationTime: file.lastCreationTime,
  };
}
