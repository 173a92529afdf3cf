/**
 * Fuzz: thousands of generated sync frames and HTTP bodies at a running backend (fast-check, fixed
 * seed, so a failure replays). Each frame gets its own socket (after a valid Connect), followed by a
 * sentinel mutation: the server must either end that socket or answer the sentinel, never hang, never
 * answer 500, never stop. Afterwards a real client is still served and nothing was written.
 */
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import type { Value } from "convex/values";
import { MAX_CLIENT_MESSAGE_BYTES } from "../core/protocol.ts";
import type { RunningLocalBackend } from "../host/start.ts";
import {
  documentsWritten,
  m,
  newClient,
  newHttpClient,
  q,
  startFixtureBackend,
  watch,
} from "./test-helpers.ts";

const SEED = 20261124;
const FRAMES = 10_000;
const HTTP_BODIES = 3_000;
const CONCURRENCY = 16;
const U32_MAX = 2 ** 32 - 1;
/** The sentinel: a mutation that writes nothing, answered only once everything sent before it was handled. */
const SENTINEL = {
  type: "Mutation",
  requestId: U32_MAX,
  udfPath: "messages:failWithConvexError",
  args: [{}],
};

type Check = (value: unknown) => boolean;
type Template = { build: () => Record<string, unknown>; fields: Record<string, Check> };

