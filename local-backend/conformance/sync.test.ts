/** Conformance: the official WebSocket client against the local backend. */
import { ConvexError } from "convex/values";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RunningLocalBackend } from "../host/start.ts";
import { a, clientPool, eventually, m, q, slowQuery, startFixtureBackend, watch } from "./test-helpers.ts";

type Message = { author: string; body: string };
type Page = { page: { body: string; rank?: number }[]; isDone: boolean; continueCursor: string };

describe("sync protocol with ConvexClient", () => {
  let backend: RunningLocalBackend;
  const { client, closeAll } = clientPool(() => backend.url);

  beforeAll(async () => {
    backend = await startFixtureBackend();
  });
  afterEach(closeAll);
  afterAll(async () => {
    await backend.stop();
  });

  it("subscribes and gets updates", async () => {
    const c = client();
    const list = watch<Message[]>(c, q("messages:list"), { channel: "updates" });
    await list.next((v) => v.length === 0);
    await c.mutation(m("messages:send"), { channel: "updates", body: "one" });
    await list.next((v) => v.length === 1 && v[0].body === "one");
    const other = client();
    await other.mutation(m("messages:send"), { channel: "updates", body: "two" });
    await list.next((v) => v.length === 2);
  });

  it("resolves a mutation only once its writes are visible to the same client's queries", async () => {
    const c = client();
    const list = watch<Message[]>(c, q("messages:list"), { channel: "visible" });
    await list.next(() => true);
    for (let i = 0; i < 10; i++) {
      await c.mutation(m("messages:send"), { channel: "visible", body: `m${i}` });
      const local = c.client.localQueryResult("messages:list", { channel: "visible" }) as Message[];
      expect(local.map((row) => row.body)).toContain(`m${i}`);
    }
  });

  it("forwards query log lines", async () => {
    const c = client();
    const list = watch<Message[]>(c, q("messages:list"), { channel: "logs" });
    await list.next(() => true);
    // `localQueryLogs` is marked internal in the client's types; it is what the client logs from.
    const base = c.client as unknown as { localQueryLogs(name: string, args: object): string[] | undefined };
    expect(base.localQueryLogs("messages:list", { channel: "logs" })).toEqual(["[LOG] listing logs"]);
  });

  it("keeps ConvexError data intact", async () => {
    const c = client();
    const error = await c.mutation(m("messages:failWithConvexError"), {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConvexError);
    expect((error as ConvexError<{ code: string }>).data).toEqual({
      code: "NOT_ALLOWED",
      message: "You may not do that",
    });
  });

  it("refuses internal functions", async () => {
    const c = client();
    await expect(c.query(q("messages:secret"), {})).rejects.toThrow(
      /Could not find public function for 'messages:secret'/,
    );
    await expect(c.mutation(m("messages:add"), { channel: "x", author: "x", body: "x" })).rejects.toThrow(
      /Could not find public function for 'messages:add'/,
    );
  });

  it("reports a query's thrown error to the caller", async () => {
    const c = client();
    await expect(c.query(q("messages:queryThrows"), {})).rejects.toThrow(/query exploded/);
    const failing = watch(c, q("messages:queryThrows"), {});
    await eventually(() => failing.errors.length > 0);
    expect(failing.errors[0].message).toMatch(/query exploded/);
  });

  it("runs actions whose inner writes reach subscribers", async () => {
    const c = client();
    const list = watch<Message[]>(c, q("messages:list"), { channel: "action" });
    await list.next(() => true);
    expect(await c.action(a("messages:sendViaAction"), { channel: "action", body: "hi" })).toBe(1);
    await list.next((v) => v.length === 1 && v[0].author === "action");
  });

  it("delivers a scheduled function's write to subscribers", async () => {
    const c = client();
    const list = watch<Message[]>(c, q("messages:list"), { channel: "later" });
    await list.next(() => true);
    await c.mutation(m("messages:sendLater"), { channel: "later", body: "soon", delayMs: 200 });
    expect(list.values.at(-1)).toEqual([]);
    const value = await list.next((v) => v.length === 1);
    expect(value[0]).toEqual({ author: "scheduler", body: "soon" });
  });

  it("computes identical subscriptions once", async () => {
    const first = client();
    const second = client();
    const one = watch<Message[]>(first, q("messages:list"), { channel: "shared" });
    const two = watch<Message[]>(second, q("messages:list"), { channel: "shared" });
    await one.next(() => true);
    await two.next(() => true);
    await backend.idle();
    backend.core.engine().resetStats();
    await first.mutation(m("messages:send"), { channel: "shared", body: "x" });
    await one.next((v) => v.length === 1);
    await two.next((v) => v.length === 1);
    expect(backend.stats().functions["messages:list"].calls).toBe(1);
    // A write outside the index range the query read (another channel) re-runs nothing.
    backend.core.engine().resetStats();
    await first.mutation(m("messages:send"), { channel: "elsewhere", body: "y" });
    await backend.idle();
    expect(backend.stats().functions["messages:list"]).toBeUndefined();
  });

  it("loses and doubles no mutation across a forced disconnect", async () => {
    const c = client();
    const list = watch<Message[]>(c, q("messages:list"), { channel: "reconnect" });
    await list.next(() => true);
    backend.core.engine().resetStats();
    const resentBefore = backend.core.sync.resentMutations;
    // Drop the connection right after the 10th mutation commits, before its response is sent.
    const core = backend.core;
    const originalCall = core.call.bind(core);
    let sent = 0;
    core.call = async (...args) => {
      const outcome = await originalCall(...args);
      if (args[0] === "messages:send" && ++sent === 10) core.sync.disconnectAll(1011, "test disconnect");
      return outcome;
    };
    const sends = Array.from({ length: 30 }, (_, i) =>
      c.mutation(m("messages:send"), { channel: "reconnect", body: `r${i}` }),
    );
    const ids = await Promise.all(sends);
    core.call = originalCall;
    expect(new Set(ids).size).toBe(30);
    // Each mutation resolved once the client's results showed its commit, and a copy re-sent after the
    // drop waited for the first run of it the backend had received: every run has ended, and shows.
    const final = c.client.localQueryResult("messages:list", { channel: "reconnect" }) as Message[];
    expect(list.values.at(-1)).toEqual(final);
    expect(final.map((row) => row.body).sort()).toEqual(Array.from({ length: 30 }, (_, i) => `r${i}`).sort());
    expect(backend.stats().functions["messages:send"].calls).toBe(30);
    // Some were in flight: the client re-sent them and got the first run's result.
    expect(backend.core.sync.resentMutations).toBeGreaterThan(resentBefore);
  });

  it("keeps pages gapless when a row is inserted above them", async () => {
    const c = client();
    for (const rank of [1, 2, 3, 4, 5, 6]) {
      await c.mutation(m("messages:insertRanked"), { channel: "pages", body: `p${rank}`, rank });
    }
    const first = watch<Page>(c, q("messages:page"), {
      channel: "pages",
      paginationOpts: { numItems: 3, cursor: null },
    });
    const page1 = await first.next(() => true);
    expect(page1.page.map((row) => row.rank)).toEqual([1, 2, 3]);
    const second = watch<Page>(c, q("messages:page"), {
      channel: "pages",
      paginationOpts: { numItems: 3, cursor: page1.continueCursor },
    });
    const page2 = await second.next(() => true);
    expect(page2.page.map((row) => row.rank)).toEqual([4, 5, 6]);

    await c.mutation(m("messages:insertRanked"), { channel: "pages", body: "p1.5", rank: 1.5 });
    const grown = await first.next((v) => v.page.length === 4);
    expect(grown.page.map((row) => row.rank)).toEqual([1, 1.5, 2, 3]);
    expect(grown.continueCursor).toBe(page1.continueCursor);

    // The journal survives a reconnect: the client re-sends it and the page keeps its end.
    backend.core.sync.disconnectAll(1011, "test disconnect");
    await c.mutation(m("messages:insertRanked"), { channel: "pages", body: "p2.5", rank: 2.5 });
    const after = await first.next((v) => v.page.length === 5);
    expect(after.page.map((row) => row.rank)).toEqual([1, 1.5, 2, 2.5, 3]);
    expect(second.values.at(-1)?.page.map((row) => row.rank)).toEqual([4, 5, 6]);
  });
  it("tells a client as soon as its own queries have re-run, not after everyone's: quick queries first", async () => {
    // Another client's query, slow from its first run, then as long as the test says.
    const slowCount = slowQuery(backend, "messages:count", "early");
    try {
      const fast = client();
      const slow = client();
      const list = watch<Message[]>(fast, q("messages:list"), { channel: "early" });
      const count = watch<number>(slow, q("messages:count"), { channel: "early" });
      await list.next((rows) => rows.length === 0);
      await count.next((n) => n === 0);
      await client().mutation(m("messages:send"), { channel: "early", body: "first" });
      await list.next((rows) => rows.length === 1);
      expect(count.values.at(-1)).toBe(0);
      slowCount.release();
      await count.next((n) => n === 1);
    } finally {
      slowCount.restore();
    }
  });
});

describe("auth with ConvexClient", () => {
  let backend: RunningLocalBackend;
  const { client, closeAll } = clientPool(() => backend.url);

  beforeAll(async () => {
    backend = await startFixtureBackend();
  });
  afterEach(closeAll);
  afterAll(async () => {
    await backend.stop();
  });

  it("accepts a local token, shows the identity to queries, and signs out", async () => {
    const c = client();
    const { token } = await backend.issueToken({
      sub: "user-1",
      email: "ada@example.com",
      name: "Ada",
      picture: "https://example.com/ada.png",
    });
    const me = watch<Record<string, string> | null>(c, q("messages:whoami"), {});
    await me.next((v) => v === null);
    const authChanges: boolean[] = [];
    c.setAuth(
      () => Promise.resolve(token),
      (isAuthenticated) => authChanges.push(isAuthenticated),
    );
    const identity = await me.next((v) => v !== null);
    const issuer = backend.core.auth.issuer;
    expect(identity).toEqual({
      tokenIdentifier: `${issuer}|user-1`,
      subject: "user-1",
      issuer,
      email: "ada@example.com",
      name: "Ada",
      pictureUrl: "https://example.com/ada.png",
    });
    await eventually(() => authChanges.includes(true));
    await c.mutation(m("messages:send"), { channel: "authed", body: "hello" });
    expect(await c.query(q("messages:list"), { channel: "authed" })).toEqual([
      { author: "Ada", body: "hello" },
    ]);

    const seenBefore = me.values.length;
    c.client.clearAuth();
    await eventually(() => me.values.length > seenBefore && me.values.at(-1) === null);
  });

  it("refuses a bad token", async () => {
    const c = client();
    const { token } = await backend.issueToken({ sub: "user-2" });
    const tampered = token.slice(0, -4) + (token.endsWith("AAAA") ? "BBBB" : "AAAA");
    const authChanges: boolean[] = [];
    c.setAuth(
      () => Promise.resolve(tampered),
      (isAuthenticated) => authChanges.push(isAuthenticated),
    );
    await eventually(() => authChanges.includes(false), 10_000);
    expect(authChanges).not.toContain(true);
    expect(await c.query(q("messages:whoami"), {})).toBeNull();
  });
});
