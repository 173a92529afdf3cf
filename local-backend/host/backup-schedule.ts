/**
 * Backups on a schedule (`npm start -- --backup-dir DIR --backup-every 6h --backup-keep 14`, decision
 * 096): one at start when the newest in the folder is older than the interval (or there is none), then
 * one per interval; the newest `keep` are kept, older ones removed only after a new one is complete. A
 * backup that fails (a full disk) is logged, leaves nothing of itself, and leaves the earlier backups
 * and the server as they were; the next one is tried an interval later.
 */
import { closeSync, openSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { describeWriteFailure, removeLeftoverTempFiles } from "../core/files.ts";
import { writeBackup, type BackedUpStore, type BackupOptions } from "../storage/backup.ts";

export const DEFAULT_BACKUP_EVERY = "6h";
export const DEFAULT_BACKUP_KEEP = 14;

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
/** The longest a timer waits (about 24.8 days). */
const MAX_DELAY_MS = 2 ** 31 - 1;

export type BackupScheduleOptions = { dir: string; everyMs: number; keep: number };

/** A command-line flag's value that cannot be used; the message says what would be. */
export class BackupSetupError extends Error {}

/** `30m`, `6h`, `1d` (also `10s`, for tests) in milliseconds. */
export function parseDuration(text: string, flag = "--backup-every"): number {
  const match = /^(\d+)([smhd])$/.exec(text.trim());
  const ms = match ? Number(match[1]) * (UNITS[match[2] ?? ""] ?? NaN) : NaN;
  if (!(ms > 0) || ms > MAX_DELAY_MS) {
    throw new BackupSetupError(
      `${flag} takes a whole number and a unit, such as 30m, 6h or 1d (s, m, h or d; at most 24d), not "${text}".`,
    );
  }
  return ms;
}

/** The backup flags as given on the command line; undefined without `--backup-dir`. */
export function parseBackupFlags(flags: {
  dir?: string;
  every?: string;
  keep?: string;
}): BackupScheduleOptions | undefined {
  if (flags.dir === undefined) {
    if (flags.every !== undefined || flags.keep !== undefined) {
      throw new BackupSetupError(
        "--backup-every and --backup-keep need --backup-dir (where the backups go).",
      );
    }
    return undefined;
  }
  if (flags.dir.trim() === "") throw new BackupSetupError("--backup-dir needs a folder.");
  const keepText = flags.keep ?? String(DEFAULT_BACKUP_KEEP);
  const keep = /^\d+$/.test(keepText) ? Number(keepText) : NaN;
  if (!(keep >= 1 && keep <= 10_000)) {
    throw new BackupSetupError(
      `--backup-keep takes how many backups to keep (1 or more), not "${keepText}".`,
    );
  }
  return { dir: path.resolve(flags.dir), everyMs: parseDuration(flags.every ?? DEFAULT_BACKUP_EVERY), keep };
}

const NAME = /^livelocal-backup-(\d{4}-\d\d-\d\dT\d\d)-(\d\d)-(\d\d)\.(\d{3})Z\.tar\.gz$/;

/** A backup's file name, from the time it began: names sort as times do. */
export function backupName(at: Date): string {
  return `livelocal-backup-${at.toISOString().replace(/:/g, "-")}.tar.gz`;
}

/** When the backup named `name` began, or null for a name that is not a backup's. */
export function backupTime(name: string): number | null {
  const match = NAME.exec(name);
  return match ? Date.parse(`${match[1]}:${match[2]}:${match[3]}.${match[4]}Z`) : null;
}

/** The backups in `dir`, oldest first (other files are not ours, and are left alone). */
export function listBackups(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => backupTime(name) !== null)
    .sort();
}

/** Which backups go when the newest `keep` stay (oldest first). */
export function backupsToRemove(names: readonly string[], keep: number): string[] {
  const sorted = names.filter((name) => backupTime(name) !== null).sort();
  return sorted.slice(0, Math.max(0, sorted.length - keep));
}

/** How long after `now` the first backup starts: at once, unless the newest is younger than the interval. */
export function firstBackupDelay(newest: number | null, now: number, everyMs: number): number {
  if (newest === null) return 0;
  return Math.max(0, Math.min(newest + everyMs - now, everyMs));
}

/**
 * Refuses, in words, a backup folder that is missing, not a folder, not writable, or inside the data
 * folder (a reset would wipe the backups with the data).
 */
export function checkBackupFolder(dir: string, dataDir: string | null): void {
  if (dataDir === null) {
    throw new BackupSetupError(
      "--backup-dir backs up the data folder, and this server keeps its data in memory.",
    );
  }
  const relative = path.relative(path.resolve(dataDir), dir);
  if (relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative))) {
    throw new BackupSetupError(
      `The backup folder ${dir} is inside the data folder ${dataDir}: give one outside it (on another disk, ideally).`,
    );
  }
  let isFolder: boolean;
  try {
    isFolder = statSync(dir).isDirectory();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") throw e;
    throw new BackupSetupError(
      `The backup folder ${dir} does not exist: create it (on another disk, ideally), or give another with --backup-dir.`,
    );
  }
  if (!isFolder) throw new BackupSetupError(`--backup-dir ${dir} is not a folder.`);
  const probe = path.join(dir, `.write-check.${process.pid}.tmp`);
  try {
    closeSync(openSync(probe, "w", 0o600));
    rmSync(probe, { force: true });
  } catch (e) {
    const cause = describeWriteFailure(e, dir)?.replace("The data folder", "The backup folder");
    if (!cause) throw e;
    throw new BackupSetupError(
      `${cause}: make it writable by the user running the server, or give another with --backup-dir.`,
      {
        cause: e,
      },
    );
  }
}

