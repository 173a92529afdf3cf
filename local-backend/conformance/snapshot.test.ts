/**
 * The pieces under `npx convex export|import|logs`: Convex's id format, its lossless export JSON, an
 * import of a Convex deployment's export (new local ids, references rewritten) and the log ring.
 */
import { randomBytes } from "node:crypto";
import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Value } from "convex/values";
import {
  convexIdForLocal,
  decodeConvexId,
  encodeConvexId,
  localId,
  localIdParts,
  localPartsOf,
} from "../values/convex-ids.ts";
import { FunctionLogs } from "../cli/function-logs.ts";
import { tableFromId } from "../core/paths.ts";
import { exportJson, parseExportJson } from "../values/export-json.ts";
import { STORAGE_TABLE_NUMBER } from "../cli/snapshot-format.ts";
import { parseImport } from "../cli/snapshot-parse.ts";
import { performImport } from "../cli/snapshot-import.ts";
import type { RunningLocalBackend } from "../host/start.ts";
import { a, newHttpClient, q, removeDir, startFixtureBackend, tempDataDir } from "./test-helpers.ts";

describe("Convex ids", () => {
  it("encode and decode as Convex's do", () => {
    // Convex's own stability vector (table 1017, internal id bytes 251, 251², …).
    const internalId = new Uint8Array(16);
    internalId[0] = 251;
    for (let i = 1; i < 16; i++) internalId[i] = (internalId[i - 1] * 251) & 0xff;
    expect(encodeConvexId({ tableNumber: 1017, internalId })).toBe("z43zp6c3e75gkmz1kfwj6mbbx5sw281h");
    const decoded = decodeConvexId("z43zp6c3e75gkmz1kfwj6mbbx5sw281h");
    expect(decoded?.tableNumber).toBe(1017);
    expect(Buffer.from(decoded!.internalId)).toEqual(Buffer.from(internalId));
    // Storage ids of Convex deployments are in table 540.
    expect(decodeConvexId("kg26ct6gwrwstmp70xgkk5e3xs7gyp01")?.tableNumber).toBe(STORAGE_TABLE_NUMBER);
    for (const text of [
      "",
      "hello",
      "000000000000000000010001messages",
      "z43zp6c3e75gkmz1kfwj6mbbx5sw281j",
    ]) {
      expect(decodeConvexId(text)).toBeNull();
    }
  });

  it("carry a local id there and back", () => {
    const parts = { counter: 10042n, random: 0xfedcba9876543210n };
    const local = localId(parts, "messages");
    expect(local).toBe("000000000001004218364758544493064720messages");
    expect(localIdParts(local, "messages")).toEqual(parts);
    const decoded = decodeConvexId(convexIdForLocal(parts, 10001))!;
    expect(decoded.tableNumber).toBe(10001);
    expect(localPartsOf(decoded)).toEqual(parts);
    // A Convex deployment's own id is not taken for a local one.
    const foreign = randomBytes(16);
    foreign[0] = 0;
    expect(localPartsOf({ tableNumber: 10001, internalId: foreign })).toBeNull();
  });

  it("carry an id made before ids had a random part there and back", () => {
    const parts = { counter: 10042n, random: null };
    expect(localId(parts, "messages")).toBe("000000000000000000010042messages");
    expect(localIdParts("000000000000000000010042messages", "messages")).toEqual(parts);
    expect(localPartsOf(decodeConvexId(convexIdForLocal(parts, 10001))!)).toEqual(parts);
  });
});

describe("lossless export JSON", () => {
  it("writes integers as int64 and every other number with a dot, and reads them back", () => {
    expect(exportJson(1)).toBe("1.0");
    expect(exportJson(-0)).toBe("-0.0");
    expect(exportJson(1.5e300)).toBe("1.5e+300");
    expect(exportJson(5n)).toBe("5");
    const value: Value = {
      int: -9007199254740993n,
      float: 2,
      nan: NaN,
      inf: -Infinity,
      bytes: new Uint8Array([1, 2, 3]).buffer,
      list: [1.25, 'quote " and \\ and \u2028', null, true, { nested: 0n }],
      empty: {},
    };
    const text = exportJson(value);
    const back = parseExportJson(text) as Record<string, Value>;
    expect(back.int).toBe(-9007199254740993n);
    expect(back.float).toBe(2);
    expect(back.nan).toBeNaN();
    expect(back.inf).toBe(-Infinity);
    expect(new Uint8Array(back.bytes as ArrayBuffer)).toEqual(new Uint8Array([1, 2, 3]));
    expect(back.list).toEqual([1.25, 'quote " and \\ and \u2028', null, true, { nested: 0n }]);
    expect(back.empty).toEqual({});
    expect(() => parseExportJson('{"a":1} x')).toThrow(/Unexpected text/);
  });
});

