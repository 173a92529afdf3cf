import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  backupName,
  backupsToRemove,
  backupTime,
  checkBackupFolder,
  firstBackupDelay,
  parseBackupFlags,
  parseDuration,
} from "./backup-schedule.ts";

const scratch = mkdtempSync(path.join(tmpdir(), "backup-schedule-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("--backup-every", () => {
  it("reads seconds, minutes, hours and days", () => {
    expect(parseDuration("10s")).toBe(10_000);
    expect(parseDuration("30m")).toBe(1_800_000);
    expect(parseDuration("6h")).toBe(21_600_000);
    expect(parseDuration("1d")).toBe(86_400_000);
    expect(parseDuration("24d")).toBe(24 * 86_400_000);
  });

  it.each(["6", "h", "0h", "1.5h", "-1h", "6x", "", "6 h", "25d", "1w"])("refuses %j in words", (text) => {
    expect(() => parseDuration(text)).toThrow(
      /--backup-every takes a whole number and a unit, such as 30m, 6h or 1d/,
    );
  });
});

describe("the backup flags", () => {
  it("are off without --backup-dir, and every 6 h keeping 14 by default", () => {
    expect(parseBackupFlags({})).toBeUndefined();
    expect(parseBackupFlags({ dir: "backups" })).toEqual({
      dir: path.resolve("backups"),
      everyMs: 6 * 3_600_000,
      keep: 14,
    });
    expect(parseBackupFlags({ dir: "/b", every: "30m", keep: "3" })).toEqual({
      dir: "/b",
      everyMs: 1_800_000,
      keep: 3,
    });
  });

  it("refuses what cannot be used", () => {
    expect(() => parseBackupFlags({ every: "6h" })).toThrow(
      "--backup-every and --backup-keep need --backup-dir",
    );
    expect(() => parseBackupFlags({ dir: "/b", keep: "0" })).toThrow(
      '--backup-keep takes how many backups to keep (1 or more), not "0"',
    );
    expect(() => parseBackupFlags({ dir: "/b", keep: "two" })).toThrow("--backup-keep takes");
    expect(() => parseBackupFlags({ dir: " " })).toThrow("--backup-dir needs a folder");
  });
});

describe("backup names and retention", () => {
  it("names a backup by the time it began, and reads the time back", () => {
    const at = new Date("2026-11-30T06:00:01.234Z");
    expect(backupName(at)).toBe("livelocal-backup-2026-11-30T06-00-01.234Z.tar.gz");
    expect(backupTime(backupName(at))).toBe(at.getTime());
    expect(backupTime("notes.txt")).toBeNull();
    expect(backupTime(".livelocal-backup-2026-11-30T06-00-01.234Z.tar.gz.123.tmp")).toBeNull();
  });

  it("removes the oldest beyond the newest N, and nothing that is not a backup", () => {
    const names = [3, 1, 4, 2, 5].map((day) => backupName(new Date(Date.UTC(2026, 10, day))));
    expect(backupsToRemove([...names, "keep-me.txt"], 2)).toEqual([names[1], names[3], names[0]]);
    expect(backupsToRemove(names, 14)).toEqual([]);
  });

  it("takes the first backup at start unless the newest is younger than the interval", () => {
    const hour = 3_600_000;
    expect(firstBackupDelay(null, 10 * hour, 6 * hour)).toBe(0);
    expect(firstBackupDelay(1 * hour, 10 * hour, 6 * hour)).toBe(0);
    expect(firstBackupDelay(8 * hour, 10 * hour, 6 * hour)).toBe(4 * hour);
    // A clock set back does not put the next backup off by more than an interval.
    expect(firstBackupDelay(20 * hour, 10 * hour, 6 * hour)).toBe(6 * hour);
  });
});

describe("the backup folder", () => {
  const dataDir = path.join(scratch, "data");
  mkdirSync(dataDir, { recursive: true });

  it("is used when it is a writable folder outside the data folder", () => {
    const dir = path.join(scratch, "backups");
    mkdirSync(dir);
    expect(() => checkBackupFolder(dir, dataDir)).not.toThrow();
  });

  it("is refused when missing, not a folder, unwritable or inside the data folder", () => {
    expect(() => checkBackupFolder(path.join(scratch, "missing"), dataDir)).toThrow(
      /The backup folder .*missing does not exist: create it/,
    );
    const file = path.join(scratch, "a-file");
    writeFileSync(file, "");
    expect(() => checkBackupFolder(file, dataDir)).toThrow(/--backup-dir .*a-file is not a folder/);
    // Below a regular file nothing can be made, even by root (whom chmod does not stop).
    expect(() => checkBackupFolder(path.join(file, "backups"), dataDir)).toThrow(/does not exist/);
    expect(() => checkBackupFolder(dataDir, dataDir)).toThrow(/is inside the data folder/);
    expect(() => checkBackupFolder(path.join(dataDir, "backups"), dataDir)).toThrow(
      /is inside the data folder/,
    );
    expect(() => checkBackupFolder(path.join(scratch, "backups"), null)).toThrow(/keeps its data in memory/);
  });
});
