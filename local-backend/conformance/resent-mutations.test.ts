/**
 * A mutation runs once whatever happens between its commit and its answer (decision 056): its answer
 * is recorded in its own transaction, so the copy a client re-sends after a reconnect, to the same
 * process or to one started after a kill -9, gets the first run's answer and nothing runs again. And
 * a stored file whose `_storage` document never committed is removed on the next start.
 */
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ConvexClient } from "convex/browser";
import { afterEach, describe, expect, it, vi } from "vitest";
import { removeUnnamedFiles } from "../core/files.ts";
import { decodeTs } from "../core/protocol.ts";
import type { RunningLocalBackend } from "../host/start.ts";
import { ANSWER_PRUNE_BATCH, ANSWER_RETENTION_MS } from "../database/mutation-answers.ts";
import { SqliteStore } from "../database/store.ts";
import {
  a,
  eventually,
  fixtureDir,
  m,
  newClient,
  newHttpClient,
  openRawSync,
  q,
  removeDir,
  spawnFixtureBackend,
  startFixtureBackend,
  tempDataDir,
  watch,
  type SpawnedBackend,
} from "./test-helpers.ts";

/** The fixture backend with holds a test releases by killing it (see the file). */
const holdingServer = path.join(import.meta.dirname, "test-fixture", "holding-server.ts");

function connect(sessionId: string) {
  return { type: "Connect", sessionId, connectionCount: 0, lastCloseReason: null, clientTs: Date.now() };
}

function sendMutation(requestId: number, udfPath: string, args: Record<string, unknown>) {
  return { type: "Mutation", requestId, udfPath, args: [args] };
}

