/**
 * The error text a client sees, as Convex writes it: `[Request ID: <16 hex>] Server Error`, then
 * `Uncaught <the thrown object's name>: …` and the frames of the function's own code
 * (`at <anonymous> (../convex/failing.ts:L:C)`); an error from a nested call or a component wrapped by its
 * caller's, a blank line between their frames; "Could not find public function" in the words of
 * Convex's tests; an HTTP action's failure as 500 JSON. Through ConvexHttpClient, ConvexClient (the sync
 * socket) and fetch. Fixture: test-fixture/errors/ (its functions, and a component in `component/`).
 */
import path from "node:path";
import { ConvexError, type Value } from "convex/values";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningLocalBackend } from "../host/start.ts";
import { a, clientPool, m, newHttpClient, q, startFixtureBackend } from "./test-helpers.ts";

const functionsDir = path.join(import.meta.dirname, "test-fixture", "errors", "convex");

/**
 * What a client's error message must be: Convex's request-id line, `text` (`NUM` for any line or column
 * number) and its last line break; a sync client may add its own `[CONVEX Q(…)] ` and `Called by client`.
 */
function convexText(text: string): RegExp {
  const body = text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replaceAll("NUM", "\\d+");
  return new RegExp(
    `^(\\[CONVEX [QMA]\\([\\w:/]+\\)\\] )?\\[Request ID: [0-9a-f]{16}\\] Server Error\\n${body}\\n(\\n  Called by client)?$`,
  );
}

type Kind = "query" | "mutation" | "action";
type Case = { kind: Kind; path: string; text: string; data?: Value };

const BOOM = { data: "Boom boom bop" };
const CASES: Case[] = [
  {
    kind: "query",
    path: "failing:queryConvexError",
    text: "Uncaught ConvexError: Boom boom bop\n    at <anonymous> (../convex/failing.ts:NUM:NUM)",
    ...BOOM,
  },
  {
    kind: "query",
    path: "failing:queryError",
    text: "Uncaught Error: Normal error\n    at <anonymous> (../convex/failing.ts:NUM:NUM)",
  },
  {
    kind: "query",
    path: "failing:subclassError",
    text: 'Uncaught ShopClosedError: {"message":"The shop is closed","code":"42n"}\n    at <anonymous> (../convex/failing.ts:NUM:NUM)',
    data: { message: "The shop is closed", code: 42n },
  },
  {
    kind: "query",
    path: "nested/deep:named",
    text: "Uncaught TypeError: Deep down\n    at handler (../../convex/nested/deep.ts:NUM:NUM)",
  },
  {
    kind: "mutation",
    path: "failing:mutationConvexError",
    text: 'Uncaught ConvexError: {"message":"Boom boom bop","code":"123n"}\n    at <anonymous> (../convex/failing.ts:NUM:NUM)',
    data: { message: "Boom boom bop", code: 123n },
  },
  {
    kind: "action",
    path: "failing:actionConvexError",
    text: "Uncaught ConvexError: Boom boom bop\n    at <anonymous> (../convex/failing.ts:NUM:NUM)",
    ...BOOM,
  },
  {
    kind: "action",
    path: "failing:actionCallingQuery",
    text: [
      "Uncaught ConvexError: Uncaught ConvexError: Boom boom bop",
      "    at <anonymous> (../convex/failing.ts:NUM:NUM)",
      "",
      "    at async <anonymous> (../convex/failing.ts:NUM:NUM)",
    ].join("\n"),
    ...BOOM,
  },
  {
    kind: "action",
    path: "failing:actionCallingSubclass",
    text: [
      'Uncaught ConvexError: Uncaught ShopClosedError: {"message":"The shop is closed","code":"42n"}',
      "    at <anonymous> (../convex/failing.ts:NUM:NUM)",
      "",
      "    at async <anonymous> (../convex/failing.ts:NUM:NUM)",
    ].join("\n"),
    data: { message: "The shop is closed", code: 42n },
  },
  {
    kind: "action",
    path: "failing:actionCallingMutation",
    text: [
      'Uncaught ConvexError: Uncaught ConvexError: {"message":"Boom boom bop","code":"123n"}',
      "    at <anonymous> (../convex/failing.ts:NUM:NUM)",
      "",
      "    at async <anonymous> (../convex/failing.ts:NUM:NUM)",
    ].join("\n"),
    data: { message: "Boom boom bop", code: 123n },
  },
  {
    kind: "action",
    path: "failing:actionCallingAction",
    text: [
      "Uncaught ConvexError: Uncaught ConvexError: Boom boom bop",
      "    at <anonymous> (../convex/failing.ts:NUM:NUM)",
      "",
      "    at async <anonymous> (../convex/failing.ts:NUM:NUM)",
    ].join("\n"),
    ...BOOM,
  },
  {
    kind: "query",
    path: "failing:queryCallingComponent",
    text: [
      "Uncaught ConvexError: Uncaught ConvexError: Boom boom bop",
      "    at <anonymous> (../component/errors.ts:NUM:NUM)",
      "",
      "    at async <anonymous> (../convex/failing.ts:NUM:NUM)",
    ].join("\n"),
    ...BOOM,
  },
  {
    kind: "query",
    path: "failing:queryCallingComponentError",
    text: [
      "Uncaught Error: Uncaught Error: component kaboom",
      "    at <anonymous> (../component/errors.ts:NUM:NUM)",
      "",
      "    at async <anonymous> (../convex/failing.ts:NUM:NUM)",
    ].join("\n"),
  },
  {
    kind: "action",
    path: "failing:actionCallingComponent",
    text: [
      "Uncaught ConvexError: Uncaught ConvexError: Boom boom bop",
      "    at <anonymous> (../component/errors.ts:NUM:NUM)",
      "",
      "    at async <anonymous> (../convex/failing.ts:NUM:NUM)",
    ].join("\n"),
    ...BOOM,
  },
  {
    kind: "mutation",
    path: "failing:hidden",
    text: "Could not find public function for 'failing:hidden'. Did you forget to run `npx convex dev`?",
  },
];

