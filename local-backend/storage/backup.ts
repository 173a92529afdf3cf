/**
 * Online backups of a data folder (decision 096): one `.tar.gz` file holding a snapshot of the
 * database, the key files and every stored file the snapshot names, and last a manifest with each
 * member's size and SHA-256 and the rows of every table. Writes go on meanwhile: the snapshot is SQLite's
 * `VACUUM INTO` on a read-only connection of its own in a worker thread (a WAL reader, which no writer
 * waits for), and the archive is packed and compressed off the backend's thread (gzip on the thread
 * pool). `restore.ts` reads it back.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open, rename, rm, stat, type FileHandle } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Worker } from "node:worker_threads";
import { createGzip } from "node:zlib";
import { pack as tarPack, type Pack } from "tar-stream";
import { describeWriteFailure, fsyncDirectory } from "../core/files.ts";
import { DATABASE_FILE, KEY_FILES } from "./folder.ts";

export const BACKUP_FORMAT = "livelocal-backup";
export const BACKUP_VERSION = 1;
/** The archive's last member. */
export const MANIFEST_NAME = "manifest.json";
/** Stored files sit under this folder in the archive, as in the data folder. */
export const STORAGE_FOLDER = "storage";
/** gzip's level: 6 (its default) packs the database to about a fifth, at about 40 MB/s here. */
const GZIP_LEVEL = 6;

export type BackupMember = { name: string; size: number; sha256: string };

export type BackupManifest = {
  format: typeof BACKUP_FORMAT;
  version: number;
  /** When the database's snapshot was taken (ISO 8601): the backup holds the data as it was then. */
  snapshotAt: string;
  /** Every member before the manifest, in the archive's order. */
  members: BackupMember[];
  /** Rows of each of the database's tables. */
  rows: Record<string, number>;
  /** Documents of each Convex table (`table`, or `component/table` for a component's). */
  documents: Record<string, number>;
  /** Stored files the snapshot names that were not in the data folder (lost before the backup). */
  missingFiles: string[];
};

export type BackupResult = {
  file: string;
  /** The backup's size on disk. */
  bytes: number;
  ms: number;
  manifest: BackupManifest;
};

/** What a backup needs of an open store: its data folder, and a hold on stored files' removal. */
export type BackedUpStore = {
  readonly dir: string | null;
  readonly storageDir: string | null;
  holdFileRemovals(): () => void;
};

/** Writes a chunk of the archive at the end of the file (tests give one that fails as a full disk does). */
export type WriteChunk = (file: FileHandle, chunk: Buffer) => Promise<void>;

export type BackupOptions = {
  /** Stops the backup: its files are removed and it rejects. */
  signal?: AbortSignal;
  /** Tests: runs once the snapshot is taken, before the stored files are packed. */
  afterSnapshot?: () => Promise<void>;
  writeChunk?: WriteChunk;
};

/** A backup could not be written: one sentence for the operator. Nothing of it is left. */
export class BackupError extends Error {}

/**
 * Takes the snapshot in a worker thread: `VACUUM INTO` on a read-only connection (one read
 * transaction, so one consistent state), then reads from the copy what the manifest says of it.
 */