const isU32: Check = (v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= U32_MAX;
const isString: Check = (v) => typeof v === "string";
const isArgs: Check = (v) =>
  Array.isArray(v) && v.length === 1 && typeof v[0] === "object" && v[0] !== null && !Array.isArray(v[0]);

/** Valid messages of every type, and for each field what a valid value is (so a broken one is not). */
const templates: Template[] = [
  {
    build: () => ({
      type: "Connect",
      sessionId: randomUUID(),
      connectionCount: 0,
      lastCloseReason: null,
      clientTs: 1,
    }),
    fields: {
      type: (v) => v === "Connect",
      sessionId: (v) => typeof v === "string" && /^[0-9a-f-]{36}$/i.test(v),
      connectionCount: isU32,
      lastCloseReason: (v) => v === null || isString(v),
      clientTs: (v) => typeof v === "number",
      maxObservedTimestamp: (v) => v === undefined,
    },
  },
  {
    build: () => ({
      type: "ModifyQuerySet",
      baseVersion: 0,
      newVersion: 1,
      modifications: [{ type: "Add", queryId: 0, udfPath: "messages:list", args: [{ channel: "fuzz" }] }],
    }),
    fields: {
      type: (v) => v === "ModifyQuerySet",
      baseVersion: (v) => v === 0,
      newVersion: isU32,
      modifications: Array.isArray,
    },
  },
  {
    build: () => ({
      type: "Add",
      queryId: 0,
      udfPath: "messages:list",
      args: [{ channel: "fuzz" }],
      journal: null,
    }),
    fields: {
      type: (v) => v === "Add",
      queryId: isU32,
      udfPath: isString,
      args: isArgs,
      journal: (v) => v === null || isString(v),
    },
  },
  {
    build: () => ({
      type: "Mutation",
      requestId: 1,
      udfPath: "messages:send",
      args: [{ channel: "fuzz", body: "x" }],
    }),
    fields: { type: (v) => v === "Mutation", requestId: isU32, udfPath: isString, args: isArgs },
  },
  {
    build: () => ({
      type: "Action",
      requestId: 1,
      udfPath: "messages:sendViaAction",
      args: [{ channel: "fuzz", body: "x" }],
    }),
    fields: { type: (v) => v === "Action", requestId: isU32, udfPath: isString, args: isArgs },
  },
  {
    build: () => ({ type: "Authenticate", tokenType: "None", baseVersion: 0 }),
    fields: {
      type: (v) => v === "Authenticate",
      tokenType: (v) => v === "None" || v === "User" || v === "Admin",
      baseVersion: isU32,
      value: (v) => v === undefined,
    },
  },
  {
    build: () => ({ type: "Event", eventType: "ClientConnect", event: {} }),
    fields: { type: (v) => v === "Event", eventType: isString },
  },
];

const anyJson = fc.jsonValue({ maxDepth: 3 });

/** A valid message with one field set to a value that does not fit it (or removed). */
const brokenField: fc.Arbitrary<string> = fc
  .record({
    template: fc.constantFrom(...templates),
    fieldIndex: fc.nat(),
    replacement: fc.oneof(anyJson, fc.constant(undefined)),
  })
  .filter(({ template, fieldIndex, replacement }) => {
    const names = Object.keys(template.fields);
    return !template.fields[names[fieldIndex % names.length]](replacement);
  })
  .map(({ template, fieldIndex, replacement }) => {
    const names = Object.keys(template.fields);
    const message = template.build();
    message[names[fieldIndex % names.length]] = replacement;
    // An Add is only ever sent inside a ModifyQuerySet.
    return JSON.stringify(
      message.type === "Add" || names.includes("queryId")
        ? { type: "ModifyQuerySet", baseVersion: 0, newVersion: 1, modifications: [message] }
        : message,
    );
  });

/** Valid messages cut short. */
const truncated = fc
  .record({ template: fc.constantFrom(...templates), at: fc.nat() })
  .map(({ template, at }) => {
    const text = JSON.stringify(template.build());
    return text.slice(0, at % text.length);
  });

/** The right fields under a type that does not exist. */
const unknownType = fc
  .record({ template: fc.constantFrom(...templates), type: fc.string({ maxLength: 20 }) })
  .filter(
    ({ type }) =>
      !["Connect", "ModifyQuerySet", "Mutation", "Action", "Authenticate", "Event"].includes(type),
  )
  .map(({ template, type }) => JSON.stringify({ ...template.build(), type }));

type Frame = { text: string } | { binary: Uint8Array };

const frameArb: fc.Arbitrary<Frame> = fc.oneof(
  { weight: 4, arbitrary: brokenField.map((text) => ({ text })) },
  { weight: 2, arbitrary: anyJson.map((value) => ({ text: JSON.stringify(value) })) },
  { weight: 1, arbitrary: fc.string({ maxLength: 200, unit: "grapheme" }).map((text) => ({ text })) },
  { weight: 1, arbitrary: truncated.map((text) => ({ text })) },
  { weight: 1, arbitrary: unknownType.map((text) => ({ text })) },
  {
    weight: 1,
    arbitrary: fc
      .oneof(
        fc.uint8Array({ maxLength: 200 }),
        fc.constantFrom(...templates).map((t) => new Uint8Array(Buffer.from(JSON.stringify(t.build())))),
      )
      .map((binary) => ({ binary })),
  },
);

type FrameOutcome = "closed" | "answered";

function syncUrl(backend: RunningLocalBackend): string {
  return `${backend.url.replace(/^http/, "ws")}/api/1.48.0/sync`;
}

/** Sends Connect, the frame and the sentinel on a fresh socket; resolves when the server has dealt with them. */
function sendFrame(url: string, frame: Frame): Promise<FrameOutcome> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const timer = setTimeout(() => {
      ws.terminate();
      reject(
        new Error(
          `no answer to ${JSON.stringify("text" in frame ? frame.text : "binary frame").slice(0, 300)}`,
        ),
      );
    }, 20_000);
    const finish = (outcome: FrameOutcome) => {
      clearTimeout(timer);
      ws.terminate();
      resolve(outcome);
    };
    ws.on("open", () => {
      ws.send(JSON.stringify(templates[0].build()));
      if ("text" in frame) ws.send(frame.text);
      else ws.send(frame.binary, { binary: true });
      ws.send(JSON.stringify(SENTINEL));
    });
    ws.on("message", (data: Buffer) => {
      const message = JSON.parse(data.toString()) as { type?: string; requestId?: number };
      if (message.type === "MutationResponse" && message.requestId === U32_MAX) finish("answered");
    });
    ws.on("close", () => finish("closed"));
    ws.on("error", () => finish("closed"));
  });
}

async function inPool<T, R>(items: T[], concurrency: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await run(items[index]);
      }
    }),
  );
  return results;
}

const functionRoutes = ["/api/query", "/api/mutation", "/api/action", "/api/function"];
const isFormat: Check = (v) => v === undefined || v === "json" || v === "convex_encoded_json";

/** A valid body for the route with one field set to a value that does not fit it (or removed). */
function brokenBody(route: string): fc.Arbitrary<string> {
  const isToken = route === "/local-auth/token";
  const valid: Record<string, unknown> = isToken
    ? { sub: "fuzz", name: "Fuzz" }
    : { path: "messages:send", format: "convex_encoded_json", args: [{ channel: "fuzz", body: "x" }] };
  const fields: Record<string, Check> = isToken
    ? { sub: isString, name: (v) => v === undefined || isString(v) }
    : { path: isString, format: isFormat, args: route === "/api/function" ? () => false : isArgs };
  return fc
    .record({
      field: fc.constantFrom(...Object.keys(fields)),
      replacement: fc.oneof(anyJson, fc.constant(undefined)),
    })
    .filter(({ field, replacement }) => !fields[field](replacement))
    .map(({ field, replacement }) => JSON.stringify({ ...valid, [field]: replacement }));
}

