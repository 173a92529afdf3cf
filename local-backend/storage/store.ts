/**
 * The embedded backend's storage layer: one SQLite database (`<data dir>/data.sqlite3`, WAL,
 * synchronous FULL; in memory without a data folder), laid out as Convex's own SQLite persistence
 * is: documents by id, and every index (the schema's, plus `by_creation_time` and `by_id` on each
 * table) as rows of `(index, key)` where the key is the indexed values encoded as ordered bytes
 * (`values.ts`). An index range with an order and a limit is then one range scan of one SQLite
 * index, whatever the table holds. Search indexes are SQLite FTS5 tables. Stored files live beside
 * it in `storage/<storage id>`.
 *
 * The store knows nothing of functions: `runner.ts` opens a transaction (`begin`), reads and writes
 * through it and commits. `commit()` returns once the transaction is on disk; `commitLater()` returns
 * as soon as SQLite has written it to the WAL (so a crash of this process cannot lose it) and flushes
 * the WAL to disk on the thread pool meanwhile: `durable()` resolves once every commit so far is on
 * disk, and nothing may tell anyone about a commit before (decision 041).
 */
import { createHash, randomFillSync } from "node:crypto";
import {
  closeSync,
  existsSync,
  fstatSync,
  fdatasync,
  fdatasyncSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";
import { jsonToConvex, type JSONValue, type Value } from "convex/values";
import { localId, localIdParts } from "../values/convex-ids.ts";
import { fromConvexJsonText, toConvexJsonText } from "../values/convex-json.ts";
import {
  DataFolderError,
  keepPrivate,
  prepareDataFolder,
  removeLeftoverTempFiles,
  removeUnnamedFiles,
  resetCommand,
  type WriteBytes,
} from "../core/files.ts";
import { tableFromId } from "../core/paths.ts";
import { WriteSet, type IndexKey } from "./read-set.ts";
import { AFTER, compareValues, encodeKey, fieldValue } from "../values/values.ts";

const DATABASE_FILE = "data.sqlite3";
/** Files a start writes after the database: one of them shows the folder was in use (its database existed). */
const KEY_FILES = ["admin-key", "file-url-secret", "auth-key.json"];
/**
 * 1: documents only (the first SQLite store); 2: documents with indexes; 3: no search row for a text
 * without words; 4: documents in a rowid table (`moveDocumentsToRowidTable`).
 */
const LAYOUT_VERSION = 4;
/**
 * Documents by id. A rowid table with a unique index on the id, not a WITHOUT ROWID table keyed by it:
 * such a table is one B-tree of whole records, and a lookup compares the id it seeks with whole
 * records, reading those that overflow their page (most documents here are over 1 KB) in full at
 * every step. Here the search compares ids in the small index and reads one record (decision 044).
 */
const DOCUMENTS_TABLE = `
  CREATE TABLE IF NOT EXISTS documents (
    id TEXT NOT NULL UNIQUE,
    component TEXT NOT NULL,
    table_name TEXT NOT NULL,
    value TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS documents_by_table ON documents (component, table_name, id);
`;
/**
 * A statement's row limit, bound per run. Not a bare `LIMIT ?`: SQLite's planner reads a bare bound
 * limit (sqlite3ExprIsInteger), which marks the parameter so that every new binding expires the
 * statement and its next step prepares it again, parse and plan included (4–6 µs, more than the scan
 * of a small range costs). An expression it does not fold leaves the statement prepared once
 * (decision 047). better-sqlite3 does not expose SQLITE_DBCONFIG_ENABLE_QPSG, which would also stop it.
 */
const BOUND_LIMIT = "LIMIT ? + 0";
/** SQLite checkpoints once the WAL holds this many pages (its default, set explicitly), then writes it from the start again. */
const WAL_CHECKPOINT_PAGES = 1000;
/**
 * Checkpoints the WAL on a connection of its own, in a worker thread (`checkpointAside`): after a long
 * write the WAL holds all of it, and copying that into the database took the backend's thread for
 * about a second per 100,000 documents.
 */
const CHECKPOINT_WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: 10000 });
try {
  parentPort.postMessage(db.pragma("wal_checkpoint(PASSIVE)")[0]);
} finally {
  db.close();
}
`;
/** Pages past the checkpoint the WAL is laid out for: the commit that crosses it. */
const WAL_SPARE_PAGES = 100;
/** SQLite's WAL format: a file header, then per page a frame header and the page. */
const WAL_HEADER_BYTES = 32;
const WAL_FRAME_HEADER_BYTES = 24;
const SNAPSHOT_FORMAT = "livelocal-local-backend-snapshot";
/** Convex returns at most this many search results. */
export const SEARCH_RESULT_CAP = 1024;
/** Convex uses at most this many terms of a search query. */
const MAX_SEARCH_TERMS = 16;
/**
 * How long a committed mutation's answer is kept for a client re-sending it (decision 056): Convex's
 * own window (`MAX_SESSION_CLEANUP_DURATION`, two weeks), longer than a tab plausibly stays asleep
 * with a mutation unanswered.
 */
export const ANSWER_RETENTION_MS = 14 * 24 * 3600_000;
/** Expired answers a recording commit deletes at most: more than it adds, so a backlog shrinks. */
export const ANSWER_PRUNE_BATCH = 16;
/** Stored files without a document removed at most per start (each one logged in the count). */
const MAX_UNNAMED_FILES_REMOVED = 1000;
/**
 * Mutations' answers by the sync session and request that asked (decision 056), written in the
 * mutation's own transaction: `result` is Convex's JSON text of its value, `log_lines` a JSON array.
 */
const MUTATION_ANSWERS_TABLE = `
  CREATE TABLE IF NOT EXISTS mutation_answers (
    session_id TEXT NOT NULL,
    request_id INTEGER NOT NULL,
    recorded_at INTEGER NOT NULL,
    result TEXT NOT NULL,
    log_lines TEXT NOT NULL,
    PRIMARY KEY (session_id, request_id)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS mutation_answers_by_time ON mutation_answers (recorded_at);
`;

export type Document = Record<string, Value>;

/** The root app is component ""; a component's data is kept apart under its path. */
export type ComponentPath = string;

export type IndexDefinition = {
  id: number;
  component: ComponentPath;
  table: string;
  name: string;
  kind: "db" | "search";
  /** Database indexes: the declared fields (then `_creationTime`, `_id` are appended). */
  fields: string[];
  /** Search indexes. */
  searchField?: string;
  filterFields?: string[];
};

/** What the schema declares for one table's indexes. */
export type TableIndexes = {
  table: string;
  indexes: { indexDescriptor: string; fields: string[] }[];
  searchIndexes: { indexDescriptor: string; searchField: string; filterFields: string[] }[];
};

/** A database index row as the scan statements return it. */
type IndexRowColumns = [key: Buffer, value: string];

export type StoredDocument = { component: ComponentPath; table: string; doc: Document };

/** A committed mutation's answer, as recorded with its writes. */
export type RecordedAnswer = { result: string; logLines: string[] };

/** A row of an index: its key and its document as stored (Convex's JSON), parsed only when needed. */
export class IndexRow {
  private parsed: Document | undefined;

  constructor(
    readonly key: Buffer,
    readonly json: string,
  ) {}

  get doc(): Document {
    this.parsed ??= parseDocument(this.json);
    return this.parsed;
  }
}

type Counters = { nextDocId: number; lastCreationTime: number };

function parseDocument(text: string): Document {
  return fromConvexJsonText(text) as Document;
}

/** The key of `doc` in a database index over `fields`. */
export function indexKey(index: IndexDefinition, doc: Document): Buffer {
  if (index.name === "by_id") return encodeKey([doc._id]);
  const values = index.fields.map((field) => fieldValue(doc, field));
  values.push(doc._creationTime, doc._id);
  return encodeKey(values);
}

/** Whether two versions of a document have the same value at `field` (so the same bytes in a key). */
function sameField(a: Document, b: Document, field: string): boolean {
  const x = fieldValue(a, field);
  const y = fieldValue(b, field);
  return x === y || compareValues(x, y) === 0;
}

/** Every key that starts with `prefix`: [prefix, prefix ‖ 0xff). */
export function prefixRange(prefix: Buffer): { lower: Buffer; upper: Buffer } {
  return { lower: prefix, upper: Buffer.concat([prefix, Buffer.from([AFTER])]) };
}

/**
 * A document's row in a search index: its text and scope tokens. Null when the field is not text or
 * has no word in it (no letter, digit or private-use character, which is what FTS5's unicode61
 * tokenizer keeps): no query can match such a document, so it needs no row, and a change to its
 * filter fields (the explore listings' `rank`, on every row but the one carrying the text) costs
 * nothing.
 */
type SearchEntry = { text: string; scope: string };

const WORD_CHARACTER = /[\p{L}\p{N}\p{Co}]/u;

function searchEntry(index: IndexDefinition, doc: Document): SearchEntry | null {
  const text = fieldValue(doc, index.searchField!);
  if (typeof text !== "string" || !WORD_CHARACTER.test(text)) return null;
  const scope = [
    `i${index.id}`,
    ...(index.filterFields ?? []).map((f) => filterToken(f, fieldValue(doc, f))),
  ];
  return { text, scope: scope.join(" ") };
}

function filterToken(field: string, value: Value | undefined): string {
  const hash = createHash("sha1")
    .update(field)
    .update("\0")
    .update(encodeKey([value]))
    .digest("hex");
  return `f${hash.slice(0, 24)}`;
}

/**
 * Search query terms as Convex reads them: words of letters and digits, lower-cased (accents are
 * kept: Convex's tokenizer does not fold them, so `pokemon` does not find "Pokémon").
 */
export function searchTerms(query: string): string[] {
  return query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((term) => term.length > 0)
    .slice(0, MAX_SEARCH_TERMS);
}

/** Another backend holds the data folder's database (decision 048). */
export class FolderInUseError extends DataFolderError {}

/** SQLite's result code of an error it raised (`SQLITE_CORRUPT_INDEX` …), or null. */
function sqliteCode(e: unknown): string | null {
  return e instanceof Database.SqliteError ? e.code : null;
}

/** The file cannot be read as a database, or a page of it is damaged. */
function isDamage(code: string | null): boolean {
  return code !== null && /^SQLITE_(CORRUPT|NOTADB)/.test(code);
}

/** How to get going again after the database in `dir` is lost (one sentence, for the operator). */
function howToRestore(dir: string): string {
  const reset = resetCommand(dir);
  return `Keep a copy of the folder, then restore your last backup (made with \`npx convex export\`): \`${reset}\`, start the backend, and \`npx convex import --replace-all <backup>.zip\`; or start over with \`${reset}\`.`;
}

/** The file whose lock says a backend holds the data folder (decision 070). */
const LOCK_FILE = "backend.lock";

/**
 * Holds the data folder for this process (decisions 048 and 070): a small SQLite database in
 * exclusive locking mode, written once, keeps its file lock until it is closed or the process dies
 * (`kill -9` too). A folder another backend holds is refused (`FolderInUseError`) before anything in
 * it is touched.
 */
function holdFolder(dir: string): Database.Database {
  const file = path.join(dir, LOCK_FILE);
  let lock: Database.Database | null = null;
  try {
    lock = new Database(file, { timeout: 0 });
    lock.pragma("locking_mode = EXCLUSIVE");
    lock.exec("CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL); DELETE FROM holder;");
    lock.prepare("INSERT INTO holder (pid) VALUES (?)").run(process.pid);
    keepPrivate(file);
    return lock;
  } catch (e) {
    lock?.close();
    if (sqliteCode(e) === "SQLITE_BUSY") {
      throw new FolderInUseError(
        `Another backend is using the data folder ${dir}: stop it first, or give this one its own (--data-dir).`,
        { cause: e },
      );
    }
    if (sqliteCode(e) !== null) {
      throw new DataFolderError(
        `${file} could not be opened for writing (${(e as Error).message}): make the folder writable by the user running the backend, or give it another folder with --data-dir.`,
        { cause: e },
      );
    }
    throw e;
  }
}

/**
 * Opens the database in `dir` (in memory when null) in WAL mode with SQLite's normal locking, so that
 * a second, read-only connection of this process can read the last committed state while this one
 * holds a long write (`beginSnapshotReads`). The folder itself is held by `holdFolder`. One that
 * cannot be read or written is refused in words (`DataFolderError`).
 */
function openDatabase(dir: string | null): Database.Database {
  const file = dir ? path.join(dir, DATABASE_FILE) : ":memory:";
  let db: Database.Database | null = null;
  try {
    // Nothing else writes this database (the folder is held), and a read never waits for a write.
    db = new Database(file, { timeout: 0 });
    db.pragma("journal_mode = WAL");
    return db;
  } catch (e) {
    db?.close();
    const code = sqliteCode(e);
    if (!dir) throw e;
    if (isDamage(code)) {
      throw new DataFolderError(
        `${file} is damaged (${(e as Error).message}), so the backend will not start on it. ${howToRestore(dir)}`,
        { cause: e },
      );
    }
    if (code !== null) {
      throw new DataFolderError(
        `${file} could not be opened for writing (${(e as Error).message}): make it, its -wal file and the folder writable by the user running the backend, or give it another folder with --data-dir.`,
        { cause: e },
      );
    }
    throw e;
  }
}

/**
 * Refuses to start a new, empty database where one was in use: a folder whose key files exist had a
 * database (the store is opened, and its file made, before any of them), so a missing or empty one
 * was lost, and seeding demo data over it would hide that.
 */
function refuseLostDatabase(dir: string): void {
  const file = path.join(dir, DATABASE_FILE);
  const size = existsSync(file) ? statSync(file).size : null;
  if (size !== null && size > 0) return;
  // The earliest store kept its documents in snapshot.json, imported into a new database.
  if (existsSync(path.join(dir, "snapshot.json"))) return;
  const key = KEY_FILES.find((name) => existsSync(path.join(dir, name)));
  if (key === undefined) return;
  throw new DataFolderError(
    `${file} is ${size === null ? "missing" : "empty"}, but the folder was in use (it holds ${key}), so the backend will not start a new database there. ${howToRestore(dir)}`,
  );
}

/**
 * SQLite's `quick_check` of every page (not the index contents, which `integrity_check` adds): a
 * damaged page refuses the start, in words, instead of failing the first query that reads it.
 */
function checkDatabase(db: Database.Database, dir: string): void {
  const file = path.join(dir, DATABASE_FILE);
  let problems: string[];
  try {
    problems = (db.pragma("quick_check(5)", { simple: false }) as { quick_check: string }[]).map(
      (row) => row.quick_check,
    );
  } catch (e) {
    if (!isDamage(sqliteCode(e))) throw e;
    problems = [(e as Error).message];
  }
  if (problems.length === 1 && problems[0] === "ok") return;
  const found = problems
    .join("; ")
    .replace(/\*\*\* in database main \*\*\*\s*/g, "")
    .replace(/\s+/g, " ");
  throw new DataFolderError(
    `${file} is damaged (SQLite's quick_check: ${found}), so the backend will not start on it. ${howToRestore(dir)}`,
  );
}

/** A statement failed: what the operator is told (the file, the cause, what to do), and the caller. */
export type StoreFailure = { operator: string; caller: string };

/** Flushes a file's data to disk (`fs.fdatasync`); tests give one that holds or fails a flush. */
export type FlushFile = (fd: number, done: (error: Error | null) => void) => void;

export type StoreOptions = { flushFile?: FlushFile; writeBytes?: WriteBytes };

/** The statements a connection runs (those that write fail on the read-only one). */
function prepareStatements(db: Database.Database) {
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
    indexRows: db.prepare<[], { id: number; definition: string }>("SELECT id, definition FROM indexes"),
    insertIndex: db.prepare<[string, string, string]>(
      "INSERT INTO indexes (component, table_name, name, definition) VALUES (?, ?, ?, '') RETURNING id",
    ),
    setIndexDefinition: db.prepare<[string, number]>("UPDATE indexes SET definition = ? WHERE id = ?"),
    deleteIndex: db.prepare<[number]>("DELETE FROM indexes WHERE id = ?"),
    searchRow: db.prepare<[number, string], { row: number }>(
      "SELECT row FROM search_rows WHERE index_id = ? AND document_id = ?",
    ),
    putSearchRow: db.prepare<[number, string, number | bigint]>(
      "INSERT INTO search_rows (index_id, document_id, row) VALUES (?, ?, ?)",
    ),
    deleteSearchRow: db.prepare<[number, string]>(
      "DELETE FROM search_rows WHERE index_id = ? AND document_id = ?",
    ),
    insertSearch: db.prepare<[string, string]>("INSERT INTO search_entries (body, scope) VALUES (?, ?)"),
    deleteSearch: db.prepare<[number]>("DELETE FROM search_entries WHERE rowid = ?"),
    searchIndexRows: db.prepare<[number], { row: number }>("SELECT row FROM search_rows WHERE index_id = ?"),
    search: db
      .prepare<[string, number], string>(
        `SELECT d.value FROM search_entries s
         JOIN search_rows r ON r.row = s.rowid JOIN documents d ON d.id = r.document_id
         WHERE search_entries MATCH ? ORDER BY bm25(search_entries, 1.0, 0.0), s.rowid ${BOUND_LIMIT}`,
      )
      .pluck(),
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
type Statements = ReturnType<typeof prepareStatements>;

/**
 * A connection to the database and the store's transaction state on it. The store has one that
 * writes, and while a long write holds it, one that reads the last committed state
 * (`beginSnapshotReads`).
 */
type Connection = {
  db: Database.Database;
  statements?: Statements;
  transactionDepth: number;
  /** A read-only transaction (`beginRead`) is open. */
  reading: boolean;
  /** What each open transaction (outermost first) has written. */
  writeSets: WriteSet[];
  /** An index was created or dropped since the outermost transaction began. */
  indexesChanged: boolean;
};

function newConnection(db: Database.Database): Connection {
  return { db, transactionDepth: 0, reading: false, writeSets: [], indexesChanged: false };
}

export class SqliteStore {
  readonly storageDir: string | null;
  private readonly writer: Connection;
  /** The connection this store's statements run on now: the writer's, but for `beginSnapshotReads`. */
  private conn: Connection;
  /** The read-only connection of `beginSnapshotReads`, opened the first time it is needed. */
  private reader: Connection | null = null;
  private readonly answerStatements;
  private indexes = new Map<string, IndexDefinition[]>();
  private counters: Counters;
  /** Each component's own counters (convex-test keeps them apart too): ids from 10^12 × its number. */
  private componentCounters = new Map<ComponentPath, Counters>();
  /** The counters' values as last committed to `meta`: a commit writes only those that moved. */
  private readonly storedCounters = new Map<string, string>();
  /**
   * Components numbered by the open transaction: the number is in `meta` only if it commits, so a
   * rollback forgets them, lest the next new component be given the same number (and id range).
   */
  private readonly componentsNumbered: { component: ComponentPath; depth: number }[] = [];
  /** Set when the data was created by this open (no earlier store or snapshot). */
  readonly fresh: boolean;
  /** The WAL file, opened at the first commit, to flush it to disk (null: in memory, or not yet). */
  private walFd: number | null = null;
  /** Resolves when every commit so far is on disk. */
  private flushed: Promise<void> = Promise.resolve();
  /** The flush in progress, if any; a commit made meanwhile waits for the next one (`queued`). */
  private flushing: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  /** A flush failed: what is in the WAL may not be on disk, so no write is accepted any more. */
  private flushFailure: Error | null = null;

  private readonly flushFile: FlushFile;
  /** How stored files' bytes are written (`fs.writeSync`; tests fail one as a full disk does). */
  readonly writeBytes: WriteBytes | undefined;
  /** A damaged page was met while running: told to the operator once. */
  private damageReported = false;

  private constructor(
    readonly dir: string | null,
    options: StoreOptions,
    /** The lock that holds the data folder (`holdFolder`); null in memory. */
    private readonly folderLock: Database.Database | null,
  ) {
    this.flushFile = options.flushFile ?? fdatasync;
    this.writeBytes = options.writeBytes;
    if (dir) {
      this.storageDir = path.join(dir, "storage");
      mkdirSync(this.storageDir, { recursive: true, mode: 0o700 });
      keepPrivate(this.storageDir);
      removeLeftoverTempFiles(dir);
      removeLeftoverTempFiles(this.storageDir);
      refuseLostDatabase(dir);
      // The database holds the deployment's secrets (environment variables): this user's only. SQLite
      // gives its -wal and -shm files the database file's mode.
      const file = path.join(dir, DATABASE_FILE);
      if (!existsSync(file)) closeSync(openSync(file, "a", 0o600));
      for (const suffix of ["", "-wal", "-shm"]) keepPrivate(path.join(dir, `${DATABASE_FILE}${suffix}`));
    } else {
      this.storageDir = null;
    }
    this.writer = newConnection(openDatabase(dir));
    this.conn = this.writer;
    if (dir) {
      try {
        checkDatabase(this.db, dir);
      } catch (e) {
        this.db.close();
        throw e;
      }
    }
    // NORMAL: SQLite writes a commit to the WAL without flushing it, and flushes at checkpoints (so
    // the database file is always consistent). The store flushes the WAL itself after each commit:
    // `commit()` before it returns, `commitLater()` on the thread pool (`durable()`).
    this.db.pragma("synchronous = NORMAL");
    this.db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
    `);
    const version = this.meta("schemaVersion");
    if (version === "1") this.migrateFromVersion1();
    this.moveDocumentsToRowidTable();
    this.db.exec(`
      ${DOCUMENTS_TABLE}
      CREATE TABLE IF NOT EXISTS indexes (
        id INTEGER PRIMARY KEY,
        component TEXT NOT NULL,
        table_name TEXT NOT NULL,
        name TEXT NOT NULL,
        definition TEXT NOT NULL,
        UNIQUE (component, table_name, name)
      );
      CREATE TABLE IF NOT EXISTS index_entries (
        index_id INTEGER NOT NULL,
        key BLOB NOT NULL,
        document_id TEXT NOT NULL,
        PRIMARY KEY (index_id, key)
      ) WITHOUT ROWID;
      CREATE VIRTUAL TABLE IF NOT EXISTS search_entries USING fts5(
        body, scope, tokenize = "unicode61 remove_diacritics 0"
      );
      CREATE TABLE IF NOT EXISTS search_rows (
        index_id INTEGER NOT NULL,
        document_id TEXT NOT NULL,
        row INTEGER NOT NULL,
        PRIMARY KEY (index_id, document_id)
      ) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS table_counts (
        component TEXT NOT NULL,
        table_name TEXT NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (component, table_name)
      ) WITHOUT ROWID;
    `);
    this.db.exec(
      "CREATE TABLE IF NOT EXISTS environment_variables (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
    );
    this.writer.statements = prepareStatements(this.db);
    const db = this.db;
    this.db.exec(MUTATION_ANSWERS_TABLE);
    this.answerStatements = {
      get: db
        .prepare<[string, number], [result: string, logLines: string]>(
          "SELECT result, log_lines FROM mutation_answers WHERE session_id = ? AND request_id = ?",
        )
        .raw(),
      put: db.prepare<[string, number, number, string, string]>(
        "INSERT INTO mutation_answers (session_id, request_id, recorded_at, result, log_lines) VALUES (?, ?, ?, ?, ?)",
      ),
      prune: db.prepare<[number, number]>(
        `DELETE FROM mutation_answers WHERE (session_id, request_id) IN
           (SELECT session_id, request_id FROM mutation_answers WHERE recorded_at < ? ORDER BY recorded_at ${BOUND_LIMIT})`,
      ),
    };
    this.loadIndexDefinitions();
    this.counters = {
      nextDocId: Number(this.meta("nextDocId") ?? 10000),
      lastCreationTime: Number(this.meta("lastCreationTime") ?? 0),
    };
    const stored = this.meta("schemaVersion");
    if (stored === "migrating") {
      this.finishMigration();
      this.fresh = false;
    } else if (stored === null) {
      this.setMeta("schemaVersion", String(LAYOUT_VERSION));
      this.fresh = !this.importSnapshot();
    } else if (stored === "2") {
      this.dropWordlessSearchRows();
      this.fresh = false;
    } else {
      if (stored !== String(LAYOUT_VERSION)) this.setMeta("schemaVersion", String(LAYOUT_VERSION));
      this.fresh = false;
    }
    // Whatever opening wrote (layout, migrations, an imported snapshot) is on disk before it is used.
    this.flushNow();
    this.removeUnnamedFiles();
  }

  /** Opens (or creates) the store in `dir`; in memory when `dir` is null. */
  static open(dir: string | null, options: StoreOptions = {}): SqliteStore {
    if (!dir) return new SqliteStore(null, options, null);
    prepareDataFolder(dir);
    const lock = holdFolder(dir);
    try {
      return new SqliteStore(dir, options, lock);
    } catch (e) {
      lock.close();
      throw e;
    }
  }

  /**
   * Wipes the data folder (documents, files and keys); not one another backend is using (it throws
   * `FolderInUseError`). A database this backend cannot read is wiped all the same: that is what a
   * reset is for.
   */
  static reset(dir: string): void {
    if (existsSync(dir)) holdFolder(dir).close();
    rmSync(dir, { recursive: true, force: true });
  }

  // -- Connections -----------------------------------------------------------------------------
  // The statements below run on `conn`: the writer's connection, but while `beginSnapshotReads` is
  // in force, the reader's, save inside `onWriter`. Each keeps its own transaction state.

  private get db(): Database.Database {
    return this.conn.db;
  }

  private get statements(): Statements {
    return this.conn.statements!;
  }

  private get transactionDepth(): number {
    return this.conn.transactionDepth;
  }

  private set transactionDepth(depth: number) {
    this.conn.transactionDepth = depth;
  }

  private get reading(): boolean {
    return this.conn.reading;
  }

  private set reading(reading: boolean) {
    this.conn.reading = reading;
  }

  private get writeSets(): WriteSet[] {
    return this.conn.writeSets;
  }

  private get indexesChanged(): boolean {
    return this.conn.indexesChanged;
  }

  private set indexesChanged(changed: boolean) {
    this.conn.indexesChanged = changed;
  }

  /**
   * From now until `endSnapshotReads`, reads (`beginRead` … `endRead`, and statements outside a
   * transaction) run on a second, read-only connection, which sees the database as last committed:
   * the writer's connection is in a long write (an import) that runs its parts in `onWriter`, and
   * what it has written shows to no one before it commits (decision 070). False when the store is in
   * memory (a second connection would be another, empty database): reads then wait for the write.
   */
  beginSnapshotReads(): boolean {
    if (!this.dir || this.conn !== this.writer) return false;
    if (this.reader === null) {
      const db = new Database(path.join(this.dir, DATABASE_FILE), { readonly: true, timeout: 1000 });
      this.reader = newConnection(db);
      this.reader.statements = prepareStatements(db);
    }
    // The long write's commit leaves the checkpoint of all of it to `checkpointAside`.
    this.writer.db.pragma("wal_autocheckpoint = 0");
    this.conn = this.reader;
    return true;
  }

  /**
   * Ends `beginSnapshotReads`; no read may be open on the reader's connection. The WAL, which holds
   * all the long write wrote, is checkpointed aside.
   */
  endSnapshotReads(): void {
    if (this.conn === this.writer) return;
    if (this.conn.reading || this.conn.transactionDepth !== 0) {
      throw new Error("A read is still open on the snapshot connection");
    }
    this.conn = this.writer;
    this.checkpointAside();
  }

  /**
   * Copies the WAL into the database on a connection of its own in a worker thread, while this one
   * goes on reading and writing (a passive checkpoint waits for no one); commits meanwhile leave the
   * checkpoint to it. If it fails, the next commit checkpoints as usual.
   */
  private checkpointAside(): void {
    const resume = () => {
      try {
        this.writer.db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
      } catch {
        // Closed meanwhile.
      }
    };
    const worker = new Worker(CHECKPOINT_WORKER, {
      eval: true,
      workerData: {
        driver: createRequire(import.meta.url).resolve("better-sqlite3"),
        file: path.join(this.dir!, DATABASE_FILE),
      },
    });
    worker.once("error", (e) => {
      console.warn(
        `local-backend: the checkpoint after a long write failed (${String(e)}); the next commit makes it`,
      );
    });
    worker.once("exit", resume);
  }

  /** Runs `work` (synchronous: no read can run meanwhile) on the writer's connection. */
  onWriter<T>(work: () => T): T {
    const previous = this.conn;
    this.conn = this.writer;
    try {
      return work();
    } finally {
      this.conn = previous;
    }
  }

  private meta(key: string): string | null {
    const row = this.db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as
      { value: string } | undefined;
    return row?.value ?? null;
  }

  private setMeta(key: string, value: string): void {
    this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)").run(key, value);
  }

  // -- Transactions ----------------------------------------------------------------------------

  /** Starts a transaction, or a nested one (a savepoint) inside the current one or a read. */
  begin(): void {
    if (this.flushFailure) throw this.flushFailure;
    if (!this.outermost()) this.checkNotLost();
    if (this.transactionDepth === 0) this.indexesChanged = false;
    this.db.exec(this.outermost() ? "BEGIN IMMEDIATE" : `SAVEPOINT nested${this.transactionDepth}`);
    this.writeSets.push(new WriteSet());
    this.transactionDepth += 1;
  }

  /**
   * SQLite rolls a transaction back itself after some errors (a full disk, an I/O error, a damaged
   * page): what follows in it must not run outside any transaction, each statement committing alone.
   */
  private checkNotLost(): void {
    if (!this.db.inTransaction) {
      throw new Error("The transaction was rolled back after a database error; nothing of it was written.");
    }
  }

  /** Whether a transaction begun (or ended) now is the outermost one: none runs, and no read. */
  private outermost(): boolean {
    return this.transactionDepth === 0 && !this.reading;
  }

  /**
   * Starts a read-only transaction: one snapshot and one read lock for all of a query's statements.
   * Writes are refused until `endRead`; a nested transaction inside it is a savepoint, rolled back.
   */
  beginRead(): void {
    if (this.flushFailure) throw this.flushFailure;
    if (this.transactionDepth !== 0 || this.reading) throw new Error("A read starts outside any transaction");
    this.db.exec("BEGIN");
    this.reading = true;
  }

  /** Ends the read `beginRead` started (nothing when none runs). */
  endRead(): void {
    if (!this.reading) return;
    this.reading = false;
    // After a damaged page SQLite may have ended the transaction itself, or fail the COMMIT (which
    // ends it too): either way nothing is left open.
    if (!this.db.inTransaction) return;
    try {
      this.db.exec("COMMIT");
    } finally {
      if (this.db.inTransaction) this.db.exec("ROLLBACK");
    }
  }

  /**
   * Commits the innermost transaction; the outermost one is on disk when this returns. Returns what
   * it wrote (a nested one's writes become its parent's too).
   */
  commit(): WriteSet {
    const writes = this.commitToWal();
    if (this.outermost()) this.flushNow();
    return writes;
  }

  /**
   * Commits the innermost transaction. The outermost one is in the WAL when this returns (a crash of
   * this process keeps it; SQLite has written it) and on disk once `durable()` resolves: the caller
   * may compute what follows from it meanwhile, but must not acknowledge it, or show it, before.
   */
  commitLater(): WriteSet {
    const writes = this.commitToWal();
    if (this.outermost()) this.flushSoon();
    return writes;
  }

  /** Commits the innermost transaction, the outermost one to the WAL without flushing it. */
  private commitToWal(): WriteSet {
    if (this.transactionDepth === 0) throw new Error("No transaction to commit");
    this.transactionDepth -= 1;
    const writes = this.writeSets.pop()!;
    this.writeSets.at(-1)?.merge(writes);
    if (this.outermost()) {
      const written: [string, string][] = [];
      const writeIfMoved = (key: string, value: number) => {
        const stored = String(value);
        if (this.storedCounters.get(key) === stored) return;
        this.statements.setMeta.run(key, stored);
        written.push([key, stored]);
      };
      this.checkNotLost();
      writeIfMoved("nextDocId", this.counters.nextDocId);
      writeIfMoved("lastCreationTime", this.counters.lastCreationTime);
      for (const [component, counters] of this.componentCounters) {
        writeIfMoved(`nextDocId:${component}`, counters.nextDocId);
        writeIfMoved(`lastCreationTime:${component}`, counters.lastCreationTime);
      }
      try {
        this.db.exec("COMMIT");
      } catch (e) {
        // A COMMIT that failed (a full disk) may leave the transaction open: nothing of it is kept.
        if (this.db.inTransaction) this.db.exec("ROLLBACK");
        throw e;
      }
      for (const [key, stored] of written) this.storedCounters.set(key, stored);
      this.componentsNumbered.length = 0;
    } else {
      this.checkNotLost();
      this.db.exec(`RELEASE nested${this.transactionDepth}`);
      for (const numbered of this.componentsNumbered) {
        numbered.depth = Math.min(numbered.depth, this.transactionDepth);
      }
    }
    return writes;
  }

  /** Resolves once every commit made so far is on disk; rejects if flushing the WAL failed. */
  durable(): Promise<void> {
    return this.flushed;
  }

  /**
   * The WAL file's descriptor (opened once SQLite has created it), or null in memory. Its folder is
   * flushed once too, so that the new file's name survives a power loss (as SQLite does for a new
   * journal). The file is laid out at its working size first (`layOutWal`).
   */
  private wal(): number | null {
    if (this.walFd !== null || !this.dir) return this.walFd;
    this.walFd = openSync(path.join(this.dir, `${DATABASE_FILE}-wal`), "r+");
    this.layOutWal(this.walFd);
    const folder = openSync(this.dir, "r");
    try {
      fsyncSync(folder);
    } finally {
      closeSync(folder);
    }
    return this.walFd;
  }

  /**
   * Writes zeros past the WAL's end, up to a checkpoint's worth of frames (as PostgreSQL fills a new
   * WAL segment). SQLite writes its frames over them, and after each checkpoint from the start again,
   * so a commit's flush never grows the file: growing it makes `fdatasync` commit the file system's
   * journal too (0.8 ms against 0.5 ms a flush, measured here). SQLite reads a WAL only up to its
   * first frame that does not check out: zeros past the last commit are never taken for one.
   */
  private layOutWal(fd: number): void {
    const pageSize = this.db.pragma("page_size", { simple: true }) as number;
    const target =
      WAL_HEADER_BYTES + (WAL_CHECKPOINT_PAGES + WAL_SPARE_PAGES) * (WAL_FRAME_HEADER_BYTES + pageSize);
    const zeros = Buffer.alloc(1 << 20);
    for (let offset = fstatSync(fd).size; offset < target; offset += zeros.length) {
      writeSync(fd, zeros, 0, Math.min(zeros.length, target - offset), offset);
    }
  }

  /** Flushes the WAL to disk now, after any flush in progress (a synchronous commit, opening). */
  private flushNow(): void {
    if (this.flushFailure) throw this.flushFailure;
    const fd = this.wal();
    if (fd === null) return;
    try {
      fdatasyncSync(fd);
    } catch (e) {
      this.failFlush(e);
    }
  }

  /**
   * Flushes the WAL on the thread pool. Commits made while a flush runs share the next one (group
   * commit): it starts when the running one ends, so it covers everything written before it.
   */
  private flushSoon(): void {
    const fd = this.wal();
    if (fd === null) return;
    if (this.queued) return;
    const flush = (): Promise<void> =>
      new Promise<void>((resolve, reject) =>
        this.flushFile(fd, (error) => (error ? reject(error) : resolve())),
      );
    const start = (): Promise<void> => {
      const running = flush().finally(() => {
        if (this.flushing === running) this.flushing = null;
      });
      this.flushing = running;
      return running;
    };
    let next: Promise<void>;
    if (this.flushing) {
      next = this.flushing
        .catch(() => undefined)
        .then(() => {
          this.queued = null;
          return start();
        });
      this.queued = next;
    } else {
      next = start();
    }
    this.flushed = next.catch((e: unknown) => this.failFlush(e));
    // Those who wait hear of a failure; nobody waiting is not an unhandled rejection.
    this.flushed.catch(() => undefined);
  }

  /**
   * A failed flush leaves the WAL's pages in an unknown state (the kernel may have dropped them):
   * like PostgreSQL, stop accepting writes rather than acknowledge what may be lost. Throws.
   */
  private failFlush(error: unknown): never {
    this.flushFailure ??= new Error(
      `The database could not be written to disk (${error instanceof Error ? error.message : String(error)}); restart the backend.`,
    );
    throw this.flushFailure;
  }

  /** Undoes the innermost transaction. */
  rollback(): void {
    if (this.transactionDepth === 0) return;
    this.transactionDepth -= 1;
    this.writeSets.pop();
    // Nothing to undo when SQLite has rolled the whole transaction back itself (after an error).
    if (this.db.inTransaction) {
      if (this.outermost()) {
        this.db.exec("ROLLBACK");
      } else {
        this.db.exec(`ROLLBACK TO nested${this.transactionDepth}; RELEASE nested${this.transactionDepth}`);
      }
    }
    for (let i = this.componentsNumbered.length - 1; i >= 0; i--) {
      const numbered = this.componentsNumbered[i];
      if (numbered.depth <= this.transactionDepth) continue;
      this.componentCounters.delete(numbered.component);
      this.componentsNumbered.splice(i, 1);
    }
    // Counters stay where they are: ids and creation times are never reused, as on Convex (and in
    // convex-test). Index definitions made inside the transaction are gone with it.
    if (this.indexesChanged) {
      this.loadIndexDefinitions();
      this.indexesChanged = false;
    }
  }

  inTransaction(): boolean {
    return this.transactionDepth > 0;
  }

  /**
   * A statement's error in words, or null when it is not the database's: a damaged page (told to the
   * operator once, with the file and how to restore it), a full disk, a file that cannot be written.
   * The caller gets a sentence without the server's paths.
   */
  describeFailure(e: unknown): StoreFailure | null {
    const code = sqliteCode(e);
    if (code === null) return null;
    const file = this.dir ? path.join(this.dir, DATABASE_FILE) : "the in-memory database";
    const message = (e as Error).message;
    if (isDamage(code)) {
      const operator = `${file} is damaged (${message}): stop the backend. ${this.dir ? howToRestore(this.dir) : ""}`;
      if (!this.damageReported) {
        this.damageReported = true;
        console.error(`local-backend: ${operator}`);
      }
      return { operator, caller: "Server Error: the database could not be read (a page of it is damaged)." };
    }
    if (code === "SQLITE_FULL") {
      return {
        operator: `The disk holding ${file} is full (${message}).`,
        caller: "Server Error: the server's disk is full; nothing was written.",
      };
    }
    if (/^SQLITE_(IOERR|READONLY|CANTOPEN|PERM)/.test(code)) {
      return {
        operator: `${file} could not be read or written (${message}): check that the folder is writable and the disk sound.`,
        caller: "Server Error: the server could not use its database.",
      };
    }
    return null;
  }

  // -- Ids and times ---------------------------------------------------------------------------

  private countersOf(component: ComponentPath): Counters {
    if (component === "") return this.counters;
    let counters = this.componentCounters.get(component);
    if (!counters) {
      let next = this.meta(`nextDocId:${component}`);
      if (next === null) {
        const number = Number(this.meta("components") ?? 0) + 1;
        this.setMeta("components", String(number));
        if (this.transactionDepth > 0) {
          this.componentsNumbered.push({ component, depth: this.transactionDepth });
        }
        next = String(number * 1e12);
      }
      counters = {
        nextDocId: Number(next),
        lastCreationTime: Number(this.meta(`lastCreationTime:${component}`) ?? 0),
      };
      this.componentCounters.set(component, counters);
    }
    return counters;
  }

  /**
   * A new document id in `table`: digits, then the table name, as convex-test makes them; the digits
   * are a counter and 64 random bits (`localId`, decision 054). The counter reaches `meta` only with a
   * commit, so after a crash it may issue again a number an uncommitted (or rolled-back) transaction
   * took; the random part keeps the id new all the same, and keeps anyone from guessing another's.
   */
  newId(component: ComponentPath, table: string): string {
    const counters = this.countersOf(component);
    const id = localId({ counter: BigInt(counters.nextDocId), random: this.randomIdPart() }, table);
    counters.nextDocId += 1;
    return id;
  }

  /** Random bits for ids, drawn from the OS a few hundred ids at a time. */
  private readonly randomPool = new BigUint64Array(256);
  private randomPoolNext = this.randomPool.length;

  private randomIdPart(): bigint {
    if (this.randomPoolNext === this.randomPool.length) {
      randomFillSync(this.randomPool);
      this.randomPoolNext = 0;
    }
    return this.randomPool[this.randomPoolNext++];
  }

  /** A creation time: now, or just after the component's last one (they never repeat). */
  newCreationTime(component: ComponentPath): number {
    const counters = this.countersOf(component);
    const now = Date.now();
    const time = now <= counters.lastCreationTime ? counters.lastCreationTime + 0.001 : now;
    counters.lastCreationTime = time;
    return time;
  }

  // -- Indexes ---------------------------------------------------------------------------------

  private loadIndexDefinitions(): void {
    this.indexes.clear();
    for (const row of this.statements.indexRows.all()) {
      if (!row.definition) continue;
      const definition = { ...(JSON.parse(row.definition) as IndexDefinition), id: row.id };
      const key = `${definition.component}\0${definition.table}`;
      const list = this.indexes.get(key) ?? [];
      list.push(definition);
      this.indexes.set(key, list);
    }
  }

  /** The indexes of a table (creating its system indexes the first time it is used). */
  tableIndexes(component: ComponentPath, table: string): IndexDefinition[] {
    const key = `${component}\0${table}`;
    let list = this.indexes.get(key);
    if (!list) {
      for (const name of ["by_id", "by_creation_time"]) {
        this.createIndex({ component, table, name, kind: "db", fields: name === "by_id" ? [] : [] });
      }
      list = this.indexes.get(key)!;
    }
    return list;
  }

  index(component: ComponentPath, table: string, name: string): IndexDefinition | undefined {
    return this.tableIndexes(component, table).find((index) => index.name === name);
  }

  private createIndex(definition: Omit<IndexDefinition, "id">): IndexDefinition {
    this.indexesChanged = true;
    const { id } = this.statements.insertIndex.get(
      definition.component,
      definition.table,
      definition.name,
    ) as { id: number };
    const full = { ...definition, id };
    this.statements.setIndexDefinition.run(JSON.stringify(full), id);
    const key = `${definition.component}\0${definition.table}`;
    const list = this.indexes.get(key) ?? [];
    list.push(full);
    this.indexes.set(key, list);
    return full;
  }

  private dropIndex(index: IndexDefinition): void {
    this.indexesChanged = true;
    if (index.kind === "search") {
      for (const { row } of this.statements.searchIndexRows.all(index.id))
        this.statements.deleteSearch.run(row);
      this.db.prepare("DELETE FROM search_rows WHERE index_id = ?").run(index.id);
    } else {
      this.statements.deleteIndexEntries.run(index.id);
    }
    this.statements.deleteIndex.run(index.id);
  }

  /**
   * Makes the stored indexes of `component` those `tables` declare: new or changed indexes are
   * built from the table's documents (a schema change, as a push to Convex backfills), removed ones
   * dropped. Returns the names of the indexes built.
   */
  syncIndexes(component: ComponentPath, tables: TableIndexes[]): string[] {
    const built: string[] = [];
    const declared = new Map<string, Omit<IndexDefinition, "id">>();
    for (const table of tables) {
      for (const index of table.indexes) {
        declared.set(`${table.table}.${index.indexDescriptor}`, {
          component,
          table: table.table,
          name: index.indexDescriptor,
          kind: "db",
          fields: index.fields,
        });
      }
      for (const index of table.searchIndexes) {
        declared.set(`${table.table}.${index.indexDescriptor}`, {
          component,
          table: table.table,
          name: index.indexDescriptor,
          kind: "search",
          fields: [],
          searchField: index.searchField,
          filterFields: index.filterFields,
        });
      }
    }
    this.db.transaction(() => {
      for (const [key, list] of this.indexes) {
        if (!key.startsWith(`${component}\0`)) continue;
        for (const index of [...list]) {
          if (index.name === "by_id" || index.name === "by_creation_time") continue;
          const wanted = declared.get(`${index.table}.${index.name}`);
          const same =
            wanted &&
            wanted.kind === index.kind &&
            JSON.stringify(wanted.fields) === JSON.stringify(index.fields) &&
            wanted.searchField === index.searchField &&
            JSON.stringify(wanted.filterFields) === JSON.stringify(index.filterFields);
          if (same) {
            declared.delete(`${index.table}.${index.name}`);
          } else {
            this.dropIndex(index);
            list.splice(list.indexOf(index), 1);
          }
        }
      }
      for (const [name, definition] of declared) {
        this.tableIndexes(component, definition.table);
        const index = this.createIndex(definition);
        for (const { value } of this.statements.tableDocuments.all(component, definition.table)) {
          this.addToIndex(index, parseDocument(value));
        }
        built.push(name);
      }
    })();
    this.flushNow();
    return built;
  }

  /** Adds `doc` to `index` (a schema change's backfill). */
  private addToIndex(index: IndexDefinition, doc: Document): void {
    if (index.kind === "db") this.statements.putEntry.run(index.id, indexKey(index, doc), doc._id as string);
    else this.putSearchEntry(index, doc._id as string, searchEntry(index, doc));
  }

  private putSearchEntry(index: IndexDefinition, id: string, entry: SearchEntry | null): void {
    if (!entry) return;
    const { lastInsertRowid } = this.statements.insertSearch.run(entry.text, entry.scope);
    this.statements.putSearchRow.run(index.id, id, lastInsertRowid);
  }

  private removeSearchEntry(index: IndexDefinition, id: string): void {
    const row = this.statements.searchRow.get(index.id, id);
    if (!row) return;
    this.statements.deleteSearch.run(row.row);
    this.statements.deleteSearchRow.run(index.id, id);
  }

  /**
   * Moves a document's entry in `index` from `previous` to `next` (either null: none), leaving it
   * alone when its key (or search text and filters) did not change; returns the database index keys
   * involved, changed or not (the write set: readers of either key may see a different document). A
   * key left in place is returned unencoded, as the function that encodes it (`WriteSet.keysOf`).
   */
  private updateIndex(
    index: IndexDefinition,
    id: string,
    previous: Document | null,
    next: Document | null,
  ): IndexKey[] {
    if (index.kind === "search") {
      const before = previous && searchEntry(index, previous);
      const after = next && searchEntry(index, next);
      if (before?.text !== after?.text || before?.scope !== after?.scope) {
        if (before) this.removeSearchEntry(index, id);
        this.putSearchEntry(index, id, after);
      }
      return [];
    }
    // A change that leaves the index's fields (and the id and creation time) alone keeps the entry.
    if (
      previous &&
      next &&
      previous._id === next._id &&
      previous._creationTime === next._creationTime &&
      index.fields.every((field) => sameField(previous, next, field))
    ) {
      return [() => indexKey(index, next)];
    }
    const before = previous && indexKey(index, previous);
    const after = next && indexKey(index, next);
    if (before && after && before.equals(after)) return [after];
    if (before) this.statements.deleteEntry.run(index.id, before);
    if (after) this.statements.putEntry.run(index.id, after, id);
    return [before, after].filter((key) => key !== null);
  }

  // -- Documents -------------------------------------------------------------------------------

  /** A document as stored (Convex's JSON), without parsing it. */
  getJson(id: string): { component: ComponentPath; table: string; json: string } | null {
    const row = this.statements.getDocument.get(id);
    return row ? { component: row[0], table: row[1], json: row[2] } : null;
  }

  get(id: string): StoredDocument | null {
    const row = this.statements.getDocument.get(id);
    if (!row) return null;
    return { component: row[0], table: row[1], doc: parseDocument(row[2]) };
  }

  /**
   * Writes a document (`next` null: deletes it), keeping every index of its table in step. `previous`
   * is the document as stored (null for an insert). Must run inside a transaction.
   */
  write(component: ComponentPath, table: string, previous: Document | null, next: Document | null): void {
    if (!this.inTransaction()) throw new Error("Write outside a transaction");
    const written = next ?? previous;
    if (!written) return;
    const id = written._id as string;
    if (next) {
      this.statements.putDocument.run(id, component, table, toConvexJsonText(next));
    } else {
      this.statements.deleteDocument.run(id);
    }
    const keys: [number, IndexKey][] = [];
    for (const index of this.tableIndexes(component, table)) {
      for (const key of this.updateIndex(index, id, previous, next)) keys.push([index.id, key]);
    }
    const delta = (next ? 1 : 0) - (previous ? 1 : 0);
    if (delta !== 0) this.statements.addCount.run(component, table, delta);
    this.writeSets.at(-1)!.addDocument(table, id, keys);
  }

  /**
   * Up to `limit` rows of a database index with keys in [lower, upper), in key order or its reverse,
   * strictly after `after` (in the direction of travel) when given.
   */
  scan(
    index: IndexDefinition,
    lower: Buffer,
    upper: Buffer,
    order: "asc" | "desc",
    after: Buffer | null,
    limit: number,
  ): IndexRow[] {
    let rows: IndexRowColumns[];
    if (order === "asc") {
      rows =
        after && Buffer.compare(after, lower) >= 0
          ? this.statements.scanAsc.all(index.id, after, upper, limit)
          : this.statements.scanAscFrom.all(index.id, lower, upper, limit);
    } else {
      const end = after && Buffer.compare(after, upper) < 0 ? after : upper;
      rows = this.statements.scanDesc.all(index.id, lower, end, limit);
    }
    return rows.map(([key, value]) => new IndexRow(key, value));
  }

  /**
   * Documents of a search index matching any of `query`'s terms (the last one as a prefix) whose
   * filter fields equal `filters`, best first (BM25), at most `limit`.
   */
  search(
    index: IndexDefinition,
    query: string,
    filters: [string, Value | undefined][],
    limit: number,
  ): string[] {
    const terms = searchTerms(query);
    if (terms.length === 0) return [];
    const quoted = terms.map(
      (term, i) => `"${term.replaceAll('"', '""')}"${i === terms.length - 1 ? "*" : ""}`,
    );
    const scope = [`i${index.id}`, ...filters.map(([field, value]) => filterToken(field, value))];
    const match = `body : (${quoted.join(" OR ")}) AND scope : (${scope.map((s) => `"${s}"`).join(" AND ")})`;
    return this.statements.search.all(match, limit);
  }

  count(component: ComponentPath, table: string): number {
    return this.statements.count.get(component, table)?.count ?? 0;
  }

  /** Tables of `component` holding documents. */
  tableNames(component: ComponentPath): string[] {
    return this.statements.tableNames.all(component).map((row) => row.table_name);
  }

  // -- Stored files ----------------------------------------------------------------------------

  filePath(storageId: string): string | null {
    return this.storageDir ? path.join(this.storageDir, storageId) : null;
  }

  /**
   * Removes stored files no `_storage` document names. A file is on disk before its document commits,
   * so a process killed in between (or a transaction rolled back after `ctx.storage.store`) leaves one
   * that nothing will ever serve or delete. Run on open, before anything is stored.
   */
  private removeUnnamedFiles(): void {
    if (!this.storageDir) return;
    const named = this.db
      .prepare<[string], number>("SELECT 1 FROM documents WHERE id = ? AND table_name = '_storage'")
      .pluck();
    const { removed, more } = removeUnnamedFiles(
      this.storageDir,
      (name) => named.get(name) !== undefined,
      MAX_UNNAMED_FILES_REMOVED,
    );
    if (removed === 0) return;
    console.log(
      `local-backend: removed ${removed} stored ${removed === 1 ? "file" : "files"} without a _storage document (left by an interrupted upload or a rolled-back store)${more ? "; more remain, the next start goes on" : ""}`,
    );
  }

  // -- Mutations' answers (decision 056) ------------------------------------------------------
  // A sync client re-sends a mutation it has no answer for after a reconnect, with the same session
  // and request id; the answer is recorded in the mutation's own transaction, so one that committed
  // is answered again instead of run twice, even after a crash between its commit and its answer.

  /** The answer recorded for a session's request, or null. */
  recordedAnswer(sessionId: string, requestId: number): RecordedAnswer | null {
    const row = this.answerStatements.get.get(sessionId, requestId);
    return row ? { result: row[0], logLines: JSON.parse(row[1]) as string[] } : null;
  }

  /**
   * Records a mutation's answer in the open transaction (committed with its writes or not at all),
   * and deletes a bounded batch of answers older than `ANSWER_RETENTION_MS`.
   */
  recordAnswer(sessionId: string, requestId: number, answer: RecordedAnswer, now = Date.now()): void {
    if (!this.inTransaction()) throw new Error("An answer is recorded inside its mutation's transaction");
    this.answerStatements.put.run(sessionId, requestId, now, answer.result, JSON.stringify(answer.logLines));
    this.answerStatements.prune.run(now - ANSWER_RETENTION_MS, ANSWER_PRUNE_BATCH);
  }

  /** Closes the database; the WAL's descriptor once a flush in progress has ended. */
  close(): void {
    this.reader?.db.close();
    this.writer.db.close();
    this.folderLock?.close();
    const fd = this.walFd;
    this.walFd = null;
    if (fd === null) return;
    const running = this.queued ?? this.flushing;
    if (running) void running.catch(() => undefined).then(() => closeSync(fd));
    else closeSync(fd);
  }

  // -- Earlier formats -------------------------------------------------------------------------

  /** The first SQLite store kept documents without indexes: rebuild them in the new layout. */
  private migrateFromVersion1(): void {
    this.db.exec("ALTER TABLE documents RENAME TO documents_v1; DROP INDEX IF EXISTS documents_by_table;");
    this.setMeta("schemaVersion", "migrating");
  }

  /**
   * Layouts 2 and 3 kept documents in a WITHOUT ROWID table (see `DOCUMENTS_TABLE`): copies them into
   * the rowid table, in one transaction. Nothing else refers to a document but by its id.
   */
  private moveDocumentsToRowidTable(): void {
    const sql = this.db
      .prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'documents'")
      .pluck()
      .get() as string | undefined;
    if (!sql || !/WITHOUT\s+ROWID/i.test(sql)) return;
    this.db.transaction(() => {
      this.db.exec(`
        ALTER TABLE documents RENAME TO documents_without_rowid;
        DROP INDEX IF EXISTS documents_by_table;
        ${DOCUMENTS_TABLE}
        INSERT INTO documents (id, component, table_name, value)
          SELECT id, component, table_name, value FROM documents_without_rowid;
        DROP TABLE documents_without_rowid;
      `);
    })();
  }

  /** Loads what an earlier format left (a version-1 table or a `snapshot.json`); true if there was any. */
  private importSnapshot(): boolean {
    const file = this.dir ? path.join(this.dir, "snapshot.json") : null;
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
    this.importDocuments(imported.documents, imported);
    renameSync(file, `${file}.imported`);
    console.log(`local-backend: imported ${file} into ${DATABASE_FILE} (kept as snapshot.json.imported)`);
    return true;
  }

  /** Writes documents of the root app as they are (ids and creation times kept), in one transaction. */
  importDocuments(documents: Iterable<Document>, counters?: Partial<Counters>): number {
    let count = 0;
    this.begin();
    try {
      for (const doc of documents) {
        const id = doc._id as string;
        const table = tableFromId(id);
        if (!table) continue;
        const existing = this.get(id);
        this.write("", table, existing?.doc ?? null, doc);
        count += 1;
        const counter = Number(localIdParts(id, table)?.counter ?? 0);
        if (counter >= this.counters.nextDocId) this.counters.nextDocId = counter + 1;
        if (typeof doc._creationTime === "number" && doc._creationTime > this.counters.lastCreationTime) {
          this.counters.lastCreationTime = doc._creationTime;
        }
      }
      if (counters?.nextDocId)
        this.counters.nextDocId = Math.max(this.counters.nextDocId, counters.nextDocId);
      if (counters?.lastCreationTime) {
        this.counters.lastCreationTime = Math.max(this.counters.lastCreationTime, counters.lastCreationTime);
      }
      this.commit();
    } catch (e) {
      this.rollback();
      throw e;
    }
    return count;
  }

  /** Finishes a migration from the first SQLite layout (once the new tables exist). */
  private finishMigration(): void {
    const rows = this.db.prepare("SELECT value FROM documents_v1").all() as { value: string }[];
    this.importDocuments(rows.map((row) => parseDocument(row.value)));
    this.db.exec("DROP TABLE documents_v1");
    this.setMeta("schemaVersion", String(LAYOUT_VERSION));
  }

  /**
   * Layout 2 kept a search row for every text, those without words too (the explore listings' rows
   * but one): drop them, by `searchEntry`'s own test, so that every row left is one it would keep.
   */
  private dropWordlessSearchRows(): void {
    this.db.function("has_word", { deterministic: true }, (body) =>
      typeof body === "string" && WORD_CHARACTER.test(body) ? 1 : 0,
    );
    this.db.transaction(() => {
      this.db.exec(`
        DELETE FROM search_rows WHERE row IN (SELECT rowid FROM search_entries WHERE NOT has_word(body));
        DELETE FROM search_entries WHERE NOT has_word(body);
      `);
      this.setMeta("schemaVersion", String(LAYOUT_VERSION));
    })();
    this.flushNow();
  }

  // -- Deployment environment variables (`npx convex env`; env-vars.ts) ------------------------
  // A table of their own beside the documents (not a Convex table): functions see them as
  // `process.env`, the CLI through `_system/cli/queryEnvironmentVariables`.

  /** The deployment's environment variables, by name. */
  environmentVariables(): { name: string; value: string }[] {
    return this.db.prepare("SELECT name, value FROM environment_variables ORDER BY name").all() as {
      name: string;
      value: string;
    }[];
  }

  /** Sets (a string value) or removes (null) variables, all or none, on disk when this returns. */
  updateEnvironmentVariables(changes: { name: string; value: string | null }[]): void {
    const set = this.db.prepare<[string, string]>(
      "INSERT INTO environment_variables (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
    );
    const remove = this.db.prepare<[string]>("DELETE FROM environment_variables WHERE name = ?");
    this.begin();
    try {
      for (const { name, value } of changes) {
        if (value === null) remove.run(name);
        else set.run(name, value);
      }
      this.commit();
    } catch (e) {
      this.rollback();
      throw e;
    }
  }
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
