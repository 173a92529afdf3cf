/**
 * Convex's smaller behaviours through the official clients: jobs scheduled on a component's function
 * kept by the app, a scheduled query failing when it runs, a job canceled by its own mutation,
 * `console.time*` as log lines, `CONVEX_CLOUD_URL`/`CONVEX_SITE_URL`, full pages, reads at a
 * timestamp (`consistentQuery`), staged indexes, and ids of the wrong kind of table.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeTs } from "../core/protocol.ts";
import type { RunningLocalBackend } from "../host/start.ts";
import { clientPool, m, newHttpClient, q, startFixtureBackend, watch } from "./test-helpers.ts";

type Page = { page: unknown[]; isDone: boolean; continueCursor: string };

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (e: unknown) => (e as Error).message,
  );

describe("scheduling on a component's function", { timeout: 60_000 }, () => {
  let backend: RunningLocalBackend;
  const pool = clientPool(() => backend.url);
  const fixture = path.join(import.meta.dirname, "test-fixture", "ts-components", "convex");

  beforeAll(async () => {
    backend = await startFixtureBackend({ functionsDir: fixture });
  });
  afterAll(async () => {
    await pool.closeAll();
    await backend?.stop();
  });

  it("keeps the job in the app's _scheduled_functions, and runs the component's function", async () => {
    const http = newHttpClient(backend.url);
    const id = await http.mutation(m("jobs:scheduleAdd"), { name: "jobbed", by: 4, delayMs: 0 });
    const state = watch<string | null>(pool.client(), q("jobs:state"), { id });
    expect(await state.next((value) => value === "success")).toBe("success");
    expect(await http.query(q("jobs:stateInComponent"), { id })).toBeNull();
    expect(await http.query(q("counts:get"), { name: "jobbed" })).toBe(4);
  });

  it("lets the app cancel such a job by its id", async () => {
    const http = newHttpClient(backend.url);
    const id = await http.mutation(m("jobs:scheduleAdd"), { name: "never", by: 1, delayMs: 600_000 });
    expect(await http.query(q("jobs:state"), { id })).toBe("pending");
    await http.mutation(m("jobs:cancel"), { id });
    expect(await http.query(q("jobs:state"), { id })).toBe("canceled");
    expect(await http.query(q("counts:get"), { name: "never" })).toBeNull();
  });
});

describe("Convex's smaller behaviours", { timeout: 60_000 }, () => {
  let backend: RunningLocalBackend;
  const pool = clientPool(() => backend.url);

  beforeAll(async () => {
    backend = await startFixtureBackend();
  });
  afterAll(async () => {
    await pool.closeAll();
    await backend?.stop();
  });

  it("accepts a scheduled query, and fails the job when it runs, in Convex's words", async () => {
    const id = await newHttpClient(backend.url).mutation(m("behaviour:scheduleQuery"), {});
    const job = watch<{ state: { kind: string; error?: string } } | null>(pool.client(), q("behaviour:job"), {
      id,
    });
    const failed = await job.next((value) => value?.state.kind === "failed");
    expect(failed?.state.error).toBe(
      'Unsupported function type. "aQuery" in module "behaviour.js" is defined as a Query. Only Mutation and Action can be scheduled.',
    );
  });

  it("ends a scheduled mutation that cancels its own job canceled, keeping its writes", async () => {
    const http = newHttpClient(backend.url);
    const id = await http.mutation(m("behaviour:scheduleSelfCanceling"), {});
    const job = watch<{ state: { kind: string } } | null>(pool.client(), q("behaviour:job"), { id });
    await job.next((value) => value?.state.kind !== "pending");
    expect(job.values.at(-1)?.state.kind).toBe("canceled");
    expect(await http.query(q("behaviour:ticks"), {})).toContain("self-canceled");
  });

  it("gives console.time, timeLog and timeEnd as the function's log lines", async () => {
    const response = await fetch(`${backend.url}/api/mutation`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ path: "behaviour:timers", args: [{}], format: "convex_encoded_json" }),
    });
    const { logLines } = (await response.json()) as { logLines: string[] };
    expect(logLines).toHaveLength(6);
    const expected = [
      /^\[INFO\] default: \d+ms$/,
      /^\[INFO\] default: \d+ms$/,
      /^\[WARN\] Timer 'foo' already exists$/,
      /^\[INFO\] foo: \d+ms bar 3$/,
      /^\[INFO\] foo: \d+ms$/,
      /^\[WARN\] Timer 'foo' does not exist$/,
    ];
    logLines.forEach((line, i) => expect(line).toMatch(expected[i]));
  });

  it("writes a \"use node\" action's console lines as Convex's Node runtime does, strings quoted", async () => {
    const response = await fetch(`${backend.url}/api/action`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ path: "nodeActions:logs", args: [{}], format: "convex_encoded_json" }),
    });
    const { logLines } = (await response.json()) as { logLines: string[] };
    const expected = [
      /^\[LOG\] 'plain' 3 \{ a: 'b' \}$/,
      /^\[WARN\] "Timer 'foo' already exists"$/,
      /^\[INFO\] 'foo: \d+ms' 'bar' 3$/,
      /^\[INFO\] 'foo: \d+ms'$/,
      /^\[WARN\] "Timer 'foo' does not exist"$/,
    ];
    expect(logLines).toHaveLength(expected.length);
    logLines.forEach((line, i) => expect(line).toMatch(expected[i]));
  });

  it("sets CONVEX_CLOUD_URL and CONVEX_SITE_URL to the backend's origins", async () => {
    const http = newHttpClient(backend.url);
    expect(await http.query(q("env:read"), { name: "CONVEX_CLOUD_URL" })).toBe(backend.url);
    expect(await http.query(q("env:read"), { name: "CONVEX_SITE_URL" })).toBe(backend.siteUrl);
  });

  it("says a page that exactly fills numItems is not done, and the next, empty one is", async () => {
    const http = newHttpClient(backend.url);
    await http.mutation(m("behaviour:addTick"), { note: "paged one" });
    await http.mutation(m("behaviour:addTick"), { note: "paged two" });
    for (const [name, args] of [
      ["behaviour:page", {}],
      ["behaviour:searchPage", { text: "paged" }],
    ] as const) {
      const total = (
        (await http.query(q(name), { ...args, paginationOpts: { numItems: 100, cursor: null } })) as Page
      ).page.length;
      const first = (await http.query(q(name), {
        ...args,
        paginationOpts: { numItems: total, cursor: null },
      })) as Page;
      expect({ name, rows: first.page.length, isDone: first.isDone }).toEqual({
        name,
        rows: total,
        isDone: false,
      });
      const last = (await http.query(q(name), {
        ...args,
        paginationOpts: { numItems: total, cursor: first.continueCursor },
      })) as Page;
      expect({ name, rows: last.page.length, isDone: last.isDone }).toEqual({ name, rows: 0, isDone: true });
    }
  });

  it("answers consistentQuery at its timestamp, not with later writes", async () => {
    const http = newHttpClient(backend.url);
    const before = (await http.consistentQuery(q("behaviour:countTicks"), {})) as number;
    await http.mutation(m("behaviour:addTick"), { note: "after the timestamp" });
    expect(await http.consistentQuery(q("behaviour:countTicks"), {})).toBe(before);
    expect(await http.query(q("behaviour:countTicks"), {})).toBe(before + 1);
  });

  it("refuses a read at a timestamp whose state it no longer knows, as Convex does", async () => {
    // A client whose timestamp was taken before a write to what it then reads for the first time.
    const http = newHttpClient(backend.url);
    await http.consistentQuery(q("behaviour:aQuery"), {});
    await http.mutation(m("behaviour:addTick"), { note: "between" });
    expect(await failure(http.consistentQuery(q("behaviour:countTicks"), {}))).toMatch(
      /Your request couldn't be completed. Try again later./,
    );
    // A timestamp from before the backend started.
    const response = await fetch(`${backend.url}/api/query_at_ts`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ path: "behaviour:countTicks", args: [{}], ts: encodeTs(1n) }),
    });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      code: "InternalServerError",
      message: "Your request couldn't be completed. Try again later.",
    });
  });

  it("refuses queries on staged indexes in Convex's words", async () => {
    const http = newHttpClient(backend.url);
    expect(await failure(http.query(q("behaviour:stagedIndex"), {}))).toMatch(
      "Index ticks.by_at is currently staged and not available to query until it is enabled.",
    );
    expect(await failure(http.query(q("behaviour:stagedSearch"), {}))).toMatch(
      "Index ticks.search_note is currently staged and not available to query until it is enabled.",
    );
  });

  it("refuses db.get of a system table's id and db.system.get of a user table's", async () => {
    const http = newHttpClient(backend.url);
    const tick = await http.mutation(m("behaviour:addTick"), { note: "an id" });
    const job = await http.mutation(m("behaviour:scheduleQuery"), {});
    expect(await failure(http.query(q("behaviour:get"), { id: job, system: false }))).toMatch(
      "System tables can only be accessed with db.system.",
    );
    expect(await failure(http.query(q("behaviour:get"), { id: tick, system: true }))).toMatch(
      "User tables cannot be accessed with db.system.",
    );
    expect(await http.query(q("behaviour:get"), { id: job, system: true })).toMatchObject({ _id: job });
    expect(await http.query(q("behaviour:get"), { id: tick, system: false })).toMatchObject({ _id: tick });
  });
});
