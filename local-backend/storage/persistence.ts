/**
 * Persistence: one SQLite database (`<data dir>/data.sqlite3`, WAL; in memory without a data folder),
 * laid out as Convex's own SQLite persistence is: documents by id, and every index as rows of
 * `(index, key)` where the key is the indexed values encoded as ordered bytes (`values.ts`). An index
 * range with an order and a limit is then one range scan of one SQLite index, whatever the table
 * holds. It knows nothing of functions, schemas or search: the database layer above (`database/`)
 * keeps the indexes in step with the documents, and `runner.ts` opens a transaction (`begin`), reads
 * and writes through it and commits.
 *
 * `commit()` returns once the transaction is on disk; `commitLater()` returns as soon as SQLite has
 * written it to the WAL (so a crash of this process cannot lose it) and flushes the WAL to disk on the
 * thread pool meanwhile: `durable()` resolves once every commit so far is on disk, and nothing may
 * tell anyone about a commit before (decision 041; `wal.ts`).
 */
import { existsSync, fdatasync, rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { WriteBytes } from "../core/files.ts";
import { WriteSet } from "./read-set.ts";
import { type IndexRow, parseDocument, type ComponentPath, type StoredDocument } from "./document.ts";
import { IdCounters } from "./counters.ts";
import {
  DATABASE_FILE,
  checkDatabase,
  markClosedCleanly,
  takeCleanCloseMark,
  describeFailure,
  holdFolder,
  openDatabase,
  prepareStoreFolder,
  removeUnnamedStoredFiles,
  type StoreFailure,
} from "./folder.ts";
import { PERSISTENCE_TABLES, readMeta, upgradeLayout, writeMeta } from "./layout.ts";
import { prepareStatements, scanIndex, type ScanArgs, type Statements } from "./statements.ts";
import { WAL_CHECKPOINT_PAGES, Wal, checkpointAside, type FlushFile } from "./wal.ts";

export type StoreOptions = { flushFile?: FlushFile; writeBytes?: WriteBytes };

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
  /** The layer above changed what it keeps of the schema since the outermost transaction began. */
  catalogChanged: boolean;
};

function newConnection(db: Database.Database): Connection {
  return { db, transactionDepth: 0, reading: false, writeSets: [], catalogChanged: false };
}

export class SqlitePersistence {
  readonly storageDir: string | null;
  private readonly writer: Connection;
  /** The connection this store's statements run on now: the writer's, but for `beginSnapshotReads`. */
  private conn: Connection;
  /** The read-only connection of `beginSnapshotReads`, opened the first time it is needed. */
  private reader: Connection | null = null;
  protected readonly counters: IdCounters;
  protected readonly wal: Wal;
  /** How stored files' bytes are written (`fs.writeSync`; tests fail one as a full disk does). */
  readonly writeBytes: WriteBytes | undefined;
  /** Backups holding stored files' removals (`holdFileRemovals`), and the files held. */
  private removalHolds = 0;
  private readonly heldRemovals = new Set<string>();
  /** A damaged page was met while running: told to the operator once. */
  private damageReported = false;
  /**
   * What the start checked of the database: every page (`quick_check`), or nothing, because the last
   * run closed it cleanly and its files are as it left them (decision 091); none in memory.
   */
  readonly startCheck: "every page" | "closed cleanly" | "none";