/** Resolves with the first line the child prints (from now or before) that matches `pattern`. */
function printed(child: ChildProcess, pattern: RegExp, timeoutMs = 30_000): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => {
      child.stdout!.off("data", onData);
      reject(new Error(`nothing printed matched ${String(pattern)}:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off("data", onData);
      resolve(match);
    };
    child.stdout!.on("data", onData);
  });
}

describe("a re-sent mutation", () => {
  const dirs: string[] = [];
  const spawned: SpawnedBackend[] = [];
  const running: RunningLocalBackend[] = [];
  const clients: ConvexClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    for (const backend of spawned.splice(0)) {
      backend.child.kill("SIGKILL");
      await backend.exited;
    }
    await Promise.all(running.splice(0).map((backend) => backend.stop()));
    for (const dir of dirs.splice(0)) removeDir(dir);
  });
  const newDataDir = () => {
    const dir = tempDataDir();
    dirs.push(dir);
    return dir;
  };

  it(
    "committed just before a kill -9 is answered, after the restart, with the first run's result and runs once",
    { timeout: 120_000 },
    async () => {
      const dataDir = newDataDir();
      const first = await spawnFixtureBackend(dataDir, fixtureDir, { entry: holdingServer });
      spawned.push(first);
      // The official client, showing the channel it writes to, as the app's pages do.
      const client = newClient(first.url);
      clients.push(client);
      const count = watch<number>(client, q("messages:count"), { channel: "crash-client" });
      await count.next((n) => n === 0);
      const heldForClient = printed(first.child, /^HELD crash-client (.+)$/m);
      const sent = client.mutation(m("messages:send"), { channel: "crash-client", body: "held" });
      // And a bare socket, to compare the re-sent answer with what the first run committed.
      const sessionId = randomUUID();
      const mutation = sendMutation(1, "messages:send", { channel: "crash-raw", body: "held" });
      const heldForRaw = printed(first.child, /^HELD crash-raw (.+)$/m);
      const raw = await openRawSync(first.url);
      raw.send(connect(sessionId));
      raw.send(mutation);
      const committedForClient = JSON.parse((await heldForClient)[1]) as string;
      const committedForRaw = JSON.parse((await heldForRaw)[1]) as string;

      // Both are on disk and neither was answered: the process dies now.
      first.child.kill("SIGKILL");
      await first.exited;
      spawned.splice(0);
      await raw.closed;
      const port = Number(new URL(first.url).port);
      const restarted = await startFixtureBackend({ dataDir, port, sitePort: 0 });
      running.push(restarted);

      // The client reconnects on its own, re-sends the mutation and resolves with the committed id.
      expect(await sent).toBe(committedForClient);
      expect(client.client.localQueryResult("messages:count", { channel: "crash-client" })).toBe(1);

      const again = await openRawSync(restarted.url);
      again.send(connect(sessionId));
      again.send(mutation);
      const answer = await again.next((message) => message.type === "MutationResponse");
      expect(answer).toMatchObject({
        requestId: 1,
        success: true,
        result: committedForRaw,
        logLines: ["[INFO] sending held"],
      });
      // And a Transition reaching its ts, at which the official client resolves it.
      await again.next(
        (message) =>
          message.type === "Transition" &&
          decodeTs((message.endVersion as { ts: string }).ts) >= decodeTs(answer.ts as string),
      );
      again.ws.close();

      const http = newHttpClient(restarted.url);
      expect(await http.query(q("messages:count"), { channel: "crash-client" })).toBe(1);
      expect(await http.query(q("messages:count"), { channel: "crash-raw" })).toBe(1);
      // Nothing ran on the restarted backend: both were answered from what the first run recorded.
      expect(restarted.stats().functions["messages:send"]).toBeUndefined();
      expect(restarted.core.sync.resentMutations).toBe(2);
    },
  );

  it("that failed gets the same error, ConvexError data included, and runs once", async () => {
    const dataDir = newDataDir();
    const backend = await startFixtureBackend({ dataDir });
    running.push(backend);
    const sessionId = randomUUID();
    const mutation = sendMutation(4, "messages:failWithConvexError", {});
    const first = await openRawSync(backend.url);
    first.send(connect(sessionId));
    first.send(mutation);
    const answer = await first.next((message) => message.type === "MutationResponse");
    expect(answer).toMatchObject({
      success: false,
      result: expect.stringMatching(/You may not do that/) as string,
      errorData: { code: "NOT_ALLOWED", message: "You may not do that" },
    });
    first.ws.close();

    const second = await openRawSync(backend.url);
    second.send(connect(sessionId));
    second.send(mutation);
    expect(await second.next((message) => message.type === "MutationResponse")).toEqual(answer);
    second.ws.close();
    expect(backend.stats().functions["messages:failWithConvexError"].calls).toBe(1);

    // A failure wrote nothing and is not kept past this process (decision 056): re-sent to the next
    // one, it runs again, and fails the same way (a new request, so a new request id).
    await backend.stop();
    running.splice(0);
    const restarted = await startFixtureBackend({ dataDir });
    running.push(restarted);
    const third = await openRawSync(restarted.url);
    third.send(connect(sessionId));
    third.send(mutation);
    const requestIdLine = /^\[Request ID: [0-9a-f]{16}\]/;
    const again = await third.next((message) => message.type === "MutationResponse");
    expect({ ...again, result: String(again.result).replace(requestIdLine, "") }).toEqual({
      ...answer,
      result: String(answer.result).replace(requestIdLine, ""),
    });
    third.ws.close();
    expect(restarted.stats().functions["messages:failWithConvexError"]).toMatchObject({
      calls: 1,
      docsWritten: 0,
    });
  });

  it("keeps answers across a restart and deletes expired ones a batch per recording commit", () => {
    const dir = newDataDir();
    let store = SqliteStore.open(dir);
    const expired = Date.now() - ANSWER_RETENTION_MS - 60_000;
    const sessionId = randomUUID();
    store.begin();
    for (let i = 0; i < 40; i++) {
      store.recordAnswer(sessionId, i, { result: `"r${i}"`, logLines: [`line ${i}`] }, expired + i);
    }
    store.commit();
    store.close();

    store = SqliteStore.open(dir);
    try {
      expect(store.recordedAnswer(sessionId, 3)).toEqual({ result: '"r3"', logLines: ["line 3"] });
      expect(store.recordedAnswer(sessionId, 40)).toBeNull();
      const kept = () =>
        Array.from({ length: 40 }, (_, i) => i).filter((i) => store.recordedAnswer(sessionId, i) !== null);
      const record = (requestId: number) => {
        store.begin();
        store.recordAnswer(sessionId, requestId, { result: "null", logLines: [] });
        store.commit();
      };
      record(100);
      // The oldest first, a bounded batch at a time.
      expect(kept()).toEqual(
        Array.from({ length: 40 - ANSWER_PRUNE_BATCH }, (_, i) => ANSWER_PRUNE_BATCH + i),
      );
      record(101);
      record(102);
      expect(kept()).toEqual([]);
      expect(store.recordedAnswer(sessionId, 100)).toEqual({ result: "null", logLines: [] });
    } finally {
      store.close();
    }
  });
});

describe("a stored file without a _storage document", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) removeDir(dir);
  });

  it(
    "left by a kill -9 between the file and its document is removed on start",
    { timeout: 120_000 },
    async () => {
      const dataDir = tempDataDir();
      dirs.push(dataDir);
      const first = await spawnFixtureBackend(dataDir, fixtureDir, { entry: holdingServer });
      let restarted: RunningLocalBackend | null = null;
      const log = vi.spyOn(console, "log");
      try {
        const http = newHttpClient(first.url);
        const upload = async (body: string) =>
          await fetch((await http.mutation(m("files:uploadUrl"), {})) as string, {
            method: "POST",
            headers: { "Content-Type": "text/plain" },
            body,
          });
        const { storageId: kept } = (await (await upload("kept")).json()) as { storageId: string };
        const orphanUrl = (await http.mutation(m("files:uploadUrl"), {})) as string;

        // Every transaction now waits: an upload writes its file and waits to commit its document.
        const locked = printed(first.child, /^LOCKED$/m);
        first.child.stdin!.write("lock\n");
        await locked;
        const storage = path.join(dataDir, "storage");
        const unnamed = () => readdirSync(storage).filter((name) => name !== kept && !name.endsWith(".tmp"));
        void fetch(orphanUrl, { method: "POST", body: "x".repeat(1 << 20) }).catch(() => undefined);
        await eventually(() => unnamed().length === 1, 30_000);
        const [orphan] = unnamed();
        first.child.kill("SIGKILL");
        await first.exited;

        restarted = await startFixtureBackend({ dataDir });
        expect(existsSync(path.join(storage, orphan))).toBe(false);
        expect(log).toHaveBeenCalledWith(
          expect.stringMatching(/removed 1 stored file without a _storage document/),
        );
        expect(await newHttpClient(restarted.url).action(a("files:read"), { id: kept })).toBe("kept");
      } finally {
        log.mockRestore();
        first.child.kill("SIGKILL");
        await first.exited;
        await restarted?.stop();
      }
    },
  );

  it("goes at most a bounded number per start, the rest at the next", () => {
    const dir = tempDataDir();
    dirs.push(dir);
    for (const name of ["a", "b", "c", "named", "leftover.1.tmp"]) writeFileSync(path.join(dir, name), name);
    const isNamed = (name: string) => name === "named";
    expect(removeUnnamedFiles(dir, isNamed, 2)).toEqual({ removed: 2, more: true });
    expect(readdirSync(dir)).toHaveLength(3);
    expect(removeUnnamedFiles(dir, isNamed, 2)).toEqual({ removed: 1, more: false });
    expect(readdirSync(dir).sort()).toEqual(["leftover.1.tmp", "named"]);
  });
});
