/**
 * Files the embedded backend keeps beside its database: written whole or not at all, flushed before
 * anyone is told they exist; secrets made once; leftovers of interrupted writes (temporary files, and
 * stored files whose document never committed) removed on start.
 */
import {
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
  writeSync,
} from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";

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
