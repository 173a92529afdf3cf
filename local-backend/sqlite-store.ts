/**
 * The embedded backend's data on disk: one SQLite database (`<data dir>/data.sqlite3`, WAL, synchronous
 * FULL) holding every document by id and table, and the engine's counters; stored files (`ctx.storage`)
 * beside it in `storage/<storage id>`. Every change the engine commits is written here, in one SQLite
 * transaction, before the call that made it is answered: an acknowledged write is on disk, whatever
 * happens to the process afterwards (`kill -9` included).
 *
 * A `snapshot.json` from before this store (the earlier JSON snapshots) is imported once, on the first
 * start, then set aside as `snapshot.json.imported`.
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";
import Database from "better-sqlite3";
import { convexToJson, jsonToConvex, type JSONValue, type Value } from "convex/values";
import type { EngineChanges, EngineState } from "./engine.ts";
import { tableFromId } from "./paths.ts";

const DATABASE_FILE = "data.sqlite3";
const SCHEMA_VERSION = 1;
const SNAPSHOT_FORMAT = "livelocal-local-backend-snapshot";

type Document = Record<string, Value>;

/** Temporary files are `<name>.<pid>.tmp`: written in full, flushed, then renamed over `<name>`. */
const TEMP_FILE = /\.(\d+)\.tmp$/;

function fsyncDirectory(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes `file` whole or not at all, on disk (flushed) when this returns; no temporary file outlives it. */
export function writeFileDurably(file: string, data: Uint8Array, mode = 0o644): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    const fd = openSync(temp, "w", mode);
    try {
      let offset = 0;
      while (offset < data.length) offset += writeSync(fd, data, offset);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
    fsyncDirectory(path.dirname(file));
  } finally {
    rmSync(temp, { force: true });
  }
}

/**
 * A 32-byte secret kept in `dataDir/name` (mode 0600), made on first use; a new one per process without
 * a data folder. For the admin key and the file-URL signatures.
 */
export function readOrCreateSecret(dataDir: string | null, name: string): Buffer {
  if (!dataDir) return randomBytes(32);
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file);
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32);
  writeFileDurably(file, secret, 0o600);
  return secret;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes temporary files left by a write that was interrupted (the process was killed mid-write): on
 * start, before this process has written any, so its own pid's leftovers (a reused pid) go too, and
 * another running process's stay.
 */
export function removeLeftoverTempFiles(dir: string): number {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    const match = TEMP_FILE.exec(name);
    if (!match) continue;
    const pid = Number(match[1]);
    if (pid !== process.pid && isRunning(pid)) continue;
    rmSync(path.join(dir, name), { force: true });
    removed += 1;
  }
  return removed;
}

type SnapshotFile = {
  format: string;
  version: number;
  nextDocId: number;
  lastCreationTime: number;
  lastCommitTs: string;
  documents: JSONValue[];
};

/** The documents and counters of a `snapshot.json` written by the earlier store. */
export function readSnapshotFile(text: string): Omit<EngineState, "storage"> {
  const file = JSON.parse(text) as SnapshotFile;
  if (file.format !== SNAPSHOT_FORMAT || file.version !== 1) {
    throw new Error(`Unknown snapshot format ${String(file.format)} v${String(file.version)}`);
  }
  const documents: EngineState["documents"] = {};
  for (const json of file.documents) {
    const doc = jsonToConvex(json) as Document;
    documents[doc._id as string] = doc;
  }
  return {
    documents,
    nextDocId: file.nextDocId,
    lastCreationTime: file.lastCreationTime,
    lastCommitTs: BigInt(file.lastCommitTs),
  };
}

type Counters = { nextDocId: number; lastCreationTime: number; lastCommitTs: bigint };

export class SqliteStore {
  readonly storageDir: string;
  private readonly db: Database.Database;
  private readonly upsert: Database.Statement<[string, string, string]>;
  private readonly remove: Database.Statement<[string]>;
  private readonly setMeta: Database.Statement<[string, string]>;
  /** Commits never overlap (stored files are read asynchronously first). */
  private chain: Promise<void> = Promise.resolve();
  commits = 0;
  private pending = 0;

