/**
 * The data folder as an attacker or a crash leaves it: a damaged database page, a lost database, damaged
 * key files, a read-only folder, a full disk. Each is refused in words, or fails only its own call.
 */
import { spawn } from "node:child_process";
import {
  chmodSync,
  chownSync,
  closeSync,
  cpSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { RunningLocalBackend } from "../host/start.ts";
import {
  a,
  fixtureDir,
  m,
  newHttpClient,
  q,
  removeDir,
  startFixtureBackend,
  tempDataDir,
} from "./test-helpers.ts";

const dirs: string[] = [];
const running: RunningLocalBackend[] = [];

async function start(dataDir: string, extra: Parameters<typeof startFixtureBackend>[0] = {}) {
  const backend = await startFixtureBackend({ dataDir, ...extra });
  running.push(backend);
  return backend;
}

async function stop(backend: RunningLocalBackend): Promise<void> {
  await backend.stop();
  running.splice(running.indexOf(backend), 1);
}

function newDataDir(): string {
  const dir = tempDataDir();
  dirs.push(dir);
  return dir;
}

/** A data folder that was in use: seeded, with `count` messages of about 1 KB in channel "big". */
async function usedDataDir(count = 0): Promise<string> {
  const dataDir = newDataDir();
  const backend = await start(dataDir);
  const http = newHttpClient(backend.url);
  for (let i = 0; i < count; i += 1) {
    await http.mutation(m("messages:send"), { channel: "big", body: `${i} ${"x".repeat(1000)}` });
  }
  await stop(backend);
  // Everything in the database file itself, so that damaging a page of it is what a read meets.
  const db = new Database(path.join(dataDir, "data.sqlite3"));
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  return dataDir;
}

/** A leaf page in the middle of the documents table. */
function documentsPage(dataDir: string): number {
  const db = new Database(path.join(dataDir, "data.sqlite3"), { readonly: true });
  const leaves = db
    .prepare("SELECT pageno FROM dbstat WHERE name = 'documents' AND pagetype = 'leaf' ORDER BY pageno")
    .pluck()
    .all() as number[];
  db.close();
  expect(leaves.length).toBeGreaterThan(4);
  return leaves[Math.floor(leaves.length / 2)];
}

/** Overwrites 64 bytes in the middle of `page` (its cell pointers among them), as a disk fault would. */
function damagePage(dataDir: string, page: number): void {
  const fd = openSync(path.join(dataDir, "data.sqlite3"), "r+");
  writeSync(fd, Buffer.alloc(64, 0xff), 0, 64, (page - 1) * 4096 + 8);
  closeSync(fd);
}

/** SQLite's own verdict on the file as it is. */
function quickCheck(dataDir: string): string {
  const db = new Database(path.join(dataDir, "data.sqlite3"), { readonly: true });
  try {
    return (db.pragma("quick_check") as { quick_check: string }[]).map((row) => row.quick_check).join("\n");
  } catch (e) {
    return String(e);
  } finally {
    db.close();
  }
}

const resetCommand = (dataDir: string) => `npm run backend:reset -- --data-dir ${dataDir}`;

afterEach(async () => {
  await Promise.all(running.splice(0).map((b) => b.stop()));
  for (const dir of dirs.splice(0)) removeDir(dir);
});

describe("a damaged database", () => {
  it("is refused at start, naming the file and how to restore it", { timeout: 60_000 }, async () => {
    const dataDir = await usedDataDir(60);
    damagePage(dataDir, documentsPage(dataDir));
    expect(quickCheck(dataDir)).not.toBe("ok");
    const refusal = start(dataDir);
    await expect(refusal).rejects.toThrow(
      `${path.join(dataDir, "data.sqlite3")} is damaged (SQLite's quick_check:`,
    );
    await expect(refusal).rejects.toThrow("npx convex import --replace-all");
    await expect(refusal).rejects.toThrow(resetCommand(dataDir));
    // Nothing was written over it, and the refusal holds.
    await expect(start(dataDir)).rejects.toThrow("is damaged");
  });

  it(
    "fails the call whose read meets a damaged page, and the next call runs",
    { timeout: 60_000 },
    async () => {
      const dataDir = await usedDataDir(60);
      const page = documentsPage(dataDir);
      const backend = await start(dataDir);
      // The page goes bad while the backend runs (a disk fault): damaged on disk, and out of SQLite's cache.
      damagePage(dataDir, page);
      (backend.core.store as unknown as { db: Database.Database }).db.pragma("shrink_memory");
      const http = newHttpClient(backend.url);
      await expect(http.query(q("messages:list"), { channel: "big" })).rejects.toThrow(
        "Server Error: the database could not be read (a page of it is damaged).",
      );
      // The lock was released: the next call runs (it used to hang, then the process died).
      expect(await http.query(q("messages:list"), { channel: "seeded" })).toEqual([
        { author: "seed", body: "welcome" },
      ]);
      await http.mutation(m("messages:send"), { channel: "after", body: "still writing" });
      expect(await http.query(q("messages:list"), { channel: "after" })).toEqual([
        { author: "anonymous", body: "still writing" },
      ]);
    },
  );

  it("releases the database when ending a read or undoing a write throws", async () => {
    const dataDir = newDataDir();
    const backend = await start(dataDir);
    const store = backend.core.store;
    const http = newHttpClient(backend.url);
    const corrupt = () => {
      throw new Database.SqliteError("database disk image is malformed", "SQLITE_CORRUPT");
    };
    const endRead = store.endRead.bind(store);
    store.endRead = () => {
      store.endRead = endRead;
      endRead();
      corrupt();
    };
    await expect(http.query(q("messages:list"), { channel: "seeded" })).rejects.toThrow(
      "the database could not be read",
    );
    const rollback = store.rollback.bind(store);
    const write = store.write.bind(store);
    store.write = () => corrupt();
    store.rollback = () => {
      store.rollback = rollback;
      rollback();
      corrupt();
    };
    await expect(http.mutation(m("messages:send"), { channel: "x", body: "lost" })).rejects.toThrow(
      "the database could not be read",
    );
    store.write = write;
    await http.mutation(m("messages:send"), { channel: "x", body: "kept" });
    expect(await http.query(q("messages:list"), { channel: "x" })).toEqual([
      { author: "anonymous", body: "kept" },
    ]);
  });
});

describe("the start's check of every page (decision 091)", () => {
  it("is skipped after a clean stop, and made after a run that did not end cleanly or a change since", async () => {
    const dataDir = newDataDir();
    const first = await start(dataDir);
    expect(first.core.store.startCheck).toBe("every page");
    await stop(first);
    const again = await start(dataDir);
    expect(again.core.store.startCheck).toBe("closed cleanly");
    // What a backend killed while running leaves: the folder as it is, and no mark of a clean stop.
    const killed = newDataDir();
    cpSync(dataDir, killed, { recursive: true });
    await stop(again);
    const afterKill = await start(killed);
    expect(afterKill.core.store.startCheck).toBe("every page");
    await stop(afterKill);
    // A change to the database after a clean stop (here only its modification time).
    utimesSync(path.join(dataDir, "data.sqlite3"), new Date(), new Date(2020, 0, 1));
    const changed = await start(dataDir);
    expect(changed.core.store.startCheck).toBe("every page");
  });
});

describe("a data folder that was in use", () => {
  it("refuses a missing or empty database instead of seeding a new one", async () => {
    const dataDir = await usedDataDir();
    const file = path.join(dataDir, "data.sqlite3");
    rmSync(file);
    await expect(start(dataDir)).rejects.toThrow(
      `${file} is missing, but the folder was in use (it holds admin-key)`,
    );
    writeFileSync(file, "");
    await expect(start(dataDir)).rejects.toThrow(`${file} is empty, but the folder was in use`);
    await expect(start(dataDir)).rejects.toThrow(resetCommand(dataDir));
    // Starting over is still one flag away.
    const backend = await start(dataDir, { reset: true });
    expect(await newHttpClient(backend.url).query(q("messages:list"), { channel: "seeded" })).toHaveLength(1);
  });

  it.each([
    ["admin-key", "", "the Convex CLI then needs the new admin key"],
    ["admin-key", "short", "the Convex CLI then needs the new admin key"],
    ["file-url-secret", "", "file addresses given out so far stop working"],
    ["auth-key.json", "", "everyone signed in must sign in again"],
    ["auth-key.json", '{"kid": "k", "privateJwk": {"kty": "RSA"}}', "everyone signed in must sign in again"],
  ])("refuses a damaged %s (%j) and says what deleting it changes", async (name, content, consequence) => {
    const dataDir = await usedDataDir();
    const file = path.join(dataDir, name);
    writeFileSync(file, content);
    const refusal = start(dataDir);
    await expect(refusal).rejects.toThrow(`${file} is damaged`);
    await expect(refusal).rejects.toThrow(consequence);
    // Deleting it, as the message says, makes a new one.
    rmSync(file);
    await start(dataDir);
    expect(statSync(file).size).toBeGreaterThan(0);
  });
});

describe("the data folder's permissions", () => {
  it("keeps the folder and every file in it to this user", async () => {
    const dataDir = path.join(newDataDir(), "data");
    const backend = await start(dataDir);
    const http = newHttpClient(backend.url);
    const stored = (await http.action(a("files:store"), { text: "private" })) as string;
    const mode = (file: string) => statSync(path.join(dataDir, file)).mode & 0o777;
    expect(mode(".")).toBe(0o700);
    expect(mode("storage")).toBe(0o700);
    for (const file of [
      "data.sqlite3",
      "data.sqlite3-wal",
      "admin-key",
      "file-url-secret",
      "auth-key.json",
    ]) {
      expect([file, mode(file)]).toEqual([file, 0o600]);
    }
    expect(mode(path.join("storage", stored))).toBe(0o600);
    await stop(backend);
    // A folder made by an earlier version is tightened on open.
    chmodSync(dataDir, 0o755);
    chmodSync(path.join(dataDir, "data.sqlite3"), 0o644);
    await start(dataDir);
    expect(mode(".")).toBe(0o700);
    expect(mode("data.sqlite3")).toBe(0o600);
  });

  it("answers an upload on a full disk with 507 in words, and keeps nothing of it", async () => {
    const dataDir = newDataDir();
    let diskFull = true;
    const backend = await start(dataDir, {
      writeBytes: (fd, data, offset) => {
        if (!diskFull) return writeSync(fd, data, offset);
        writeSync(fd, data, offset, Math.min(data.length - offset, 1000));
        throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
      },
    });
    const http = newHttpClient(backend.url);
    const upload = async () =>
      await fetch((await http.mutation(m("files:uploadUrl"), {})) as string, {
        method: "POST",
        headers: { "Content-Type": "application/octet-stream" },
        body: new Uint8Array(100_000),
      });
    const refused = await upload();
    expect(refused.status).toBe(507);
    expect(await refused.json()).toEqual({
      code: "InsufficientStorage",
      message: "The server's disk is full; the file was not stored.",
    });
    expect(readdirSync(path.join(dataDir, "storage"))).toEqual([]);
    expect(backend.core.store.count("", "_storage")).toBe(0);
    diskFull = false;
    expect((await upload()).status).toBe(200);
    expect(backend.core.store.count("", "_storage")).toBe(1);
  });

  it(
    "refuses a read-only data folder in one line from `npm run backend`, naming the folder",
    { timeout: 60_000 },
    async () => {
      const parent = newDataDir();
      chmodSync(parent, 0o755);
      const dataDir = path.join(parent, "data");
      mkdirSync(dataDir);
      // Root writes anywhere: the backend runs as another user, for whom the folder is read-only.
      const asRoot = process.getuid?.() === 0;
      if (asRoot) chownSync(dataDir, 65534, 65534);
      chmodSync(dataDir, 0o555);
      const child = spawn(
        process.execPath,
        [
          "--import",
          "tsx",
          path.join(import.meta.dirname, "..", "host", "server.ts"),
          "--port",
          "0",
          "--data-dir",
          dataDir,
          "--functions",
          fixtureDir,
        ],
        {
          cwd: path.join(import.meta.dirname, "..", ".."),
          stdio: ["ignore", "pipe", "pipe"],
          env: { ...process.env, HOME: parent },
          ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
        },
      );
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      // A child that cannot start (that user cannot reach this Node or the checkout) emits "error"
      // and never "exit": said as such, not waited on until the test's timeout.
      const code = await new Promise<number | null>((resolve, reject) => {
        child.once("exit", resolve);
        child.once("error", (e) =>
          reject(new Error(`could not start the backend${asRoot ? " as uid 65534" : ""}: ${e.message}`)),
        );
      });
      expect(code).toBe(1);
      expect(stderr.trim().split("\n")).toEqual([
        `The data folder ${dataDir} is not writable by this user (EACCES): the backend keeps its database there. Make it writable by the user running the backend (or free some space), or give it another folder with --data-dir.`,
      ]);
    },
  );
});