/** Broken bodies, random JSON, random text and bodies cut short, at every route. */
const bodyArb: fc.Arbitrary<{ route: string; body: string }> = fc
  .constantFrom(...functionRoutes, "/local-auth/token")
  .chain((route) =>
    fc.record({
      route: fc.constant(route),
      body: fc.oneof(
        { weight: 3, arbitrary: brokenBody(route) },
        { weight: 2, arbitrary: anyJson.map((value) => JSON.stringify(value)) },
        { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
        {
          weight: 1,
          arbitrary: fc
            .string({ maxLength: 100 })
            .filter((text) => !text.includes("}"))
            .map((text) => `{"path":"messages:send","args":[{"channel":"fuzz","body":${text}`),
        },
      ),
    }),
  );

describe("fuzz", () => {
  let backend: RunningLocalBackend;

  beforeAll(async () => {
    backend = await startFixtureBackend();
  });
  afterAll(async () => {
    await backend.stop();
  });

  it(
    `survives ${FRAMES.toLocaleString("en")} generated sync frames and ${HTTP_BODIES.toLocaleString("en")} HTTP bodies, writing nothing`,
    {
      timeout: 240_000,
    },
    async () => {
      const started = performance.now();
      const bystander = newClient(backend.url);
      const list = watch<Value[]>(bystander, q("messages:list"), { channel: "seeded" });
      await list.next((rows) => rows.length === 1);
      const engine = backend.core.engine();
      const countDocuments = () =>
        engine.tableNames().reduce((sum, table) => sum + engine.documentCount(table), 0);
      const documentsBefore = countDocuments();
      const writtenBefore = documentsWritten(backend);

      const frames = fc.sample(frameArb, { numRuns: FRAMES, seed: SEED });
      const outcomes = await inPool(frames, CONCURRENCY, (frame) => sendFrame(syncUrl(backend), frame));

      // One frame over the size limit: the socket alone is closed (1009) before it is buffered.
      const oversized = await new Promise<number>((resolve) => {
        const ws = new WebSocket(syncUrl(backend));
        ws.on("open", () => ws.send("x".repeat(MAX_CLIENT_MESSAGE_BYTES + 1)));
        ws.on("close", (code: number) => resolve(code));
        ws.on("error", () => undefined);
      });
      expect(oversized).toBe(1009);

      const bodies = fc.sample(bodyArb, { numRuns: HTTP_BODIES, seed: SEED });
      const statuses = await inPool(bodies, CONCURRENCY, async ({ route, body }) => {
        const response = await fetch(`${backend.url}${route}`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body,
        });
        await response.arrayBuffer();
        return response.status;
      });

      // Still serving: the subscribed bystander, a new client, the HTTP API.
      const fresh = newClient(backend.url);
      expect(await fresh.query(q("messages:list"), { channel: "seeded" })).toHaveLength(1);
      expect(await newHttpClient(backend.url).query(q("messages:count"), { channel: "fuzz" })).toBe(0);
      // Nothing was written by any of it.
      expect(documentsWritten(backend)).toBe(writtenBefore);
      expect(countDocuments()).toBe(documentsBefore);
      // And a real write still reaches the bystander.
      await fresh.mutation(m("messages:send"), { channel: "seeded", body: "after the fuzz" });
      await list.next((rows) => rows.length === 2);
      await Promise.all([fresh.close(), bystander.close()]);

      const closed = outcomes.filter((o) => o === "closed").length;
      const byStatus = new Map<number, number>();
      for (const status of statuses) byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      expect([...byStatus.keys()].filter((status) => status >= 500 && status !== 560)).toEqual([]);
      console.log(
        `fuzz: ${frames.length + 1} sync frames (${closed} ended their socket, ${frames.length - closed} answered) and ${
          statuses.length
        } HTTP bodies (${[...byStatus].map(([s, n]) => `${n}× ${s}`).join(", ")}) in ${((performance.now() - started) / 1000).toFixed(1)} s; nothing written`,
      );
    },
  );
});
