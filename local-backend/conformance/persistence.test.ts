/** Conformance: data on disk before it is acknowledged, and across restarts; imports; seeding; crons; reloads. */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeFileDurably } from "../core/files.ts";
import type { RunningLocalBackend } from "../host/start.ts";
import {
  eventually,
  fixtureDir,
  m,
  newClient,
  newHttpClient,
  q,
  readDatabaseCopy,
  removeDir,
  startFixtureBackend,
  tempDataDir,
  watch,
} from "./test-helpers.ts";

type Message = { author: string; body: string };

describe("persistence", () => {
  const dirs: string[] = [];
  const running: RunningLocalBackend[] = [];
  const start = async (dataDir: string | null, extra: Parameters<typeof startFixtureBackend>[0] = {}) => {
    const backend = await startFixtureBackend({ dataDir, ...extra });
    running.push(backend);
    return backend;
  };
  afterEach(async () => {
    await Promise.all(running.splice(0).map((b) => b.stop()));
    for (const dir of dirs.splice(0)) removeDir(dir);
  });

  it("seeds an empty store once and keeps data and tokens across a restart", async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const first = await start(dataDir);
    const http = newHttpClient(first.url);
    expect(await http.query(q("messages:list"), { channel: "seeded" })).toEqual([
      { author: "seed", body: "welcome" },
    ]);
    await http.mutation(m("messages:send"), { channel: "kept", body: "before restart" });
    const { token } = await first.issueToken({ sub: "returning" });
    await first.stop();
    running.splice(running.indexOf(first), 1);

    const second = await start(dataDir);
    const again = newHttpClient(second.url);
    expect(await again.query(q("messages:list"), { channel: "kept" })).toEqual([
      { author: "anonymous", body: "before restart" },
    ]);
    expect(await again.query(q("messages:list"), { channel: "seeded" })).toHaveLength(1);
    again.setAuth(token);
    expect(await again.query(q("messages:whoami"), {})).toMatchObject({ subject: "returning" });
    // New documents do not reuse ids.
    const id = await again.mutation(m("messages:send"), { channel: "kept", body: "after restart" });
    expect(typeof id).toBe("string");
    expect(await again.query(q("messages:count"), { channel: "kept" })).toBe(2);
  });

  it("has a mutation's writes on disk when it is answered", async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const backend = await start(dataDir);
    const id = await newHttpClient(backend.url).mutation(m("messages:send"), {
      channel: "disk",
      body: "saved",
    });
    const row = readDatabaseCopy(
      dataDir,
      (disk) =>
        disk.prepare("SELECT value FROM documents WHERE id = ?").get(id) as { value: string } | undefined,
    );
    expect(row && (JSON.parse(row.value) as Message).body).toBe("saved");
  });

  it("refuses a second backend on a data folder in use, and the first goes on answering", async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const first = await start(dataDir);
    const refusal = `Another backend is using the data folder ${dataDir}: stop it first, or give this one its own (--data-dir).`;
    await expect(start(dataDir)).rejects.toThrow(refusal);
    // Nor is the folder wiped under it.
    await expect(start(dataDir, { reset: true })).rejects.toThrow(refusal);
    const http = newHttpClient(first.url);
    await http.mutation(m("messages:send"), { channel: "shared", body: "still here" });
    expect(await http.query(q("messages:list"), { channel: "shared" })).toEqual([
      { author: "anonymous", body: "still here" },
    ]);
  });

  it("imports a snapshot.json of the earlier store once, then sets it aside", async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    writeFileSync(
      path.join(dataDir, "snapshot.json"),
      JSON.stringify({
        format: "livelocal-local-backend-snapshot",
        version: 1,
        convexTest: "0.0.60",
        savedAt: new Date(0).toISOString(),
        nextDocId: 10,
        lastCreationTime: 1_700_000_000_000,
        lastCommitTs: "1",
        documents: [
          {
            _id: "000000000000000000009messages",
            _creationTime: 1_700_000_000_000,
            channel: "imported",
            author: "old",
            body: "from the snapshot",
            rank: 0,
          },
        ],
      }),
    );
    const backend = await start(dataDir);
    expect(await newHttpClient(backend.url).query(q("messages:list"), { channel: "imported" })).toEqual([
      { author: "old", body: "from the snapshot" },
    ]);
    expect(existsSync(path.join(dataDir, "snapshot.json"))).toBe(false);
    expect(existsSync(path.join(dataDir, "snapshot.json.imported"))).toBe(true);
  });

  it("removes temporary files an interrupted save left behind, on start", async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const first = await start(dataDir);
    await first.stop();
    running.splice(running.indexOf(first), 1);
    // What `kill -9` in the middle of a save leaves: a dead process's (and a reused pid's) half-written files.
    const deadPid = 2 ** 22 + 17;
    mkdirSync(path.join(dataDir, "storage"), { recursive: true });
    const leftovers = [
      path.join(dataDir, `snapshot.json.${deadPid}.tmp`),
      path.join(dataDir, `snapshot.json.${process.pid}.tmp`),
      path.join(dataDir, "storage", `1_storage.${deadPid}.tmp`),
    ];
    for (const file of leftovers) writeFileSync(file, "{half a snapsh");
    // A save in progress in another running process is not ours to remove.
    const live = path.join(dataDir, `snapshot.json.${process.ppid}.tmp`);
    writeFileSync(live, "{in progress");
    await start(dataDir);
    for (const file of leftovers) expect(existsSync(file), file).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(readdirSync(dataDir).filter((name) => name.endsWith(".tmp"))).toEqual([path.basename(live)]);
  });

  it("leaves no temporary file when writing a stored file fails", () => {
    const dir = tempDataDir();
    dirs.push(dir);
    // The file's place is taken by a folder: writing succeeds, the rename over it fails.
    mkdirSync(path.join(dir, "taken", "occupied"), { recursive: true });
    expect(() => writeFileDurably(path.join(dir, "taken"), new Uint8Array([1, 2, 3]))).toThrow();
    expect(readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    writeFileDurably(path.join(dir, "file"), new Uint8Array([1, 2, 3]));
    expect([...readFileSync(path.join(dir, "file"))]).toEqual([1, 2, 3]);
  });

  it("resets the store", async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const first = await start(dataDir);
    await newHttpClient(first.url).mutation(m("messages:send"), { channel: "gone", body: "x" });
    await first.stop();
    running.splice(running.indexOf(first), 1);
    const second = await start(dataDir, { reset: true });
    expect(await newHttpClient(second.url).query(q("messages:list"), { channel: "gone" })).toEqual([]);
  });

  it("runs a scheduled function that was pending at shutdown after a restart", async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const first = await start(dataDir);
    const jobId = await newHttpClient(first.url).mutation(m("messages:sendLater"), {
      channel: "resumed",
      body: "late",
      delayMs: 600,
    });
    await first.stop();
    running.splice(running.indexOf(first), 1);
    const second = await start(dataDir);
    const client = newClient(second.url);
    try {
      const list = watch<Message[]>(client, q("messages:list"), { channel: "resumed" });
      await list.next((v) => v.length === 1 && v[0].author === "scheduler");
      // The run marked its job done in its own commit: no job is left that could run it again.
      const jobs = readDatabaseCopy(dataDir, (disk) =>
        (
          disk.prepare("SELECT id, value FROM documents WHERE table_name = '_scheduled_functions'").all() as {
            id: string;
            value: string;
          }[]
        ).map((row) => [row.id, (JSON.parse(row.value) as { state: { kind: string } }).state.kind]),
      );
      expect(jobs).toEqual([[jobId, "success"]]);
      // And a later write's update still shows the scheduler's message once.
      await client.mutation(m("messages:send"), { channel: "resumed", body: "after" });
      const after = await list.next((v) => v.some((row) => row.body === "after"));
      expect(after.filter((row) => row.author === "scheduler")).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it("runs crons on their schedule", async () => {
    const backend = await start(null, { crons: true });
    const client = newClient(backend.url);
    try {
      const ticks = watch<number>(client, q("messages:tickCount"), {});
      await ticks.next((v) => v >= 2, 4000);
    } finally {
      await client.close();
    }
  });

  it("reloads changed functions without losing data", async () => {
    // A copy inside the repo, so its imports resolve to the repo's node_modules.
    const scratch = path.join(import.meta.dirname, ".test-tmp", `reload-${process.pid}`);
    const functionsDir = path.join(scratch, "convex");
    dirs.push(scratch);
    mkdirSync(scratch, { recursive: true });
    cpSync(fixtureDir, functionsDir, { recursive: true });
    const backend = await start(null, { functionsDir, watch: true });
    const client = newClient(backend.url);
    try {
      await client.mutation(m("messages:send"), { channel: "reload", body: "kept" });
      const list = watch<Message[]>(client, q("messages:list"), { channel: "reload" });
      await list.next((v) => v.length === 1);

      const file = path.join(functionsDir, "messages.ts");
      writeFileSync(
        file,
        readFileSync(file, "utf8").replace(
          "return rows.map((row) => ({ author: row.author, body: row.body }));",
          "return rows.map((row) => ({ author: row.author, body: row.body.toUpperCase() }));",
        ),
      );
      await list.next((v) => v.length === 1 && v[0].body === "KEPT", 10_000);

      // A schema change needs a fresh engine: the data moves over.
      const schemaFile = path.join(functionsDir, "schema.ts");
      const schemaSource = readFileSync(schemaFile, "utf8");
      const opening = "export default defineSchema({";
      expect(schemaSource).toContain(opening);
      writeFileSync(
        schemaFile,
        schemaSource.replace(opening, `${opening}\n  extra: defineTable({ note: v.string() }),`),
      );
      await eventually(() => backend.core.engine().schema?.tables.extra !== undefined, 10_000);
      expect(await client.query(q("messages:list"), { channel: "reload" })).toEqual([
        { author: "anonymous", body: "KEPT" },
      ]);
    } finally {
      await client.close();
    }
  });
});