describe("error texts a client sees", { timeout: 60_000 }, () => {
  let backend: RunningLocalBackend;
  const pool = clientPool(() => backend.url);

  beforeAll(async () => {
    backend = await startFixtureBackend({ functionsDir });
  });
  afterAll(async () => {
    await pool.closeAll();
    await backend?.stop();
  });

  function expectError(error: unknown, { text, data }: Case): void {
    expect(error).toBeInstanceOf(Error);
    const { message, name } = error as Error;
    expect(message).toMatch(convexText(text));
    if (data === undefined) {
      expect(error).not.toBeInstanceOf(ConvexError);
      expect(name).toBe("Error");
      expect((error as { data?: unknown }).data).toBeUndefined();
    } else {
      expect(error).toBeInstanceOf(ConvexError);
      expect(name).toBe("ConvexError");
      expect((error as ConvexError<Value>).data).toEqual(data);
    }
  }

  const refs = { query: q, mutation: m, action: a };

  it.each(CASES)("ConvexHttpClient: $path", async (testCase) => {
    const http = newHttpClient(backend.url);
    const call = http[testCase.kind].bind(http) as (ref: unknown, args: object) => Promise<unknown>;
    expectError(await call(refs[testCase.kind](testCase.path), {}).catch((e: unknown) => e), testCase);
  });

  it.each(CASES)("ConvexClient (sync socket): $path", async (testCase) => {
    const client = pool.client();
    const call = client[testCase.kind].bind(client) as (ref: unknown, args: object) => Promise<unknown>;
    expectError(await call(refs[testCase.kind](testCase.path), {}).catch((e: unknown) => e), testCase);
  });

  it("keeps the bare text for the function's logs and the CLI (no request id)", async () => {
    const outcome = await backend.core.call("failing:queryError", {}, { kind: "query" });
    expect(!outcome.success && outcome.errorMessage).toMatch(
      /^Uncaught Error: Normal error\n {4}at <anonymous> \(\.\.\/convex\/failing\.ts:\d+:\d+\)$/,
    );
  });

  it("tells a subscription its query failed once, not again each time a re-run fails alike", async () => {
    const client = pool.client();
    const failures: string[] = [];
    client.onUpdate(
      q("failing:failsAfterReading"),
      {},
      () => {},
      (error) => failures.push(error.message),
    );
    const counts: number[] = [];
    const noted = new Promise<void>((resolve) =>
      client.onUpdate(q("failing:countNotes"), {}, (count) => {
        counts.push(count as number);
        if (count === 2) resolve();
      }),
    );
    await client.mutation(m("failing:addNote"), {});
    await client.mutation(m("failing:addNote"), {});
    // Both queries read `notes`: a second failure would have come in the same Transition as the count.
    await noted;
    expect(counts.at(-1)).toBe(2);
    expect(failures).toHaveLength(2);
    expect(failures[0]).toMatch(
      convexText(
        "Uncaught ConvexError: Cannot list no notes\n    at <anonymous> (../convex/failing.ts:NUM:NUM)",
      ),
    );
    expect(failures[1]).toMatch(/Cannot list some notes/);
  });

  it("answers an HTTP action that throws a ConvexError with 500 JSON: code, trace and data", async () => {
    const response = await fetch(`${backend.siteUrl}/convex-error`);
    expect(response.status).toBe(500);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await response.json()) as { code: string; trace: string; data: unknown };
    expect(body.code).toMatch(
      /^\[Request ID: [0-9a-f]{16}\] Server Error: Uncaught ConvexError: \{"message":"Hello world!","code":"7n"\}$/,
    );
    expect(body.trace).toMatch(
      /^Uncaught ConvexError: \{"message":"Hello world!","code":"7n"\}\n {4}at <anonymous> \(\.\.\/convex\/http\.ts:\d+:\d+\)\n$/,
    );
    // Convex's JSON for values: a bigint as `$integer`, its 8 bytes little-endian in base64.
    expect(body.data).toEqual({ message: "Hello world!", code: { $integer: "BwAAAAAAAAA=" } });
  });

  it("answers an HTTP action that throws an Error with 500 JSON without data", async () => {
    const response = await fetch(`${backend.siteUrl}/error`);
    expect(response.status).toBe(500);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body.code).toMatch(/^\[Request ID: [0-9a-f]{16}\] Server Error: Uncaught Error: ErrMsg$/);
    expect(body.trace).toMatch(
      /^Uncaught Error: ErrMsg\n {4}at <anonymous> \(\.\.\/convex\/http\.ts:\d+:\d+\)\n$/,
    );
    expect(body).not.toHaveProperty("data");
  });
});
