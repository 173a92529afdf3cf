/**
 * The statements of persistence: documents by id, index entries as ordered byte keys (`values.ts`),
 * per-table counts and `meta`. Each connection prepares its own.
 */
import type Database from "better-sqlite3";
import { IndexRow } from "./document.ts";

/**
 * A statement's row limit, bound per run. Not a bare `LIMIT ?`: SQLite's planner reads a bare bound
 * limit (sqlite3ExprIsInteger), which marks the parameter so that every new binding expires the
 * statement and its next step prepares it again, parse and plan included (4–6 µs, more than the scan
 * of a small range costs). An expression it does not fold leaves the statement prepared once
 * (decision 047). better-sqlite3 does not expose SQLITE_DBCONFIG_ENABLE_QPSG, which would also stop it.
 */
export const BOUND_LIMIT = "LIMIT ? + 0";

/** A database index row as the scan statements return it. */
export type IndexRowColumns = [key: Buffer, value: string];

/** The statements a connection runs (those that write fail on the read-only one). */
export function prepareStatements(db: Database.Database) {
  return {
    // Statements whose rows are many or frequent return arrays (`raw()`): half the cost of
    // better-sqlite3 building an object per row.
    getDocument: db
      .prepare<[string], [component: string, table: string, value: string]>(
        "SELECT component, table_name, value FROM documents WHERE id = ?",
      )
      .raw(),
    putDocument: db.prepare<[string, string, string, string]>(
      "INSERT INTO documents (id, component, table_name, value) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET value = excluded.value",
    ),
    deleteDocument: db.prepare<[string]>("DELETE FROM documents WHERE id = ?"),
    tableDocuments: db.prepare<[string, string], { value: string }>(
      "SELECT value FROM documents WHERE component = ? AND table_name = ?",
    ),
    putEntry: db.prepare<[number, Buffer, string]>(
      "INSERT INTO index_entries (index_id, key, document_id) VALUES (?, ?, ?)",
    ),
    deleteEntry: db.prepare<[number, Buffer]>("DELETE FROM index_entries WHERE index_id = ? AND key = ?"),
    deleteIndexEntries: db.prepare<[number]>("DELETE FROM index_entries WHERE index_id = ?"),
    scanAsc: db
      .prepare<[number, Buffer, Buffer, number], IndexRowColumns>(
        `SELECT e.key, d.value FROM index_entries e JOIN documents d ON d.id = e.document_id
         WHERE e.index_id = ? AND e.key > ? AND e.key < ? ORDER BY e.key ASC ${BOUND_LIMIT}`,
      )
      .raw(),
    scanAscFrom: db
      .prepare<[number, Buffer, Buffer, number], IndexRowColumns>(
        `SELECT e.key, d.value FROM index_entries e JOIN documents d ON d.id = e.document_id
         WHERE e.index_id = ? AND e.key >= ? AND e.key < ? ORDER BY e.key ASC ${BOUND_LIMIT}`,
      )
      .raw(),
    scanDesc: db
      .prepare<[number, Buffer, Buffer, number], IndexRowColumns>(
        `SELECT e.key, d.value FROM index_entries e JOIN documents d ON d.id = e.document_id
         WHERE e.index_id = ? AND e.key >= ? AND e.key < ? ORDER BY e.key DESC ${BOUND_LIMIT}`,
      )
      .raw(),
    countEntries: db
      .prepare<[number, Buffer, Buffer, number], [count: number]>(
        `SELECT count(*) FROM (SELECT 1 FROM index_entries
         WHERE index_id = ? AND key >= ? AND key < ? ${BOUND_LIMIT})`,
      )
      .raw(),
    count: db.prepare<[string, string], { count: number }>(
      "SELECT count FROM table_counts WHERE component = ? AND table_name = ?",
    ),
    addCount: db.prepare<[string, string, number]>(
      `INSERT INTO table_counts (component, table_name, count) VALUES (?, ?, ?)
       ON CONFLICT (component, table_name) DO UPDATE SET count = count + excluded.count`,
    ),
    tableNames: db.prepare<[string], { table_name: string }>(
      "SELECT table_name FROM table_counts WHERE component = ? AND count > 0",
    ),
    setMeta: db.prepare<[string, string]>(
      "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    ),
  };
}

/** The statements every connection has (`prepareStatements`). */
export type Statements = ReturnType<typeof prepareStatements>;

/** A scan's index, key range, order, position and row limit (`scanIndex`'s arguments after its statements). */
export type ScanArgs = [
  index: { id: number },
  lower: Buffer,
  upper: Buffer,
  order: "asc" | "desc",
  after: Buffer | null,
  limit: number,
];

/**
 * Up to `limit` rows of a database index with keys in [lower, upper), in key order or its reverse,
 * strictly after `after` (in the direction of travel) when given: persistence's reads, and an
 * isolate's own (decision 092).
 */
export function scanIndex(
  statements: Statements,
  ...[index, lower, upper, order, after, limit]: ScanArgs
): IndexRow[] {
  let rows: IndexRowColumns[];
  if (order === "asc") {
    rows =
      after && Buffer.compare(after, lower) >= 0
        ? statements.scanAsc.all(index.id, after, upper, limit)
        : statements.scanAscFrom.all(index.id, lower, upper, limit);
  } else {
    const end = after && Buffer.compare(after, upper) < 0 ? after : upper;
    rows = statements.scanDesc.all(index.id, lower, end, limit);
  }
  return rows.map(([key, value]) => new IndexRow(key, value));
}
