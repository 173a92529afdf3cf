/**
 * No user code stops the backend (issue 39, item 3): actions that throw outside their promise, leave
 * an `'error'` event unhandled or never settle fail alone, with their own error, while a second client
 * stays subscribed and keeps getting updates. The backend runs in its own process, as `npm start` does,
 * so that an uncaught error would end it.
 */
import type { ConvexClient } from "convex/browser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  a,
  m,
  newClient,
  q,
  removeDir,
  spawnFixtureBackend,
  tempDataDir,
  watch,
  type SpawnedBackend,
} from "./test-helpers.ts";

type Row = { author: string; body: string };

describe("user code that misbehaves", { timeout: 120_000 }, () => {
  const dataDir = tempDataDir();
  let backend: SpawnedBackend;
  let caller: ConvexClient;
  let subscriber: ConvexClient;
  let stderr = "";

  beforeAll(async () => {
    backend = await spawnFixtureBackend(dataDir, undefined, { env: { LIVELOCAL_ACTION_TIMEOUT_SECS: "2" } });
    backend.child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    caller = newClient(backend.url);
    subscriber = newClient(backend.url);
  });
  afterAll(async () => {
    await caller.close();
    await subscriber.close();
    backend.child.kill("SIGKILL");
    await backend.exited;
    removeDir(dataDir);
  });

  it("fails only the action that threw, and the subscribed client keeps its updates", async () => {
    const list = watch<Row[]>(subscriber, q("messages:list"), { channel: "user-code" });
    await list.next((rows) => rows.length === 0);
    const failures: [string, string][] = [
      ["misbehaving:throwInTimer", "thrown in a timer"],
      ["misbehaving:throwInFileCallback", "thrown in a file callback"],
      ["misbehaving:unhandledErrorEvent", "ECONNREFUSED"],
      ["misbehaving:rejectUnhandled", "a rejection nobody handled"],
    ];
    for (const [index, [name, message]] of failures.entries()) {
      await expect(caller.action(a(name), {})).rejects.toThrow(message);
      // Between two misbehaving actions, the other client is still answered.
      await caller.mutation(m("messages:send"), { channel: "user-code", body: `after ${index + 1}` });
      await list.next((rows) => rows.length === index + 1);
    }
    expect(backend.child.exitCode).toBeNull();
    expect(list.errors).toEqual([]);
  });

  it("fails an action that never settles after the timeout, and its leftover code can no longer write", async () => {
    const list = watch<Row[]>(subscriber, q("messages:list"), { channel: "timeout" });
    await list.next((rows) => rows.length === 0);
    await expect(
      caller.action(a("misbehaving:neverSettles"), { channel: "timeout", afterMs: 3000 }),
    ).rejects.toThrow("Function execution timed out (maximum duration: 2s)");
    // Its timer still fires in this process; the write it tries is refused, and said on stderr.
    await expect.poll(() => stderr, { timeout: 30_000 }).toContain("has already ended");
    await caller.mutation(m("messages:send"), { channel: "timeout", body: "after the timeout" });
    const rows = await list.next((current) => current.some((row) => row.body === "after the timeout"));
    expect(rows.map((row) => row.body)).toEqual(["after the timeout"]);
    expect(backend.child.exitCode).toBeNull();
  });
});