  /** Opens the database in `dir` (in memory when null), upgraded to the layout of these tables. */
  protected constructor(
    readonly dir: string | null,
    options: StoreOptions,
    /** The lock that holds the data folder (`holdFolder`); null in memory. */
    private readonly folderLock: Database.Database | null,
  ) {
    this.writeBytes = options.writeBytes;
    // Read first: readying the folder sets the files' modes, which moves their change times on.
    const closedCleanly = dir !== null && takeCleanCloseMark(dir);
    this.storageDir = dir ? prepareStoreFolder(dir) : null;
    this.writer = newConnection(openDatabase(dir));
    this.conn = this.writer;
    this.startCheck = dir === null ? "none" : closedCleanly ? "closed cleanly" : "every page";
    if (dir && !closedCleanly) {
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
    upgradeLayout(this.db);
    this.db.exec(PERSISTENCE_TABLES);
    this.writer.statements = prepareStatements(this.db);
    this.counters = new IdCounters({
      meta: (key) => this.meta(key),
      setMeta: (key, value) => this.setMeta(key, value),
    });
    this.wal = new Wal(dir, this.writer.db, options.flushFile ?? fdatasync);
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

  protected get db(): Database.Database {
    return this.conn.db;
  }

  protected get statements(): Statements {
    return this.conn.statements!;
  }

  protected get transactionDepth(): number {
    return this.conn.transactionDepth;
  }

  protected set transactionDepth(depth: number) {
    this.conn.transactionDepth = depth;
  }

  private get reading(): boolean {
    return this.conn.reading;
  }

  private set reading(reading: boolean) {
    this.conn.reading = reading;
  }

  protected get writeSets(): WriteSet[] {
    return this.conn.writeSets;
  }

  /** The layer above changed what it keeps of the schema in the open transaction (`reloadCatalog`). */
  protected get catalogChanged(): boolean {
    return this.conn.catalogChanged;
  }

  protected set catalogChanged(changed: boolean) {
    this.conn.catalogChanged = changed;
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
    checkpointAside(this.dir!, this.writer.db);
  }

  /** The database file, which another connection (an isolate's, decision 092) may read; null in memory. */
  get databaseFile(): string | null {
    return this.dir ? path.join(this.dir, DATABASE_FILE) : null;
  }

  /** The writer's open transaction has written something not yet committed. */
  get writing(): boolean {
    return this.writer.writeSets.some((writes) => !writes.isEmpty) || this.writer.catalogChanged;
  }

  /** Reads run on the snapshot connection now: a long write holds the writer's (`beginSnapshotReads`). */
  get readingSnapshot(): boolean {
    return this.conn !== this.writer;
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

  protected meta(key: string): string | null {
    return readMeta(this.db, key);
  }

  protected setMeta(key: string, value: string): void {
    writeMeta(this.db, key, value);
  }

  // -- Transactions ----------------------------------------------------------------------------

  /** Starts a transaction, or a nested one (a savepoint) inside the current one or a read. */
  begin(): void {
    if (this.wal.failure) throw this.wal.failure;
    if (!this.outermost()) this.checkNotLost();
    if (this.transactionDepth === 0) this.catalogChanged = false;
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
    if (this.wal.failure) throw this.wal.failure;
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
    if (this.outermost()) this.wal.flushNow();
    return writes;
  }

  /**
   * Commits the innermost transaction. The outermost one is in the WAL when this returns (a crash of
   * this process keeps it; SQLite has written it) and on disk once `durable()` resolves: the caller
   * may compute what follows from it meanwhile, but must not acknowledge it, or show it, before.
   */
  commitLater(): WriteSet {
    const writes = this.commitToWal();
    if (this.outermost()) this.wal.flushSoon();
    return writes;
  }

  /** Commits the innermost transaction, the outermost one to the WAL without flushing it. */
  private commitToWal(): WriteSet {
    if (this.transactionDepth === 0) throw new Error("No transaction to commit");
    this.transactionDepth -= 1;
    const writes = this.writeSets.pop()!;
    this.writeSets.at(-1)?.merge(writes);
    if (this.outermost()) {
      this.checkNotLost();
      const written = this.counters.moved();
      for (const [key, stored] of written) this.statements.setMeta.run(key, stored);
      try {
        this.db.exec("COMMIT");
      } catch (e) {
        // A COMMIT that failed (a full disk) may leave the transaction open: nothing of it is kept.
        if (this.db.inTransaction) this.db.exec("ROLLBACK");
        throw e;
      }
      this.counters.committed(written);
    } else {
      this.checkNotLost();
      this.db.exec(`RELEASE nested${this.transactionDepth}`);
      this.counters.released(this.transactionDepth);
    }
    return writes;
  }

  /** Resolves once every commit made so far is on disk; rejects if flushing the WAL failed. */
  durable(): Promise<void> {
    return this.wal.durable();
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
    this.counters.rolledBack(this.transactionDepth);
    // Counters stay where they are: ids and creation times are never reused, as on Convex (and in
    // convex-test). What the layer above keeps of the schema is read again if the transaction changed it.
    if (this.catalogChanged) {
      this.reloadCatalog();
      this.catalogChanged = false;
    }
  }

  inTransaction(): boolean {
    return this.transactionDepth > 0;
  }

  /**
   * Notes in the open transaction's write set that it changed `tables`, kept outside the documents
   * (environment variables, the CLI's imports and exports): the commit affects every read of them.
   */
  noteTablesWritten(tables: Iterable<string>): void {
    if (!this.inTransaction()) throw new Error("Write outside a transaction");
    this.writeSets.at(-1)!.merge(WriteSet.ofTables(tables));
  }

  /**
   * A statement's error in words, or null when it is not the database's: a damaged page (told to the
   * operator once, with the file and how to restore it), a full disk, a file that cannot be written.
   * The caller gets a sentence without the server's paths.
   */
  describeFailure(e: unknown): StoreFailure | null {
    return describeFailure(e, this.dir, (operator) => {
      if (this.damageReported) return;
      this.damageReported = true;
      console.error(`local-backend: ${operator}`);
    });
  }

  // -- Ids and times ---------------------------------------------------------------------------

  /** A new document id in `table` (`IdCounters.newId`). */
  newId(component: ComponentPath, table: string): string {
    return this.counters.newId(component, table, this.transactionDepth);
  }

  /** A creation time: now, or just after the component's last one (they never repeat). */
  newCreationTime(component: ComponentPath): number {
    return this.counters.newCreationTime(component, this.transactionDepth);
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
   * Up to `limit` rows of a database index with keys in [lower, upper), in key order or its reverse,
   * strictly after `after` (in the direction of travel) when given.
   */
  scan(...args: ScanArgs): IndexRow[] {
    return scanIndex(this.statements, ...args);
  }

  /** How many entries of a database index have keys in [lower, upper), counting at most `limit`. */
  countEntries(index: { id: number }, lower: Buffer, upper: Buffer, limit: number): number {
    return this.statements.countEntries.get(index.id, lower, upper, limit)?.[0] ?? 0;
  }

  /** Why no write is accepted any more (a flush of the WAL failed), or null. */
  writeFailure(): Error | null {
    return this.wal.failure;
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
   * Removes a stored file whose `_storage` document is gone (committed and on disk), or, while a
   * backup holds removals (`holdFileRemovals`), once it lets go: the backup's snapshot of the database
   * may still name it.
   */
  removeStoredFile(storageId: string): void {
    const file = this.filePath(storageId);
    if (!file) return;
    if (this.removalHolds > 0) this.heldRemovals.add(file);
    else rmSync(file, { force: true });
  }

  /**
   * Keeps every stored file on disk until the returned function is called (once per hold): a backup
   * takes its snapshot of the database after this, then copies the files the snapshot names, which a
   * deletion committed meanwhile must not take away (`storage/backup.ts`).
   */
  holdFileRemovals(): () => void {
    this.removalHolds += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.removalHolds -= 1;
      if (this.removalHolds > 0) return;
      const files = [...this.heldRemovals];
      this.heldRemovals.clear();
      for (const file of files) rmSync(file, { force: true });
    };
  }

  /** Removes stored files no `_storage` document names (`removeUnnamedStoredFiles`); run on open. */
  protected removeUnnamedFiles(): void {
    if (this.storageDir) removeUnnamedStoredFiles(this.db, this.storageDir);
  }

  /** What the layer above keeps of the schema, read again after a rollback undid a change to it. */
  protected reloadCatalog(): void {}

  /** Closes the database; the WAL's descriptor once a flush in progress has ended. */
  close(): void {
    this.reader?.db.close();
    this.writer.db.close();
    this.wal.close();
    // While the folder is still held: no other backend can have opened the database meanwhile.
    if (this.dir) markClosedCleanly(this.dir);
    this.folderLock?.close();
  }
}