const SNAPSHOT_WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
try {
  const source = new Database(workerData.source, { readonly: true, fileMustExist: true, timeout: 10000 });
  const snapshotAt = Date.now();
  try {
    source.prepare("VACUUM INTO ?").run(workerData.into);
  } finally {
    source.close();
  }
  const copy = new Database(workerData.into, { readonly: true, fileMustExist: true });
  try {
    const rows = {};
    const tables = copy
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name")
      .pluck()
      .all();
    for (const name of tables) {
      rows[name] = copy.prepare('SELECT count(*) FROM "' + name.replaceAll('"', '""') + '"').pluck().get();
    }
    const documents = {};
    for (const row of copy.prepare("SELECT component, table_name, count FROM table_counts ORDER BY 1, 2").all()) {
      documents[(row.component ? row.component + "/" : "") + row.table_name] = row.count;
    }
    const storageIds = copy.prepare("SELECT id FROM documents WHERE table_name = '_storage' ORDER BY id").pluck().all();
    parentPort.postMessage({ ok: true, snapshotAt, rows, documents, storageIds });
  } finally {
    copy.close();
  }
} catch (e) {
  parentPort.postMessage({ ok: false, message: String(e && e.message), code: e && e.code });
}
`;

type Snapshot = {
  snapshotAt: number;
  rows: Record<string, number>;
  documents: Record<string, number>;
  storageIds: string[];
};

function takeSnapshot(source: string, into: string, signal: AbortSignal | undefined): Promise<Snapshot> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(SNAPSHOT_WORKER, {
      eval: true,
      workerData: { driver: createRequire(import.meta.url).resolve("better-sqlite3"), source, into },
    });
    const abort = () => void worker.terminate();
    signal?.addEventListener("abort", abort, { once: true });
    let answered = false;
    worker.once(
      "message",
      (message: ({ ok: true } & Snapshot) | { ok: false; message: string; code?: string }) => {
        answered = true;
        if (message.ok) resolve(message);
        else reject(Object.assign(new Error(message.message), { code: message.code }));
      },
    );
    worker.once("error", reject);
    worker.once("exit", () => {
      signal?.removeEventListener("abort", abort);
      if (!answered) reject(new Error("The snapshot's worker stopped.", { cause: signal?.reason }));
    });
  });
}

const writeWhole: WriteChunk = async (file, chunk) => {
  let offset = 0;
  while (offset < chunk.length) offset += (await file.write(chunk, offset)).bytesWritten;
};

/**
 * Adds `source` to the archive as `name`, hashing it on the way; `stopped` rejects when the archive
 * can no longer be written (its file is closed then).
 */
async function addFile(
  pack: Pack,
  name: string,
  source: string,
  size: number,
  stopped: Promise<never>,
): Promise<BackupMember> {
  const hash = createHash("sha256");
  let seen = 0;
  const input = createReadStream(source, { highWaterMark: 1 << 16 });
  const packed = new Promise<void>((resolve, reject) => {
    const entry = pack.entry({ name, size, mode: 0o600, mtime: new Date(0) }, (e) =>
      e ? reject(e) : resolve(),
    );
    input.on("data", (chunk) => {
      const bytes = chunk as Buffer;
      hash.update(bytes);
      seen += bytes.length;
      if (!entry.write(bytes)) {
        input.pause();
        entry.once("drain", () => input.resume());
      }
    });
    input.once("end", () => entry.end(undefined));
    input.once("error", (e) => {
      entry.destroy(e);
      reject(e);
    });
  });
  try {
    await Promise.race([packed, stopped]);
  } finally {
    input.destroy();
  }
  if (seen !== size) throw new Error(`${source} changed while it was backed up`);
  return { name, size, sha256: hash.digest("hex") };
}

function addBytes(pack: Pack, name: string, bytes: Buffer): BackupMember {
  pack.entry({ name, size: bytes.length, mode: 0o600, mtime: new Date(0) }, bytes);
  return { name, size: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") };
}

/** The size of `file`, or null when it is not there. */
async function sizeOf(file: string): Promise<number | null> {
  try {
    return (await stat(file)).size;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
}

/** An error while backing up, in one sentence for the operator. */
function describeBackupFailure(e: unknown, file: string): string {
  const dir = path.dirname(file);
  const code = (e as { code?: unknown } | null)?.code;
  const cause =
    code === "SQLITE_FULL"
      ? `The disk holding ${dir} is full`
      : (describeWriteFailure(e, dir)?.replace("The data folder", "The backup folder") ?? null);
  const message = e instanceof Error ? e.message : String(e);
  return `${cause ?? `The backup failed (${message})`}: ${path.basename(file)} was not written and nothing of it is left; earlier backups are kept.`;
}

/**
 * Backs up the open store's data folder into `file` (a `.tar.gz`), which appears only once complete
 * and on disk: it is written beside it under a temporary name, flushed, then renamed. Every write
 * committed before this was called is in it, none begun after it returned. Stored files named by the
 * snapshot are kept on disk until they are packed, even if deleted meanwhile.
 */
export async function writeBackup(
  store: BackedUpStore,
  file: string,
  options: BackupOptions = {},
): Promise<BackupResult> {
  const { dir, storageDir } = store;
  if (!dir || !storageDir)
    throw new BackupError("A backend that keeps its data in memory has nothing to back up.");
  const started = performance.now();
  const folder = path.dirname(file);
  const base = path.basename(file);
  // Temporary names end in .<pid>.tmp: a later start removes those a killed process left.
  const temp = path.join(folder, `.${base}.${process.pid}.tmp`);
  const snapshotFile = path.join(folder, `.${base}.sqlite3.${process.pid}.tmp`);
  const writeChunk = options.writeChunk ?? writeWhole;
  const release = store.holdFileRemovals();
  let output: FileHandle | null = null;
  let pack: Pack | null = null;
  try {
    const snapshot = await takeSnapshot(path.join(dir, DATABASE_FILE), snapshotFile, options.signal);
    await options.afterSnapshot?.();
    output = await open(temp, "wx", 0o600);
    const handle = output;
    pack = tarPack();
    const written = pipeline(
      pack,
      createGzip({ level: GZIP_LEVEL }),
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          writeChunk(handle, chunk).then(() => done(), done);
        },
      }),
      { signal: options.signal },
    );
    // Writing the archive failed (a full disk): packing stops at once.
    const stopped = written.then(() => {
      throw new Error("The archive ended before all of it was packed.");
    });
    stopped.catch(() => undefined);
    const members: BackupMember[] = [];
    const missingFiles: string[] = [];
    const add = async (name: string, source: string): Promise<boolean> => {
      const size = await sizeOf(source);
      if (size === null) return false;
      options.signal?.throwIfAborted();
      members.push(await addFile(pack!, name, source, size, stopped));
      return true;
    };
    await add(DATABASE_FILE, snapshotFile);
    for (const key of KEY_FILES) await add(key, path.join(dir, key));
    for (const id of snapshot.storageIds) {
      if (!(await add(`${STORAGE_FOLDER}/${id}`, path.join(storageDir, id)))) missingFiles.push(id);
    }
    release();
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      snapshotAt: new Date(snapshot.snapshotAt).toISOString(),
      members,
      rows: snapshot.rows,
      documents: snapshot.documents,
      missingFiles,
    };
    addBytes(pack, MANIFEST_NAME, Buffer.from(`${JSON.stringify(manifest, null, 1)}\n`));
    pack.finalize();
    await written;
    await output.sync();
    const bytes = (await output.stat()).size;
    await output.close();
    output = null;
    await rename(temp, file);
    fsyncDirectory(folder);
    return { file, bytes, ms: Math.round(performance.now() - started), manifest };
  } catch (e) {
    pack?.destroy();
    if (options.signal?.aborted) throw options.signal.reason;
    throw new BackupError(describeBackupFailure(e, file), { cause: e });
  } finally {
    release();
    await output?.close().catch(() => undefined);
    await rm(temp, { force: true });
    await rm(snapshotFile, { force: true });
  }
}
