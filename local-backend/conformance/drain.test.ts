/**
 * A graceful stop (SIGTERM to `npm start`; `LocalBackendCore.drain`, issue 40): the calls under way
 * finish and are answered, a sync client's mutation sent while stopping is not run but sent again to
 * the next start, which runs it once; a call that outlasts the drain is counted as unfinished.
 */
import { fdatasync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import type { RunningLocalBackend } from "../host/start.ts";
import type { FlushFile } from "../storage/wal.ts";
import {
  clientPool,
  eventually,
  m,
  q,
  removeDir,
  startFixtureBackend,
  tempDataDir,
  watch,
} from "./test-helpers.ts";

type Message = { body: string };

/** A backend whose commits' flushes wait for the test while `hold.on`. */
function holdingFlushes() {
  const hold = { on: false, held: [] as ((error: Error | null) => void)[] };
  const flushFile: FlushFile = (fd, done) => {
    if (hold.on) hold.held.push(done);
    else fdatasync(fd, done);
  };
  const release = () => {
    hold.on = false;
    for (const done of hold.held.splice(0)) done(null);
  };
  return { hold, flushFile, release };
}

describe("draining before a stop", () => {
  const dataDir = tempDataDir();
  const backends: RunningLocalBackend[] = [];
  let current: RunningLocalBackend | undefined;
  const { client, closeAll } = clientPool(() => current!.url);

  afterAll(async () => {
    await closeAll();
    for (const backend of backends) await backend.stop();
    removeDir(dataDir);
  });

  it("answers the mutation under way, leaves one sent meanwhile to the next start, which runs it once", async () => {
    const { hold, flushFile, release } = holdingFlushes();
    const first = await startFixtureBackend({ dataDir, flushFile });
    backends.push((current = first));
    const port = Number(new URL(first.url).port);
    const sender = client();
    const watcher = watch<Message[]>(client(), q("messages:list"), { channel: "drain" });
    await watcher.next((messages) => messages.length === 0);

    // A mutation under way: its commit waits for the disk.
    hold.on = true;
    let firstAnswered = false;
    const underWay = sender
      .mutation(m("messages:send"), { channel: "drain", body: "under way" })
      .then(() => (firstAnswered = true));
    await eventually(() => hold.held.length === 1);

    let drained: { unfinished: number } | null = null;
    const draining = first.core.drain(30_000).then((result) => (drained = result));
    // Sent while stopping: not run here, not answered.
    let secondAnswered = false;
    const meanwhile = sender
      .mutation(m("messages:send"), { channel: "drain", body: "meanwhile" })
      .then(() => (secondAnswered = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(drained).toBeNull();

    release();
    await draining;
    expect(drained).toEqual({ unfinished: 0 });
    await underWay;
    expect(firstAnswered).toBe(true);
    expect(secondAnswered).toBe(false);
    await first.stop();

    // The next start, on the same data and port: the client reconnects and sends the second again.
    const next = await startFixtureBackend({ dataDir, port, sitePort: 0 });
    backends.push((current = next));
    await meanwhile;
    await watcher.next(
      (messages) => messages.map((message) => message.body).join(",") === "under way,meanwhile",
      20_000,
    );
    const stored = await next.core.call("messages:list", { channel: "drain" }, {});
    expect(stored.success && (stored.value as Message[]).map((message) => message.body)).toEqual([
      "under way",
      "meanwhile",
    ]);
  }, 60_000);

  it("says how many calls were still running when the drain's time ran out", async () => {
    const { hold, flushFile, release } = holdingFlushes();
    const ownDir = tempDataDir();
    const backend = await startFixtureBackend({ dataDir: ownDir, flushFile });
    backends.push(backend);
    const timed = clientPool(() => backend.url);
    hold.on = true;
    const stuck = timed.client().mutation(m("messages:send"), { channel: "stuck", body: "slow disk" });
    await eventually(() => hold.held.length === 1);
    expect(backend.core.readiness()).toEqual([]);
    const drained = backend.core.drain(100);
    expect(backend.core.readiness()).toEqual(["the backend is draining before a stop"]);
    await expect(drained).resolves.toEqual({ unfinished: 1 });
    release();
    await stuck;
    await timed.closeAll();
    await backend.stop();
    removeDir(ownDir);
  }, 30_000);
});
