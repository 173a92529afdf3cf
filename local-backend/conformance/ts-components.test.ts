/**
 * Components written in TypeScript in the app's own repo (as `convex.config.ts` installs
 * `../counter/convex.config`) load as on Convex: their queries, mutations and schema work through
 * the app's functions, and one that cannot be loaded is said at start, in words, and its calls fail
 * with the reason instead of "not found". Fixture: test-fixture/ts-components/.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { RunningLocalBackend } from "../host/start.ts";
import { clientPool, m, newHttpClient, q, startFixtureBackend, watch } from "./test-helpers.ts";

const fixture = path.join(import.meta.dirname, "test-fixture", "ts-components");

describe("components written in TypeScript in the app's repo", { timeout: 60_000 }, () => {
  let backend: RunningLocalBackend;
  const said: string[] = [];
  const pool = clientPool(() => backend.url);

  beforeAll(async () => {
    const spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
      said.push(args.map(String).join(" "));
    });
    try {
      backend = await startFixtureBackend({ functionsDir: path.join(fixture, "convex") });
    } finally {
      spy.mockRestore();
    }
  });
  afterAll(async () => {
    await pool.closeAll();
    await backend?.stop();
  });

  it("runs the component's query and mutation, and a subscription to them follows its writes", async () => {
    const http = newHttpClient(backend.url);
    expect(await http.query(q("counts:get"), { name: "visits" })).toBeNull();
    const visits = watch<number | null>(pool.client(), q("counts:get"), { name: "visits" });
    await visits.next((value) => value === null);
    expect(await http.mutation(m("counts:add"), { name: "visits", by: 2 })).toBe(2);
    expect(await http.mutation(m("counts:add"), { name: "visits", by: 3 })).toBe(5);
    expect(await visits.next((value) => value === 5)).toBe(5);
    expect(await http.query(q("counts:get"), { name: "visits" })).toBe(5);
  });

  it("keeps the component's tables to itself and checks its writes against its schema", async () => {
    const http = newHttpClient(backend.url);
    expect(backend.core.engine().tableNames()).not.toContain("counts");
    const refused = await http.mutation(m("counts:add"), { name: "typo", by: "three" }).then(
      () => null,
      (e: unknown) => (e as Error).message,
    );
    expect(refused).toMatch(/does not match the schema/);
    expect(await http.query(q("counts:get"), { name: "typo" })).toBeNull();
  });

  it("runs the component's code in an isolate: a loop in it fails that call after Convex's 1 s, and a subscribed client keeps its updates", async () => {
    const http = newHttpClient(backend.url);
    const spins = pool.client();
    const count = watch<number | null>(pool.client(), q("counts:get"), { name: "spun" });
    await count.next((value) => value === null);
    const spun = spins.query(q("counts:spin"), {}).then(
      () => "answered",
      (e: unknown) => (e as Error).message,
    );
    // Served while the loop runs.
    expect(await http.mutation(m("counts:add"), { name: "spun", by: 1 })).toBe(1);
    expect(await count.next((value) => value === 1)).toBe(1);
    expect(await spun).toContain("Function execution timed out (maximum duration: 1s)");
    expect(await http.mutation(m("counts:add"), { name: "spun", by: 1 })).toBe(2);
    expect(await count.next((value) => value === 2)).toBe(2);
    expect(count.errors).toEqual([]);
  });

  it("says at start which component module cannot be loaded and why, and its calls fail with that reason", async () => {
    const lines = said.filter((line) => line.includes('Component "broken"'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/module missing \(.*broken[/\\]missing\.ts\) cannot be loaded: .*not-there/);
    const error = await newHttpClient(backend.url)
      .query(q("counts:hello"), {})
      .then(
        () => null,
        (e: unknown) => (e as Error).message,
      );
    expect(error).toMatch(/Component "broken": module missing .* cannot be loaded: .*not-there/);
    expect(error).not.toMatch(/Could not find/);
  });
});
