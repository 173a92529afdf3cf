/**
 * Files the embedded backend keeps beside its database: written whole or not at all, flushed before
 * anyone is told they exist, readable by this user only (the folder 0700, files 0600: they hold the
 * deployment's secrets); secrets made once and refused when damaged (decision 055); leftovers of
 * interrupted writes (temporary files, and stored files whose document never committed) removed on start.
 */
import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  opendirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";

/** Temporary files are `<name>.<pid>.tmp`: written in full, flushed, then renamed over `<name>`. */
const TEMP_FILE = /\.(\d+)\.tmp$/;
const SECRET_BYTES = 32;

/**
 * The data folder cannot be used as it is: the message, one line for the operator, names the folder or
 * file and says what to do. The backend does not start.
 */
export class DataFolderError extends Error {}

/** The command that wipes `dir` (`npm run backend:reset`, with `--data-dir` when it is not the default). */
export function resetCommand(dir: string): string {
  return path.resolve(dir) === path.resolve(".local-backend")
    ? "npm run backend:reset"
    : `npm run backend:reset -- --data-dir ${dir}`;
}

/**
 * Takes group and other permissions away from `file` (it holds secrets), leaving the owner's as they
 * are (a read-only folder stays read-only); what this user cannot change stays.
 */
export function keepPrivate(file: string): void {
  try {
    const { mode } = statSync(file);
    if ((mode & 0o077) !== 0) chmodSync(file, mode & 0o700);
  } catch {
    // Missing, or not this user's: opening or writing it says so in words.
  }
}

const NOT_WRITABLE = new Set(["EACCES", "EPERM", "EROFS"]);

/** A write to the data folder failed: its cause in words (the disk is full, the folder is read-only), or null. */
export function describeWriteFailure(e: unknown, dir: string): string | null {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  if (code === "ENOSPC" || code === "EDQUOT") return `The disk holding ${dir} is full`;
  if (code && NOT_WRITABLE.has(code)) {
    return `The data folder ${dir} is not writable by this user (${code})`;
  }
  return null;
}

/**
 * Makes the data folder (0700), or takes group and other permissions away from an existing one, and
 * checks that this user can create a file in it: a read-only folder is refused here in words, not by
 * SQLite's "disk I/O error" later.
 */
export function prepareDataFolder(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    keepPrivate(dir);
    const probe = path.join(dir, `.write-check.${process.pid}.tmp`);
    closeSync(openSync(probe, "w", 0o600));
    rmSync(probe, { force: true });
  } catch (e) {
    const cause = describeWriteFailure(e, dir);
    if (!cause) throw e;
    throw new DataFolderError(
      `${cause}: the backend keeps its database there. Make it writable by the user running the backend (or free some space), or give it another folder with --data-dir.`,
      { cause: e },
    );
  }
}

/** Flushes a folder's entries (a file renamed into it) to disk. */
export function fsyncDirectory(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes bytes at a descriptor (`fs.writeSync`); tests give one that fails as a full disk does. */
export type WriteBytes = (fd: number, data: Uint8Array, offset: number) => number;

const writeBytes: WriteBytes = (fd, data, offset) => writeSync(fd, data, offset);

/**
 * Writes `file` whole or not at all (readable by this user only), on disk (flushed) when this
 * returns; no temporary file outlives it.
 */
export function writeFileDurably(
  file: string,
  data: Uint8Array,
  mode = 0o600,
  write: WriteBytes = writeBytes,
): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    const fd = openSync(temp, "w", mode);
    try {
      let offset = 0;
      while (offset < data.length) offset += write(fd, data, offset);
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
 * a data folder. For the admin key and the file-URL signatures. One of another length (an empty file
 * after a crash or a full disk) is refused, not used or silently replaced: `whenReplaced` says what a
 * new one would change.
 */
export function readOrCreateSecret(dataDir: string | null, name: string, whenReplaced: string): Buffer {
  if (!dataDir) return randomBytes(SECRET_BYTES);
  const file = path.join(dataDir, name);
  if (existsSync(file)) {
    keepPrivate(file);
    const secret = readFileSync(file);
    if (secret.length !== SECRET_BYTES) {
      throw new DataFolderError(
        `${file} is damaged (${secret.length} bytes; the key it holds has ${SECRET_BYTES}), so the backend will not start with it. Put back a copy of it, or delete it to have a new one made at the next start (${whenReplaced}).`,
      );
    }
    return secret;
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(SECRET_BYTES);
  writeFileDurably(file, secret, 0o600);
  return secret;
}

/** Whether a process with this id is alive. */
export function isRunning(pid: number): boolean {
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

/**
 * Removes the files of `dir` that `isNamed` does not claim (temporary files aside), at most `limit`;
 * `more` tells that the limit stopped it. The folder is read as a stream, not listed whole.
 */
export function removeUnnamedFiles(
  dir: string,
  isNamed: (name: string) => boolean,
  limit: number,
): { removed: number; more: boolean } {
  let removed = 0;
  const entries = opendirSync(dir);
  try {
    for (let entry = entries.readSync(); entry !== null; entry = entries.readSync()) {
      if (!entry.isFile() || TEMP_FILE.test(entry.name) || isNamed(entry.name)) continue;
      if (removed === limit) return { removed, more: true };
      rmSync(path.join(dir, entry.name), { force: true });
      removed += 1;
    }
  } finally {
    entries.closeSync();
  }
  return { removed, more: false };
}