describe("importing a Convex deployment's export", { timeout: 60_000 }, () => {
  let backend: RunningLocalBackend;
  const dataDir = tempDataDir();

  beforeAll(async () => {
    backend = await startFixtureBackend({ dataDir, seed: false });
  });
  afterAll(async () => {
    await backend.stop();
    removeDir(dataDir);
  });

  it("gives its ids local ones and rewrites every reference to them", async () => {
    const convexId = (table: number) => encodeConvexId({ tableNumber: table, internalId: randomBytes(16) });
    const [first, second, file] = [convexId(10001), convexId(10001), convexId(STORAGE_TABLE_NUMBER)];
    const lines = [
      { _id: first, _creationTime: 1700000000000.5, channel: "moved", author: "convex", body: "hello" },
      { _id: second, _creationTime: 1700000000001.5, channel: "moved", author: "convex", body: first },
      {
        _id: convexId(10001),
        _creationTime: 1700000000002.5,
        channel: "moved",
        author: "convex",
        body: file,
      },
    ];
    const encode = (text: string) => new TextEncoder().encode(text);
    const zip = zipSync({
      "_tables/documents.jsonl": encode('{"name":"messages","id":10001}\n'),
      "messages/documents.jsonl": encode(lines.map((line) => `${exportJson(line)}\n`).join("")),
      "messages/generated_schema.jsonl": encode('"uniform"\n'),
      "_storage/documents.jsonl": encode(
        `${JSON.stringify({ _id: file, _creationTime: 1699999999999.5, size: 5, contentType: "text/plain" })}\n`,
      ),
      [`_storage/${file}.txt`]: encode("bytes"),
    });
    const engine = backend.core.engine();
    const parsed = await parseImport(zip, "zip", null);
    expect(await performImport(engine, parsed, "requireEmpty")).toMatchObject({ written: 3 });

    const client = newHttpClient(backend.url);
    const rows = (await client.query(q("messages:list"), { channel: "moved" })) as { body: string }[];
    expect(rows).toHaveLength(3);
    const stored = engine.runner.pageOfTable("", "messages", "asc", null, 10) as {
      page: { _id: string; _creationTime: number; body: string }[];
    };
    const [one, two, three] = stored.page;
    expect(tableFromId(one._id)).toBe("messages");
    expect(one._creationTime).toBe(1700000000000.5);
    expect(two.body).toBe(one._id);
    expect(tableFromId(three.body)).toBe("_storage");
    expect(await client.action(a("files:read"), { id: three.body })).toBe("bytes");
  });
});

describe("the function log ring", () => {
  const entry = (identifier: string) => ({
    udfType: "Query" as const,
    identifier,
    logLines: [`[LOG] ${identifier}`],
    executionTimeMs: 1,
  });

  it("keeps the latest entries, with cursors that only grow", () => {
    const logs = new FunctionLogs(3);
    for (const name of ["a", "b", "c", "d", "e"]) logs.record(entry(name));
    const { entries, newCursor } = logs.since(0);
    expect(entries.map((e) => e.identifier)).toEqual(["c", "d", "e"]);
    expect(logs.since(newCursor).entries).toEqual([]);
    const timestamps = entries.map((e) => e.timestamp);
    expect([...timestamps].sort((x, y) => x - y)).toEqual(timestamps);
    expect(new Set(timestamps).size).toBe(3);
  });

  it("answers a long poll as soon as something new is kept, or empty on time out or close", async () => {
    const logs = new FunctionLogs(100, 50);
    const first = await logs.poll(0);
    expect(first.entries).toEqual([]);
    expect(first.newCursor).toBeGreaterThan(0); // else the CLI would poll again at once, forever
    const waiting = logs.poll(first.newCursor);
    logs.record(entry("late"));
    const answered = await waiting;
    expect(answered.entries.map((e) => e.identifier)).toEqual(["late"]);
    expect(await logs.poll(answered.newCursor)).toEqual({ entries: [], newCursor: answered.newCursor });
    const closing = logs.poll(answered.newCursor);
    logs.close();
    expect((await closing).entries).toEqual([]);
  });
});