/** The last backup's outcome (for the operator's metrics). */
export type LastBackup = {
  /** When it ended (ISO 8601). */
  at: string;
  ok: boolean;
  /** The backup's file; null when it failed. */
  file: string | null;
  bytes: number;
  ms: number;
  /** Why it failed, in words; null when it succeeded. */
  error: string | null;
};

export class BackupSchedule {
  private store: BackedUpStore | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<LastBackup> | null = null;
  private readonly abort = new AbortController();
  private lastResult: LastBackup | null = null;
  /** The newest complete backup (this run's, or the folder's newest at start): for the metrics. */
  private lastOk: { at: number; bytes: number } | null = null;
  /** Backups that failed since the start (a stop's is not one). */
  failures = 0;

  /** Checks the folder (throws `BackupSetupError`) and removes what killed backups left in it. */
  constructor(
    readonly options: BackupScheduleOptions,
    dataDir: string | null,
    private readonly log: { info(line: string): void; error(line: string): void } = {
      info: (line) => console.log(line),
      error: (line) => console.error(line),
    },
    /** Tests: passed to each backup. */
    private readonly backupOptions: Omit<BackupOptions, "signal"> = {},
  ) {
    checkBackupFolder(options.dir, dataDir);
    removeLeftoverTempFiles(options.dir);
  }

  /** Starts backing up `store`: the first backup now or when the newest one is an interval old. */
  start(store: BackedUpStore): void {
    this.store = store;
    const newest = listBackups(this.options.dir).at(-1);
    const newestAt = newest ? backupTime(newest) : null;
    if (newest && newestAt !== null) {
      this.lastOk = { at: newestAt, bytes: statSync(path.join(this.options.dir, newest)).size };
    }
    const delay = firstBackupDelay(newest ? backupTime(newest) : null, Date.now(), this.options.everyMs);
    this.schedule(delay);
  }

  /** The last backup's outcome; null before the first has ended. */
  last(): LastBackup | null {
    return this.lastResult;
  }

  /** When the newest complete backup was taken (ms since the epoch) and its size; null when none is. */
  lastSuccess(): { at: number; bytes: number } | null {
    return this.lastOk;
  }

  private schedule(delayMs: number): void {
    if (this.abort.signal.aborted) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      const began = Date.now();
      void this.runNow().then(() => this.schedule(Math.max(0, began + this.options.everyMs - Date.now())));
    }, delayMs);
    this.timer.unref();
  }

  /** Takes a backup now (or waits for the one under way); never rejects. */
  runNow(): Promise<LastBackup> {
    this.running ??= this.backUp().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async backUp(): Promise<LastBackup> {
    const store = this.store;
    if (!store) throw new Error("The backup schedule has not started.");
    const file = path.join(this.options.dir, backupName(new Date()));
    const started = performance.now();
    try {
      const result = await writeBackup(store, file, { ...this.backupOptions, signal: this.abort.signal });
      const removed = backupsToRemove(listBackups(this.options.dir), this.options.keep);
      for (const name of removed) rmSync(path.join(this.options.dir, name), { force: true });
      const documents = Object.values(result.manifest.documents).reduce((sum, n) => sum + n, 0);
      const files = result.manifest.members.filter((m) => m.name.startsWith("storage/")).length;
      this.log.info(
        `backup: ${file} (${formatBytes(result.bytes)}, ${documents} documents, ${files} files) in ${(result.ms / 1000).toFixed(1)} s${removed.length > 0 ? `; removed ${removed.length} older (keeping ${this.options.keep})` : ""}`,
      );
      if (result.manifest.missingFiles.length > 0) {
        this.log.error(
          `backup: ${result.manifest.missingFiles.length} stored files named by the database were not in the data folder (lost before this backup): ${result.manifest.missingFiles.slice(0, 5).join(", ")}`,
        );
      }
      this.lastOk = { at: backupTime(path.basename(file)) ?? Date.now(), bytes: result.bytes };
      this.lastResult = {
        at: new Date().toISOString(),
        ok: true,
        file,
        bytes: result.bytes,
        ms: result.ms,
        error: null,
      };
    } catch (e) {
      if (this.abort.signal.aborted) {
        this.lastResult = this.failed(started, "Stopped with the server.");
      } else {
        const error = e instanceof Error ? e.message : String(e);
        this.log.error(`backup: FAILED. ${error}`);
        this.failures += 1;
        this.lastResult = this.failed(started, error);
      }
    }
    return this.lastResult;
  }

  private failed(started: number, error: string): LastBackup {
    const ms = Math.round(performance.now() - started);
    return { at: new Date().toISOString(), ok: false, file: null, bytes: 0, ms, error };
  }

  /** Stops the schedule; a backup under way is stopped and its files removed. */
  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.abort.abort(new Error("The server is stopping."));
    await this.running;
  }
}

function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
