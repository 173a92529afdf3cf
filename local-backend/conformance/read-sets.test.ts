/**
 * Read sets: a subscription re-runs when a write lands in what it read (index ranges, ids, tables),
 * and only then; subscriptions that differ only in who asks share a run when the query never asks.
 * The randomized part checks the first half never misses: after every write, each live result equals
 * a fresh read.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ReadSet, WriteSet, type KeyRange } from "../storage/read-set.ts";
import type { RunningLocalBackend } from "../host/start.ts";
import {
  clientPool,
  m,
  newHttpClient,
  q,
  removeDir,
  startFixtureBackend,
  tempDataDir,
  watch,
} from "./test-helpers.ts";
import { encodeKey } from "../values/values.ts";

const key = (...values: (string | number)[]) => encodeKey(values);
const range = (lower: Buffer, upper: Buffer, upperInclusive = false): KeyRange => ({
  indexId: 7,
  lower,
  upper,
  upperInclusive,
});
const writesAt = (...keys: Buffer[]) => {
  const writes = new WriteSet();
  writes.addDocument(
    "messages",
    "1;messages",
    keys.map((k): [number, Buffer] => [7, k]),
  );
  return writes;
};

describe("ReadSet.overlaps", () => {
  const readsOf = (r: KeyRange) => {
    const reads = new ReadSet();
    reads.addSource("messages", { indexId: r.indexId, readRange: () => r });
    return reads.seal();
  };

  it("is affected by a key inside a range, not by one outside it", () => {
    const reads = readsOf(range(key("a"), key("c")));
    expect(reads.overlaps(writesAt(key("b")))).toBe(true);
    expect(reads.overlaps(writesAt(key("a")))).toBe(true);
    expect(reads.overlaps(writesAt(key("c")))).toBe(false);
    expect(reads.overlaps(writesAt(key("d")))).toBe(false);
  });

  it("includes the upper key of a range read up to a limit", () => {
    const reads = readsOf(range(key("a"), key("c"), true));
    expect(reads.overlaps(writesAt(key("c")))).toBe(true);
    expect(reads.overlaps(writesAt(key("c", 1)))).toBe(false);
  });

  it("compares keys of the same index only", () => {
    const reads = readsOf(range(key("a"), key("z")));
    const elsewhere = new WriteSet();
    elsewhere.addDocument("messages", "2;messages", [[8, key("b")]]);
    expect(reads.overlaps(elsewhere)).toBe(false);
  });

  it("encodes a key given as a function only for a reader of its index, once, and then compares it", () => {
    const encode = vi.fn(() => key("b"));
    const writes = new WriteSet();
    writes.addDocument("messages", "3;messages", [[8, encode]]);
    const merged = new WriteSet();
    merged.merge(writes);
    expect(readsOf(range(key("a"), key("z"))).overlaps(merged)).toBe(false);
    expect(encode).not.toHaveBeenCalled();
    const ofIndex8 = (r: KeyRange) => {
      const reads = new ReadSet();
      reads.addSource("messages", { indexId: 8, readRange: () => ({ ...r, indexId: 8 }) });
      return reads.seal();
    };
    expect(ofIndex8(range(key("a"), key("c"))).overlaps(merged)).toBe(true);
    expect(ofIndex8(range(key("c"), key("z"))).overlaps(merged)).toBe(false);
    expect(encode).toHaveBeenCalledTimes(1);
  });

  it("is affected by a write to a document read by id, and by any write to a table read whole", () => {
    const reads = new ReadSet();
    reads.addId("messages", "1;messages");
    expect(reads.overlaps(writesAt())).toBe(true);
    const other = new WriteSet();
    other.addDocument("messages", "9;messages", []);
    expect(reads.overlaps(other)).toBe(false);
    const searched = ReadSet.ofTables(["messages"]);
    expect(searched.overlaps(other)).toBe(true);
    expect(searched.overlaps(WriteSet.ofTables(["ticks"]))).toBe(false);
    expect(reads.overlaps(WriteSet.ofTables(["messages"]))).toBe(true);
  });
});

describe("subscriptions and read sets", () => {
  let backend: RunningLocalBackend;
  const { client, closeAll } = clientPool(() => backend.url);
  const signedIn = async (sub: string, name: string) => {
    const c = client();
    const { token } = await backend.issueToken({ sub, name, email: `${sub}@example.com` });
    c.setAuth(() => Promise.resolve(token));
    return c;
  };

  const dataDir = tempDataDir();

  beforeAll(async () => {
    // In a data folder, as `npm run dev` keeps it: queries and mutations then read the database in
    // their isolates (decision 092), and what they read is counted and watched as the backend's own.
    backend = await startFixtureBackend({ dataDir });
  });
  afterAll(async () => {
    await closeAll();
    await backend.stop();
    removeDir(dataDir);
  });

  it("re-runs only the queries whose range a write lands in", async () => {
    const c = client();
    const low = watch<string[]>(c, q("messages:window"), {
      channel: "ranges",
      below: 10,
      order: "asc",
      take: 100,
    });
    const high = watch<string[]>(c, q("messages:window"), {
      channel: "ranges",
      above: 10,
      order: "asc",
      take: 100,
    });
    await low.next(() => true);
    await high.next(() => true);
    await backend.idle();
    backend.core.engine().resetStats();
    await c.mutation(m("messages:insertRanked"), { channel: "ranges", body: "x", rank: 5 });
    await low.next((v) => v.includes("x@5"));
    await backend.idle();
    expect(backend.stats().functions["messages:window"].calls).toBe(1);
    // Moving it across the boundary changes both.
    const id = (await c.mutation(m("messages:insertRanked"), {
      channel: "ranges",
      body: "y",
      rank: 6,
    })) as string;
    await backend.idle();
    backend.core.engine().resetStats();
    await c.mutation(m("messages:edit"), { id, rank: 20 });
    await high.next((v) => v.includes("y@20"));
    await low.next((v) => !v.includes("y@6"));
    expect(backend.stats().functions["messages:window"].calls).toBe(2);
  });

  it("runs a query once for everyone when it never asks who is calling", async () => {
    const viewers = await Promise.all([1, 2, 3].map((n) => signedIn(`viewer-${n}`, `Viewer ${n}`)));
    const anonymous = client();
    const lists = [...viewers, anonymous].map((c) =>
      watch<{ author: string; body: string }[]>(c, q("messages:list"), { channel: "everyone" }),
    );
    const marked = viewers
      .slice(0, 2)
      .map((c) =>
        watch<{ body: string; mine: boolean }[]>(c, q("messages:listForViewer"), { channel: "everyone" }),
      );
    for (const list of [...lists, ...marked]) await list.next(() => true);
    await backend.idle();
    backend.core.engine().resetStats();
    await viewers[0].mutation(m("messages:send"), { channel: "everyone", body: "hi" });
    for (const list of lists) await list.next((v) => v.length === 1);
    const [mine, theirs] = await Promise.all(marked.map((list) => list.next((v) => v.length === 1)));
    expect(mine).toEqual([{ body: "hi", mine: true }]);
    expect(theirs).toEqual([{ body: "hi", mine: false }]);
    await backend.idle();
    const stats = backend.stats().functions;
    // Four subscribers (three people and one anonymous) of the list: one run.
    expect(stats["messages:list"].calls).toBe(1);
    // The query that asks who is calling runs for each person.
    expect(stats["messages:listForViewer"].calls).toBe(2);
  });

  it("keeps the read set and the documents read of a query that stops early to what it consumed", async () => {
    // A function in an isolate gets results read ahead of it; only those it takes are its reads.
    const c = client();
    type Early = { ranks: number[]; documentsRead: number };
    const cases = [
      { how: "first", n: 1 },
      { how: "take", n: 3 },
      { how: "break", n: 3 },
    ] as const;
    for (const { how, n } of cases) {
      const channel = `early-${how}`;
      for (let rank = 1; rank <= 10; rank++) {
        await c.mutation(m("messages:insertRanked"), { channel, body: "row", rank });
      }
      const ranks = Array.from({ length: n }, (_, i) => i + 1);
      const early = watch<Early>(c, q("messages:stopEarly"), { channel, how, n });
      expect(await early.next(() => true)).toEqual({ ranks, documentsRead: n });
      await backend.idle();
      backend.core.engine().resetStats();
      // Just past the last row it took: outside what it read, so it does not run again.
      await c.mutation(m("messages:insertRanked"), { channel, body: "row", rank: n + 0.5 });
      await backend.idle();
      expect(backend.stats().functions["messages:stopEarly"]?.calls ?? 0, how).toBe(0);
      // Within it: it does.
      await c.mutation(m("messages:insertRanked"), { channel, body: "row", rank: 0.5 });
      await early.next((value) => value.ranks[0] === 0.5);
      expect(backend.stats().functions["messages:stopEarly"].calls, how).toBe(1);
    }
    // Within a budget of 3 documents read: taking 3 fits however far the backend read ahead, a 4th fails.
    for (const how of ["take", "break"] as const) {
      const within = { channel: "early-break", how, documentsRead: 3 };
      await expect(c.query(q("messages:stopEarlyWithin"), { ...within, n: 3 })).resolves.toEqual({
        ranks: [0.5, 1, 2],
        documentsRead: 3,
      });
      await expect(c.query(q("messages:stopEarlyWithin"), { ...within, n: 4 })).rejects.toThrow(
        "Too many documents read in a single function execution (limit: 3)",
      );
    }
  });

  /**
   * Holds each run of `udfPath` once it has run (its transaction over, its answer not yet taken) until
   * `release()`, so a write can commit while the run is still under way; counts the runs.
   */
  function holdAfterRun(udfPath: string) {
    const engine = backend.core.engine();
    const original = engine.call.bind(engine);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let ran!: () => void;
    const firstRan = new Promise<void>((resolve) => (ran = resolve));
    let runs = 0;
    engine.call = async (path, args, options) => {
      const outcome = await original(path, args, options);
      if (path === udfPath) {
        runs += 1;
        ran();
        await gate;
      }
      return outcome;
    };
    return { release, firstRan, runs: () => runs, restore: () => (engine.call = original) };
  }

  it("runs a query again when a write committed during its run lands in what it read", async () => {
    const held = holdAfterRun("messages:list");
    try {
      const list = watch<{ body: string }[]>(client(), q("messages:list"), { channel: "during" });
      await held.firstRan;
      await client().mutation(m("messages:send"), { channel: "during", body: "meanwhile" });
      held.release();
      // The first result the subscriber is shown already has it.
      expect(await list.next(() => true)).toEqual([{ author: "anonymous", body: "meanwhile" }]);
      expect(held.runs()).toBe(2);
    } finally {
      held.restore();
    }
  });

  it("runs a query that fails Convex's time limit once, though unrelated writes commit meanwhile", async () => {
    const held = holdAfterRun("misbehaving:compute");
    try {
      const failing = client().query(q("misbehaving:compute"), { cpuMs: 5000 });
      const failed = expect(failing).rejects.toThrow("Function execution timed out (maximum duration: 1s)");
      await held.firstRan;
      await client().mutation(m("messages:send"), { channel: "elsewhere", body: "meanwhile" });
      held.release();
      await failed;
      await backend.idle();
      expect(held.runs()).toBe(1);
    } finally {
      held.restore();
    }
  });

  // 120 writes, each checked with 16 fresh reads: longer than vitest's default on a loaded machine.
  it("keeps every live result equal to a fresh read through random writes", async () => {
    const c = client();
    const http = newHttpClient(backend.url);
    const windowArgs = fc.record(
      {
        channel: fc.constantFrom("rw-a", "rw-b"),
        above: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
        below: fc.option(fc.integer({ min: 20, max: 40 }), { nil: undefined }),
        order: fc.constantFrom("asc" as const, "desc" as const),
        take: fc.integer({ min: 1, max: 6 }),
        bodyNot: fc.option(fc.constantFrom("b0", "b1"), { nil: undefined }),
      },
      { requiredKeys: ["channel", "order", "take"] },
    );
    const subscriptions = fc.sample(windowArgs, { numRuns: 16, seed: 20261125 }).map((args) => ({
      args,
      list: watch<string[]>(c, q("messages:window"), args),
    }));
    for (const { list } of subscriptions) await list.next(() => true);
    type Step =
      | { kind: "insert"; channel: string; rank: number; body: string }
      | { kind: "edit"; target: number; channel?: string; rank?: number; body?: string }
      | { kind: "remove"; target: number };
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({
        kind: fc.constant("insert" as const),
        channel: fc.constantFrom("rw-a", "rw-b", "rw-c"),
        rank: fc.integer({ min: 0, max: 40 }),
        body: fc.constantFrom("b0", "b1", "b2"),
      }),
      fc.record(
        {
          kind: fc.constant("edit" as const),
          target: fc.nat(),
          channel: fc.option(fc.constantFrom("rw-a", "rw-b"), { nil: undefined }),
          rank: fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }),
          body: fc.option(fc.constantFrom("b0", "b1", "b2"), { nil: undefined }),
        },
        { requiredKeys: ["kind", "target"] },
      ),
      fc.record({ kind: fc.constant("remove" as const), target: fc.nat() }),
    );
    const ids: string[] = [];
    const steps = fc.sample(step, { numRuns: 120, seed: 20261125 });
    for (const [index, s] of steps.entries()) {
      if (s.kind === "insert" || ids.length === 0) {
        const insert = s.kind === "insert" ? s : { channel: "rw-a", rank: index % 40, body: "b0" };
        ids.push(
          (await c.mutation(m("messages:insertRanked"), {
            channel: insert.channel,
            rank: insert.rank,
            body: insert.body,
          })) as string,
        );
      } else if (s.kind === "edit") {
        const { kind: _kind, target, ...fields } = s;
        await c.mutation(m("messages:edit"), { id: ids[target % ids.length], ...fields });
      } else {
        const [id] = ids.splice(s.target % ids.length, 1);
        await c.mutation(m("messages:edit"), { id, remove: true });
      }
      // The mutation resolved: this client's results include its write.
      for (const { args, list } of subscriptions) {
        const fresh = await http.query(q("messages:window"), args);
        expect({ step: index, args, value: list.values.at(-1) }).toEqual({ step: index, args, value: fresh });
      }
    }
  }, 120_000);
});
