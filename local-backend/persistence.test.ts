/** Conformance: data, tokens and scheduled functions across restarts; seeding; crons; reloads. */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RunningLocalBackend } from "./start.ts";
import {
  eventually,
  fixtureDir,
  m,
  newClient,
  newHttpClient,
  q,
  removeDir,
  sleep,
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

  it("snapshots after writes without waiting for a stop", async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const backend = await start(dataDir, { snapshotDebounceMs: 20 });
    await newHttpClient(backend.url).mutation(m("messages:send"), { channel: "snap", body: "saved" });
    await eventually(() => {
      try {
        return readFileSync(path.join(dataDir, "snapshot.json"), "utf8").includes("saved");
      } catch {
        return false;
      }
    });
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

  it("leaves no temporary file when a save fails", async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const backend = await start(dataDir);
    // The snapshot's place is taken by a folder: writing succeeds, the rename over it fails.
    rmSync(path.join(dataDir, "snapshot.json"));
    mkdirSync(path.join(dataDir, "snapshot.json", "occupied"), { recursive: true });
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      await backend.core.store.saveNow();
      expect(errors).toHaveBeenCalledWith("local-backend: snapshot failed", expect.anything());
    } finally {
      errors.mockRestore();
    }
    expect(readdirSync(dataDir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    rmSync(path.join(dataDir, "snapshot.json"), { recursive: true });
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
    await newHttpClient(first.url).mutation(m("messages:sendLater"), {
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
      await sleep(800);
      expect(list.values.at(-1)).toHaveLength(1);
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
      writeFileSync(
        schemaFile,
        readFileSync(schemaFile, "utf8").replace(
          "ticks: defineTable({ at: v.number() }),",
          "ticks: defineTable({ at: v.number() }),\n  extra: defineTable({ note: v.string() }),",
        ),
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
