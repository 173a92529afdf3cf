/**
 * The data folder and its database file: held by one backend at a time (`backend.lock`, decisions 048
 * and 070), made private, its database opened in WAL mode, and refused in words when it is damaged,
 * lost or unwritable (decision 055). Stored files live beside it in `storage/<storage id>`.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import {
  DataFolderError,
  keepPrivate,
  removeLeftoverTempFiles,
  removeUnnamedFiles,
  resetCommand,
} from "../core/files.ts";

export const DATABASE_FILE = "data.sqlite3";
/** Files a start writes after the database: one of them shows the folder was in use (its database existed). */
export const KEY_FILES = ["admin-key", "file-url-secret", "auth-key.json"];
/** Stored files without a document removed at most per start (each one logged in the count). */
const MAX_UNNAMED_FILES_REMOVED = 1000;

/** Another backend holds the data folder's database (decision 048). */
export class FolderInUseError extends DataFolderError {}

/** SQLite's result code of an error it raised (`SQLITE_CORRUPT_INDEX` …), or null. */
export function sqliteCode(e: unknown): string | null {
  return e instanceof Database.SqliteError ? e.code : null;
}

/** The file cannot be read as a database, or a page of it is damaged. */
function isDamage(code: string | null): boolean {
  return code !== null && /^SQLITE_(CORRUPT|NOTADB)/.test(code);
}

/** How to get going again after the database in `dir` is lost (one sentence, for the operator). */
export function howToRestore(dir: string): string {
  const reset = resetCommand(dir);
  return `Keep a copy of the folder, then restore your last backup into a new folder and start on it (\`npm run backup:restore <backup>.tar.gz -- --data-dir <new folder>\`, for those \`npm start -- --backup-dir\` makes); or, from a ZIP \`npx convex export\` made: \`${reset}\`, start the backend, and \`npx convex import --replace-all <backup>.zip\`; or start over with \`${reset}\`.`;
}

/** The file whose lock says a backend holds the data folder (decision 070). */
const LOCK_FILE = "backend.lock";

/**
 * Holds the data folder for this process (decisions 048 and 070): a small SQLite database in
 * exclusive locking mode, written once, keeps its file lock until it is closed or the process dies
 * (`kill -9` too). A folder another backend holds is refused (`FolderInUseError`) before anything in
 * it is touched.
 */
export function holdFolder(dir: string): Database.Database {
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
export function openDatabase(dir: string | null): Database.Database {
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

/** Written when the store closes cleanly: its database files as they were left (decision 091). */
const CLOSED_CLEANLY_FILE = "closed-cleanly";

/**
 * The database's files as the file system has them: inode, size and change time (which every write,
 * and every change of the modification time, moves on), of the database and of its WAL.
 */
function databaseStamp(dir: string): string {
  return JSON.stringify(
    ["", "-wal"].map((suffix) => {
      const file = path.join(dir, `${DATABASE_FILE}${suffix}`);
      if (!existsSync(file)) return null;
      const stat = statSync(file, { bigint: true });
      return [String(stat.ino), String(stat.size), String(stat.ctimeNs)];
    }),
  );
}

/** After the store's last connection to its database closed: the mark the next start reads. */
export function markClosedCleanly(dir: string): void {
  try {
    writeFileSync(path.join(dir, CLOSED_CLEANLY_FILE), databaseStamp(dir), { mode: 0o600 });
  } catch {
    // A full disk or a read-only folder: without the mark, the next start checks every page.
  }
}

/**
 * Whether the store was closed cleanly and nothing has touched its database files since; read before
 * the database is opened (opening it touches its WAL). The mark is used up: a run that does not end
 * cleanly (killed, a crash, the power) leaves none, and the next start checks every page.
 */
export function takeCleanCloseMark(dir: string): boolean {
  const file = path.join(dir, CLOSED_CLEANLY_FILE);
  if (!existsSync(file)) return false;
  const mark = readFileSync(file, "utf8");
  rmSync(file, { force: true });
  return mark === databaseStamp(dir);
}

/**
 * SQLite's `quick_check` of every page (not the index contents, which `integrity_check` adds): a
 * damaged page refuses the start, in words, instead of failing the first query that reads it.
 */
export function checkDatabase(db: Database.Database, dir: string): void {
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

/**
 * Readies the data folder for its database: `storage/` made (0700), leftovers of interrupted writes
 * removed, a lost database refused, and the database file made this user's only (it holds the
 * deployment's secrets, environment variables; SQLite gives its -wal and -shm files the database
 * file's mode). Returns the stored files' folder.
 */
export function prepareStoreFolder(dir: string): string {
  const storageDir = path.join(dir, "storage");
  mkdirSync(storageDir, { recursive: true, mode: 0o700 });
  keepPrivate(storageDir);
  removeLeftoverTempFiles(dir);
  removeLeftoverTempFiles(storageDir);
  refuseLostDatabase(dir);
  const file = path.join(dir, DATABASE_FILE);
  if (!existsSync(file)) closeSync(openSync(file, "a", 0o600));
  for (const suffix of ["", "-wal", "-shm"]) keepPrivate(path.join(dir, `${DATABASE_FILE}${suffix}`));
  return storageDir;
}

/**
 * A statement's error in words, or null when it is not the database's: a damaged page (`onDamage`
 * hears the operator's sentence, with the file and how to restore it), a full disk, a file that
 * cannot be written. The caller gets a sentence without the server's paths.
 */
export function describeFailure(
  e: unknown,
  dir: string | null,
  onDamage: (operator: string) => void,
): StoreFailure | null {
  const code = sqliteCode(e);
  if (code === null) return null;
  const file = dir ? path.join(dir, DATABASE_FILE) : "the in-memory database";
  const message = (e as Error).message;
  if (isDamage(code)) {
    const operator = `${file} is damaged (${message}): stop the backend. ${dir ? howToRestore(dir) : ""}`;
    onDamage(operator);
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

/**
 * Removes stored files no `_storage` document names. A file is on disk before its document commits,
 * so a process killed in between (or a transaction rolled back after `ctx.storage.store`) leaves one
 * that nothing will ever serve or delete. Run on open, before anything is stored.
 */
export function removeUnnamedStoredFiles(db: Database.Database, storageDir: string): void {
  const named = db
    .prepare<[string], number>("SELECT 1 FROM documents WHERE id = ? AND table_name = '_storage'")
    .pluck();
  const { removed, more } = removeUnnamedFiles(
    storageDir,
    (name) => named.get(name) !== undefined,
    MAX_UNNAMED_FILES_REMOVED,
  );
  if (removed === 0) return;
  console.log(
    `local-backend: removed ${removed} stored ${removed === 1 ? "file" : "files"} without a _storage document (left by an interrupted upload or a rolled-back store)${more ? "; more remain, the next start goes on" : ""}`,
  );
}
