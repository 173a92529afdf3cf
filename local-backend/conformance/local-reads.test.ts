/**
 * Queries and mutations read the database in their isolates (decision 092): what they read is what
 * the backend's thread would have read, a stream open when a syscall crosses is continued there where
 * it was, and a subscription re-runs on a write to what was read in the isolate.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConvexHttpClient } from "convex/browser";
import type { RunningLocalBackend } from "../host/start.ts";
import {
  m,
  newClient,
  newHttpClient,
  q,
  removeDir,
  startFixtureBackend,
  tempDataDir,
  watch,
} from "./test-helpers.ts";

describe("reads in the isolate", () => {
  const dataDir = tempDataDir();
  let backend: RunningLocalBackend;
  let http: ConvexHttpClient;
  const crossings = (path: string) => backend.stats().functions[path]?.crossings ?? 0;

  beforeAll(async () => {
    backend = await startFixtureBackend({ dataDir });
    http = newHttpClient(backend.url);
    for (let rank = 0; rank < 12; rank++) {
      await http.mutation(m("messages:insertRanked"), { channel: "local", body: `m${rank}`, rank });
    }
  });
  afterAll(async () => {
    await backend.stop();
    removeDir(dataDir);
  });

  it("answers a query's reads in its isolate: no syscall crosses", async () => {
    const before = crossings("messages:list");
    const rows = (await http.query(q("messages:list"), { channel: "local" })) as { body: string }[];
    expect(rows.map((row) => row.body)).toEqual(Array.from({ length: 12 }, (_, rank) => `m${rank}`));
    expect(backend.stats().functions["messages:list"].calls).toBeGreaterThan(0);
    expect(crossings("messages:list")).toBe(before);
  });

  it("continues a stream on the backend's thread after a syscall crosses, each row once", async () => {
    const all = Array.from({ length: 12 }, (_, rank) => `m${rank}`);
    for (const crossAfter of [0, 1, 5, 11, 12]) {
      const result = (await http.query(q("localReads:readAcrossACrossing"), {
        channel: "local",
        crossAfter,
      })) as { bodies: string[]; crossed: boolean };
      expect(result, `crossing after ${crossAfter} rows`).toEqual({ bodies: all, crossed: crossAfter < 12 });
    }
    expect(crossings("localReads:readAcrossACrossing")).toBeGreaterThan(0);
  });

  it("lets a mutation that writes as it reads read what it wrote", async () => {
    await http.mutation(m("messages:insertRanked"), { channel: "rename", body: "a", rank: 1 });
    await http.mutation(m("messages:insertRanked"), { channel: "rename", body: "b", rank: 2 });
    await http.mutation(m("messages:insertRanked"), { channel: "rename", body: "c", rank: 3 });
    expect(await http.mutation(m("localReads:renameAll"), { channel: "rename", suffix: "!" })).toEqual([
      "a!",
      "b!",
      "c!",
    ]);
    const rows = (await http.query(q("messages:list"), { channel: "rename" })) as { body: string }[];
    expect(rows.map((row) => row.body)).toEqual(["a!", "b!", "c!"]);
  });

  it("re-runs a subscription when a document its query got in the isolate changes", async () => {
    const id = (await http.mutation(m("messages:insertRanked"), {
      channel: "watched",
      body: "before",
      rank: 1,
    })) as string;
    const client = newClient(backend.url);
    try {
      const body = watch<string | null>(client, q("localReads:bodyOf"), { id });
      await body.next((value) => value === "before");
      await http.mutation(m("messages:edit"), { id, body: "after" });
      await body.next((value) => value === "after");
      await http.mutation(m("messages:edit"), { id, remove: true });
      await body.next((value) => value === null);
      expect(body.errors).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it("tells each signed-in caller who they are when the query asks in its isolate", async () => {
    const asked = async (name: string) => {
      const client = newHttpClient(backend.url);
      client.setAuth((await backend.issueToken({ sub: name, name, email: `${name}@example.com` })).token);
      return (await client.query(q("messages:listForViewer"), { channel: "mine" })) as { mine: boolean }[];
    };
    const ann = newHttpClient(backend.url);
    ann.setAuth((await backend.issueToken({ sub: "ann", name: "ann", email: "ann@example.com" })).token);
    await ann.mutation(m("messages:send"), { channel: "mine", body: "hello" });
    expect(await asked("ann")).toEqual([{ body: "hello", mine: true }]);
    expect(await asked("bob")).toEqual([{ body: "hello", mine: false }]);
  });
});
