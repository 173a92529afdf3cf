/**
 * Answers wait for the disk, the work does not (decision 041): while a commit's flush is held, the
 * subscriptions it changes re-run, but neither the mutation's answer nor their new results reach a
 * client until the commit is on disk. Once it is, the mutation resolves without waiting for other
 * clients' queries still re-running (decision 049).
 */
import { fdatasync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningLocalBackend } from "../host/start.ts";
import type { FlushFile } from "../storage/wal.ts";
import {
  clientPool,
  eventually,
  m,
  q,
  removeDir,
  slowQuery,
  startFixtureBackend,
  tempDataDir,
  watch,
} from "./test-helpers.ts";

type Message = { body: string };

describe("a commit's flush to disk", () => {
  const dataDir = tempDataDir();
  let backend: RunningLocalBackend;
  const { client, closeAll } = clientPool(() => backend.url);
  /** While set, flushes wait here for the test instead of running. */
  let holding = false;
  const held: ((error: Error | null) => void)[] = [];
  const flushFile: FlushFile = (fd, done) => {
    if (holding) held.push(done);
    else fdatasync(fd, done);
  };

  beforeAll(async () => {
    backend = await startFixtureBackend({ dataDir, flushFile });
  });
  afterAll(async () => {
    holding = false;
    for (const done of held.splice(0)) done(null);
    await closeAll();
    await backend.stop();
    removeDir(dataDir);
  });

  it("re-runs the subscriptions meanwhile, and answers no one before it has ended", async () => {
    // Counted as the query starts (the backend's own statistics count calls as they end), on the
    // engine, where subscriptions run their queries (the function itself runs in an isolate).
    let started = 0;
    const engine = backend.core.engine();
    const call = engine.call.bind(engine);
    engine.call = (path, args, options) => {
      if (path === "messages:list" && (args as { channel?: string }).channel === "flush") started += 1;
      return call(path, args, options);
    };
    const runs = () => started;
    const watching = client();
    const watcher = watch<Message[]>(watching, q("messages:list"), { channel: "flush" });
    await watcher.next((messages) => messages.length === 0);
    const runsBefore = runs();

    // Every wait for the disk from here on: the mutation's answer and the re-run's result each wait.
    const store = backend.core.store;
    const durable = store.durable.bind(store);
    let diskWaits = 0;
    store.durable = () => {
      diskWaits += 1;
      return durable();
    };
    holding = true;
    let answered = false;
    const sent = client()
      .mutation(m("messages:send"), { channel: "flush", body: "kept" })
      .then(() => (answered = true));
    try {
      // The commit is waiting for the disk, and the watcher's query has re-run on it and waits too:
      // all the backend does before the flush is done.
      await eventually(() => held.length === 1 && runs() > runsBefore && diskWaits >= 2);
      // A query that reads nothing answers on the watcher's socket, after anything sent before it.
      await new Promise<void>((resolve) => {
        const stop = watching.onUpdate(
          q("messages:noSuchQuery"),
          {},
          () => undefined,
          () => {
            stop();
            resolve();
          },
        );
      });
    } finally {
      store.durable = durable;
    }
    // Nothing has arrived: not the answer, not the new result.
    expect(answered).toBe(false);
    expect(watcher.values.at(-1)).toEqual([]);

    holding = false;
    held.shift()!(null);
    await sent;
    await watcher.next((messages) => messages.length === 1 && messages[0].body === "kept");
    engine.call = call;
  });

  it("resolves the mutation once the commit is on disk, while another client's query is still re-running", async () => {
    // Another client's query, slow from its first run (so a pass re-runs it last), then as long as
    // the test says.
    const slow = slowQuery(backend, "messages:count", "busy");
    try {
      const count = watch<number>(client(), q("messages:count"), { channel: "busy" });
      await count.next((n) => n === 0);
      // The mutating client shows the channel too; a second one shows nothing.
      const writer = client();
      const own = watch<Message[]>(writer, q("messages:list"), { channel: "busy" });
      await own.next((messages) => messages.length === 0);
      await writer.mutation(m("messages:send"), { channel: "busy", body: "first" });
      // Resolved with its own query showing the write, while the other client's query is held.
      expect(own.values.at(-1)).toEqual([expect.objectContaining({ body: "first" })]);
      expect(slow.runs()).toBe(2);
      await client().mutation(m("messages:send"), { channel: "busy", body: "second" });
      expect(count.values.at(-1)).toBe(0);
      slow.release();
      await count.next((n) => n === 2);
    } finally {
      slow.restore();
    }
  });
});