  private constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    this.storageDir = path.join(dir, "storage");
    mkdirSync(this.storageDir, { recursive: true });
    removeLeftoverTempFiles(dir);
    removeLeftoverTempFiles(this.storageDir);
    this.db = new Database(path.join(dir, DATABASE_FILE));
    this.db.pragma("journal_mode = WAL");
    // FULL: each commit is flushed to disk before it returns (WAL's NORMAL may lose the last ones).
    this.db.pragma("synchronous = FULL");
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS documents (
        id TEXT PRIMARY KEY,
        table_name TEXT NOT NULL,
        value TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS documents_by_table ON documents (table_name);
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
    `);
    this.upsert = this.db.prepare(
      "INSERT INTO documents (id, table_name, value) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET value = excluded.value",
    );
    this.remove = this.db.prepare("DELETE FROM documents WHERE id = ?");
    this.setMeta = this.db.prepare(
      "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    );
  }

  /** Opens (or creates) the store in `dir`. */
  static open(dir: string): SqliteStore {
    return new SqliteStore(dir);
  }

  /** Wipes the data folder (documents, files and auth key). */
  static reset(dir: string): void {
    rmSync(dir, { recursive: true, force: true });
  }

  private meta(key: string): string | null {
    const row = this.db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as
      { value: string } | undefined;
    return row?.value ?? null;
  }

  /** Everything stored, or null for a new store (which then imports a `snapshot.json` if there is one). */
  load(): EngineState | null {
    if (this.meta("schemaVersion") === null) return this.importSnapshot();
    const documents: EngineState["documents"] = {};
    for (const row of this.db.prepare("SELECT value FROM documents").iterate() as Iterable<{
      value: string;
    }>) {
      const doc = jsonToConvex(JSON.parse(row.value) as JSONValue) as Document;
      documents[doc._id as string] = doc;
    }
    const state = {
      documents,
      nextDocId: Number(this.meta("nextDocId") ?? 0),
      lastCreationTime: Number(this.meta("lastCreationTime") ?? 0),
      lastCommitTs: BigInt(this.meta("lastCommitTs") ?? "0"),
    };
    return { ...state, storage: this.readStoredFiles(documents) };
  }

  private importSnapshot(): EngineState | null {
    const file = path.join(this.dir, "snapshot.json");
    if (!existsSync(file)) return null;
    let imported: Omit<EngineState, "storage">;
    try {
      imported = readSnapshotFile(readFileSync(file, "utf8"));
    } catch (e) {
      const aside = `${file}.unreadable-${Date.now()}`;
      renameSync(file, aside);
      console.warn(`local-backend: could not read ${file} (${String(e)}); moved it to ${aside}`);
      return null;
    }
    const state = { ...imported, storage: this.readStoredFiles(imported.documents) };
    this.writeAll(state);
    renameSync(file, `${file}.imported`);
    console.log(`local-backend: imported ${file} into ${DATABASE_FILE} (kept as snapshot.json.imported)`);
    return state;
  }

  /** The stored files of the `_storage` documents (missing ones are skipped, with a warning). */
  private readStoredFiles(documents: EngineState["documents"]): Record<string, Blob> {
    const storage: Record<string, Blob> = {};
    for (const id of Object.keys(documents)) {
      if (tableFromId(id) !== "_storage") continue;
      try {
        storage[id] = new Blob([readFileSync(path.join(this.storageDir, id))]);
      } catch {
        console.warn(`local-backend: stored file ${id} is missing from ${this.storageDir}`);
      }
    }
    return storage;
  }

  private writeCounters(counters: Counters): void {
    this.setMeta.run("schemaVersion", String(SCHEMA_VERSION));
    this.setMeta.run("nextDocId", String(counters.nextDocId));
    this.setMeta.run("lastCreationTime", String(counters.lastCreationTime));
    this.setMeta.run("lastCommitTs", counters.lastCommitTs.toString());
  }

  /** Replaces every document with `state`'s (an import; its stored files are in place already). */
  private writeAll(state: EngineState): void {
    this.db.transaction(() => {
      this.db.exec("DELETE FROM documents");
      for (const [id, doc] of Object.entries(state.documents)) this.writeDocument(id, doc);
      this.writeCounters(state);
    })();
  }

  private writeDocument(id: string, doc: Document | null): void {
    if (doc === null) this.remove.run(id);
    else this.upsert.run(id, tableFromId(id) ?? "", JSON.stringify(convexToJson(doc)));
  }

  /**
   * Makes `changes` durable: new stored files first (flushed), then the documents and counters in one
   * transaction, then the files of deleted `_storage` documents go. Resolves once all is on disk.
   */
  commit(changes: EngineChanges): Promise<void> {
    const run = async () => {
      for (const [id, blob] of changes.storage) {
        if (blob === null) continue;
        const file = path.join(this.storageDir, id);
        if (!existsSync(file)) writeFileDurably(file, new Uint8Array(await blob.arrayBuffer()));
      }
      if (changes.documents.size > 0) {
        this.db.transaction(() => {
          for (const [id, doc] of changes.documents) this.writeDocument(id, doc);
          this.writeCounters(changes.counters);
        })();
        this.commits += 1;
      }
      // A file goes once its `_storage` document (or its blob) is gone and that is committed.
      for (const [id, doc] of changes.documents) {
        if (doc === null && tableFromId(id) === "_storage")
          rmSync(path.join(this.storageDir, id), { force: true });
      }
      for (const [id, blob] of changes.storage) {
        if (blob === null) rmSync(path.join(this.storageDir, id), { force: true });
      }
    };
    this.pending += 1;
    const result = this.chain.then(run).finally(() => (this.pending -= 1));
    // The next commit waits for this one, failed or not; this one's caller sees its own failure.
    this.chain = result.catch(() => undefined);
    return result;
  }

  /** Resolves once every commit started so far is on disk. */
  committed(): Promise<void> {
    return this.chain;
  }

  /** A commit is being written. */
  busy(): boolean {
    return this.pending > 0;
  }

  close(): void {
    this.db.close();
  }
}
