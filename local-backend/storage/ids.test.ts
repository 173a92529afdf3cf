/**
 * Document ids (decision 054): unguessable one from another, as Convex's are, and never issued again,
 * not even after the process is killed where the counter behind them had not reached the disk.
 */
import { copyFileSync, existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { localIdParts } from "../values/convex-ids.ts";
import { SqliteStore } from "../database/store.ts";
import type { Document } from "./document.ts";
import {
  a,
  m,
  newHttpClient,
  removeDir,
  spawnFixtureBackend,
  tempDataDir,
  type SpawnedBackend,
} from "../conformance/test-helpers.ts";

const dirs: string[] = [];
const running: SpawnedBackend[] = [];
afterEach(async () => {
  for (const backend of running.splice(0)) {
    backend.child.kill("SIGKILL");
    await backend.exited;
  }
  for (const dir of dirs.splice(0)) removeDir(dir);
});

function newDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "ids-"));
  dirs.push(dir);
  return dir;
}

/** What a `kill -9` leaves on disk now: a copy of the database and its WAL, opened as a restart would. */
function reopenAfterCrash(dir: string): SqliteStore {
  const copy = newDir();
  for (const file of ["data.sqlite3", "data.sqlite3-wal"]) {
    if (existsSync(path.join(dir, file))) copyFileSync(path.join(dir, file), path.join(copy, file));
  }
  return SqliteStore.open(copy);
}

function insert(store: SqliteStore, component: string, table: string): string {
  const doc: Document = {
    _id: store.newId(component, table),
    _creationTime: store.newCreationTime(component),
  };
  store.write(component, table, null, doc);
  return doc._id as string;
}

describe("document ids", () => {
  it("are not predictable from one another", () => {
    const store = SqliteStore.open(null);
    try {
      const ids = Array.from({ length: 200 }, () => store.newId("", "_storage"));
      const parts = ids.map((id) => localIdParts(id, "_storage")!);
      // Issued in order (the counter), each with 64 bits of its own: knowing one says nothing of the next.
      expect(parts.map((p) => p.counter)).toEqual(parts.map((_, i) => parts[0].counter + BigInt(i)));
      expect(new Set(parts.map((p) => p.random)).size).toBe(ids.length);
      expect(parts.every((p) => p.random !== null)).toBe(true);
      const bits = parts.map((p) => p.random!.toString(2).padStart(64, "0"));
      // Every one of the 64 bits varies across the ids (a counter or a timestamp would not).
      for (let bit = 0; bit < 64; bit++) expect(new Set(bits.map((b) => b[bit])).size).toBe(2);
      // Ids sort in the order they were issued.
      expect([...ids].sort()).toEqual(ids);
    } finally {
      store.close();
    }
  });

  it("issued by a transaction that was rolled back are not issued again after a crash", () => {
    const dir = newDir();
    const store = SqliteStore.open(dir);
    try {
      store.begin();
      insert(store, "", "messages");
      store.commit();
      // A mutation that inserted, then threw: its ids were handed to its code (and maybe into a message).
      store.begin();
      const rolledBack = [insert(store, "", "messages"), insert(store, "", "_storage")];
      store.rollback();
      const after = reopenAfterCrash(dir);
      try {
        after.begin();
        const fresh = [insert(after, "", "messages"), insert(after, "", "_storage")];
        after.commit();
        // The counter did come back (it never reached the disk); the ids did not.
        expect(fresh.map((id) => localIdParts(id, id.replace(/^[0-9]+/, ""))!.counter)).toEqual(
          rolledBack.map((id) => localIdParts(id, id.replace(/^[0-9]+/, ""))!.counter),
        );
        expect(fresh.filter((id) => rolledBack.includes(id))).toEqual([]);
      } finally {
        after.close();
      }
    } finally {
      store.close();
    }
  });

  it("of a component first used by a rolled-back transaction do not share another component's range", () => {
    const store = SqliteStore.open(newDir());
    try {
      store.begin();
      insert(store, "rateLimiter", "rateLimits");
      store.rollback();
      store.begin();
      const resend = insert(store, "resend", "emails");
      const limiter = insert(store, "rateLimiter", "rateLimits");
      store.commit();
      const counter = (id: string, table: string) => localIdParts(id, table)!.counter;
      // Each component has ids from 10^12 × its own number.
      expect(counter(resend, "emails") / 10n ** 12n).not.toBe(counter(limiter, "rateLimits") / 10n ** 12n);
    } finally {
      store.close();
    }
  });

  it("answered before kill -9 are not issued again after the restart", { timeout: 120_000 }, async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const issue = async (backend: SpawnedBackend, label: string) => {
      const http = newHttpClient(backend.url);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        ids.push(
          (await http.mutation(m("messages:send"), { channel: "ids", body: `${label}${i}` })) as string,
        );
        ids.push((await http.action(a("files:store"), { text: `${label}${i}` })) as string);
      }
      return ids;
    };
    const first = await spawnFixtureBackend(dataDir);
    running.push(first);
    const before = await issue(first, "before");
    first.child.kill("SIGKILL");
    await first.exited;
    running.splice(0);
    const second = await spawnFixtureBackend(dataDir);
    running.push(second);
    const after = await issue(second, "after");
    expect(after.filter((id) => before.includes(id))).toEqual([]);
    expect(new Set(after).size).toBe(after.length);
  });
});
