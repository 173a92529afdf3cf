/**
 * The WAL's durability (decisions 041 and 050): the store's connection commits with `synchronous =
 * NORMAL`, so SQLite writes a commit to the WAL without flushing it, and this flushes the WAL itself
 * after each commit, now (`flushNow`) or on the thread pool (`flushSoon`, `durable()`); and it
 * checkpoints a long write's WAL aside, in a worker thread (`checkpointAside`, decision 070).
 */
import { closeSync, fdatasyncSync, fstatSync, fsyncSync, openSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type Database from "better-sqlite3";
import { DATABASE_FILE } from "./folder.ts";

/** SQLite checkpoints once the WAL holds this many pages (its default, set explicitly), then writes it from the start again. */
export const WAL_CHECKPOINT_PAGES = 1000;
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

/** Flushes a file's data to disk (`fs.fdatasync`); tests give one that holds or fails a flush. */
export type FlushFile = (fd: number, done: (error: Error | null) => void) => void;

/** The WAL of the database in `dir` (none in memory), flushed to disk after each commit. */
export class Wal {
  /** The WAL file, opened at the first commit, to flush it to disk (null: in memory, or not yet). */
  private fd: number | null = null;
  /** Resolves when every commit so far is on disk. */
  private flushed: Promise<void> = Promise.resolve();
  /** The flush in progress, if any; a commit made meanwhile waits for the next one (`queued`). */
  private flushing: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  /** A flush failed: what is in the WAL may not be on disk, so no write is accepted any more. */
  failure: Error | null = null;

  constructor(
    private readonly dir: string | null,
    /** The writer's connection (the WAL's page size). */
    private readonly db: Database.Database,
    private readonly flushFile: FlushFile,
  ) {}

  /** Resolves once every commit made so far is on disk; rejects if flushing the WAL failed. */
  durable(): Promise<void> {
    return this.flushed;
  }

  /**
   * The WAL file's descriptor (opened once SQLite has created it), or null in memory. Its folder is
   * flushed once too, so that the new file's name survives a power loss (as SQLite does for a new
   * journal). The file is laid out at its working size first (`layOut`).
   */
  private file(): number | null {
    if (this.fd !== null || !this.dir) return this.fd;
    this.fd = openSync(path.join(this.dir, `${DATABASE_FILE}-wal`), "r+");
    this.layOut(this.fd);
    const folder = openSync(this.dir, "r");
    try {
      fsyncSync(folder);
    } finally {
      closeSync(folder);
    }
    return this.fd;
  }

  /**
   * Writes zeros past the WAL's end, up to a checkpoint's worth of frames (as PostgreSQL fills a new
   * WAL segment). SQLite writes its frames over them, and after each checkpoint from the start again,
   * so a commit's flush never grows the file: growing it makes `fdatasync` commit the file system's
   * journal too (0.8 ms against 0.5 ms a flush, measured here). SQLite reads a WAL only up to its
   * first frame that does not check out: zeros past the last commit are never taken for one.
   */
  private layOut(fd: number): void {
    const pageSize = this.db.pragma("page_size", { simple: true }) as number;
    const target =
      WAL_HEADER_BYTES + (WAL_CHECKPOINT_PAGES + WAL_SPARE_PAGES) * (WAL_FRAME_HEADER_BYTES + pageSize);
    const zeros = Buffer.alloc(1 << 20);
    for (let offset = fstatSync(fd).size; offset < target; offset += zeros.length) {
      writeSync(fd, zeros, 0, Math.min(zeros.length, target - offset), offset);
    }
  }

  /** Flushes the WAL to disk now, after any flush in progress (a synchronous commit, opening). */
  flushNow(): void {
    if (this.failure) throw this.failure;
    const fd = this.file();
    if (fd === null) return;
    try {
      fdatasyncSync(fd);
    } catch (e) {
      this.fail(e);
    }
  }

  /**
   * Flushes the WAL on the thread pool. Commits made while a flush runs share the next one (group
   * commit): it starts when the running one ends, so it covers everything written before it.
   */
  flushSoon(): void {
    const fd = this.file();
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
    this.flushed = next.catch((e: unknown) => this.fail(e));
    // Those who wait hear of a failure; nobody waiting is not an unhandled rejection.
    this.flushed.catch(() => undefined);
  }

  /**
   * A failed flush leaves the WAL's pages in an unknown state (the kernel may have dropped them):
   * like PostgreSQL, stop accepting writes rather than acknowledge what may be lost. Throws.
   */
  private fail(error: unknown): never {
    this.failure ??= new Error(
      `The database could not be written to disk (${error instanceof Error ? error.message : String(error)}); restart the backend.`,
    );
    throw this.failure;
  }

  /** Closes the WAL's descriptor once a flush in progress has ended. */
  close(): void {
    const fd = this.fd;
    this.fd = null;
    if (fd === null) return;
    const running = this.queued ?? this.flushing;
    if (running) void running.catch(() => undefined).then(() => closeSync(fd));
    else closeSync(fd);
  }
}

/**
 * Copies the WAL of the database in `dir` into the database on a connection of its own in a worker
 * thread, while `writer` goes on reading and writing (a passive checkpoint waits for no one); commits
 * meanwhile leave the checkpoint to it. If it fails, the next commit checkpoints as usual.
 */
export function checkpointAside(dir: string, writer: Database.Database): void {
  const resume = () => {
    try {
      writer.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
    } catch {
      // Closed meanwhile.
    }
  };
  const worker = new Worker(CHECKPOINT_WORKER, {
    eval: true,
    workerData: {
      driver: createRequire(import.meta.url).resolve("better-sqlite3"),
      file: path.join(dir, DATABASE_FILE),
    },
  });
  worker.once("error", (e) => {
    console.warn(
      `local-backend: the checkpoint after a long write failed (${String(e)}); the next commit makes it`,
    );
  });
  worker.once("exit", resume);
}
