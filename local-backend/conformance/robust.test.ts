/**
 * Bad input on the sync socket and the HTTP API: the connection (or request) alone fails, with
 * Convex's own kind of answer, nothing is written, and the process and every other client carry on.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConvexClient } from "convex/browser";
import { encodeTs } from "../core/protocol.ts";
import type { RunningLocalBackend } from "../host/start.ts";
import {
  documentsWritten,
  m,
  newClient,
  openRawSync,
  q,
  startFixtureBackend,
  watch,
} from "./test-helpers.ts";

type Message = { author: string; body: string };

function connect(sessionId = randomUUID()) {
  return { type: "Connect", sessionId, connectionCount: 0, lastCloseReason: null, clientTs: Date.now() };
}

describe("bad input", () => {
  let backend: RunningLocalBackend;
  let bystander: ConvexClient;

  beforeAll(async () => {
    backend = await startFixtureBackend();
    bystander = newClient(backend.url);
  });
  afterAll(async () => {
    await bystander.close();
    await backend.stop();
  });

  /** Another client is subscribed throughout and still hears about a real write afterwards. */
  async function expectOthersCarryOn(channel: string): Promise<void> {
    const list = watch<Message[]>(bystander, q("messages:list"), { channel });
    await list.next(() => true);
    await bystander.mutation(m("messages:send"), { channel, body: "still here" });
    await list.next((rows) => rows.some((row) => row.body === "still here"));
    list.stop();
  }

  it.each([
    ["null", "null"],
    ["a number", "42"],
    ["an array", "[]"],
    ["a message with no type", "{}"],
    ["an unknown type", JSON.stringify({ type: "Explode" })],
    ["truncated JSON", JSON.stringify(connect()).slice(0, 20)],
    ["a Mutation without udfPath", JSON.stringify({ type: "Mutation", requestId: 0, args: [{}] })],
    [
      "a ModifyQuerySet with modifications: null",
      JSON.stringify({ type: "ModifyQuerySet", baseVersion: 0, newVersion: 1, modifications: null }),
    ],
    ["a Connect with a sessionId that is not one", JSON.stringify({ ...connect(), sessionId: { $: 1 } })],
    ["a maxObservedTimestamp that is not one", JSON.stringify({ ...connect(), maxObservedTimestamp: "xyz" })],
  ])("answers %s with a FatalError and closes only that socket", async (label, frame) => {
    const before = documentsWritten(backend);
    const socket = await openRawSync(backend.url);
    socket.send(frame);
    const fatal = await socket.next((message) => message.type === "FatalError");
    expect(fatal.error).toEqual(expect.stringMatching(/^Invalid message/));
    expect(await socket.closed).toBe(1011);
    expect(documentsWritten(backend)).toBe(before);
    await expectOthersCarryOn(`carry-on-${label}`);
  });

  it("refuses binary frames", async () => {
    const socket = await openRawSync(backend.url);
    socket.ws.send(Buffer.from(JSON.stringify(connect())));
    expect(await socket.next((message) => message.type === "FatalError")).toMatchObject({
      error: expect.stringMatching(/binary/) as string,
    });
    expect(await socket.closed).toBe(1011);
  });

  it("answers a session's request id after a malformed copy of it (no hanging reconnect entry)", async () => {
    const sessionId = randomUUID();
    const first = await openRawSync(backend.url);
    first.send(connect(sessionId));
    first.send({ type: "Mutation", requestId: 7, args: [{ channel: "resent", body: "x" }] });
    await first.next((message) => message.type === "FatalError");
    const second = await openRawSync(backend.url);
    second.send(connect(sessionId));
    second.send({
      type: "Mutation",
      requestId: 7,
      udfPath: "messages:send",
      args: [{ channel: "resent", body: "x" }],
    });
    expect(await second.next((message) => message.type === "MutationResponse")).toMatchObject({
      requestId: 7,
      success: true,
    });
    second.ws.close();
  });

  it("settles a mutation whose run throws, and gives a re-sent copy the same error", async () => {
    const core = backend.core;
    const original = core.call.bind(core);
    core.call = (udfPath, args, options) =>
      udfPath === "messages:send" && (args as { channel?: string }).channel === "boom"
        ? Promise.reject(new Error("engine fell over"))
        : original(udfPath, args, options);
    try {
      const sessionId = randomUUID();
      const mutation = {
        type: "Mutation",
        requestId: 3,
        udfPath: "messages:send",
        args: [{ channel: "boom", body: "x" }],
      };
      const first = await openRawSync(backend.url);
      first.send(connect(sessionId));
      first.send(mutation);
      const answer = await first.next((message) => message.type === "MutationResponse");
      expect(answer).toMatchObject({
        success: false,
        result: expect.stringMatching(/engine fell over/) as string,
      });
      first.ws.close();
      const second = await openRawSync(backend.url);
      second.send(connect(sessionId));
      second.send(mutation);
      expect(await second.next((message) => message.type === "MutationResponse")).toEqual(answer);
      second.ws.close();
    } finally {
      core.call = original;
    }
  });

  it("does not let a client's timestamp far in the future become everyone's", async () => {
    const socket = await openRawSync(backend.url);
    socket.send({ ...connect(), maxObservedTimestamp: encodeTs(2n ** 64n - 2n) });
    socket.send({
      type: "Mutation",
      requestId: 0,
      udfPath: "messages:send",
      args: [{ channel: "ts", body: "x" }],
    });
    await socket.next((message) => message.type === "MutationResponse");
    expect(backend.core.clock.current()).toBeLessThan(BigInt(Date.now() + 60_000) * 1_000_000n);
    socket.ws.close();
    await expectOthersCarryOn("after-future-ts");
  });

  it("takes the admin key on the sync socket (internal functions too) and refuses another", async () => {
    const wrong = await openRawSync(backend.url);
    wrong.send(connect());
    wrong.send({ type: "Authenticate", tokenType: "Admin", value: "livelocal-local|nope", baseVersion: 0 });
    expect(await wrong.next((message) => message.type === "AuthError")).toMatchObject({
      error: "The provided admin key was invalid for this instance",
    });
    expect(await wrong.closed).toBe(1000);

    const admin = await openRawSync(backend.url);
    admin.send(connect());
    admin.send({ type: "Authenticate", tokenType: "Admin", value: backend.adminKey, baseVersion: 0 });
    admin.send({
      type: "ModifyQuerySet",
      baseVersion: 0,
      newVersion: 1,
      modifications: [{ type: "Add", queryId: 0, udfPath: "messages:secret", args: [{}] }],
    });
    const update = await admin.next(
      (message) =>
        message.type === "Transition" &&
        (message.modifications as { type: string }[]).some(
          (modification) => modification.type === "QueryUpdated",
        ),
    );
    expect(update.modifications).toEqual([expect.objectContaining({ queryId: 0, value: "secret" })]);
    admin.ws.close();
  });

  describe("arguments that are not one object", () => {
    const cases: [string, unknown[]][] = [
      ["[null]", [null]],
      ["[[]]", [[]]],
      ['["text"]', ["text"]],
      ["[1]", [1]],
      ['[{"$integer": "AQAAAAAAAAA="}]', [{ $integer: "AQAAAAAAAAA=" }]],
    ];

    it.each(cases)("%s: a mutation gets ArgumentValidationError and writes nothing", async (_label, args) => {
      const before = documentsWritten(backend);
      const socket = await openRawSync(backend.url);
      socket.send(connect());
      socket.send({ type: "Mutation", requestId: 1, udfPath: "messages:touch", args });
      const answer = await socket.next((message) => message.type === "MutationResponse");
      expect(answer).toMatchObject({
        success: false,
        result: expect.stringMatching(
          /^\[Request ID: [0-9a-f]{16}\] Server Error\nArgumentValidationError: Expected to receive an object as the function's argument\. Instead received: /,
        ) as string,
      });
      socket.ws.close();
      const http = await fetch(`${backend.url}/api/mutation`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ path: "messages:touch", format: "convex_encoded_json", args }),
      });
      expect(http.status).toBe(560);
      expect(await http.json()).toMatchObject({
        status: "error",
        errorMessage: expect.stringMatching(
          /^\[Request ID: [0-9a-f]{16}\] Server Error\nArgumentValidationError/,
        ) as string,
      });
      expect(documentsWritten(backend)).toBe(before);
    });

    it("no argument or two: the single-object error, as Convex gives", async () => {
      const socket = await openRawSync(backend.url);
      socket.send(connect());
      socket.send({ type: "Mutation", requestId: 1, udfPath: "messages:touch", args: [] });
      socket.send({ type: "Mutation", requestId: 2, udfPath: "messages:touch", args: [{}, {}] });
      for (const requestId of [1, 2]) {
        expect(
          await socket.next(
            (message) => message.type === "MutationResponse" && message.requestId === requestId,
          ),
        ).toMatchObject({
          success: false,
          result: expect.stringMatching(
            /Expected to receive a single object as the function's argument/,
          ) as string,
        });
      }
      socket.ws.close();
    });

    it("a subscription with such arguments fails on its own; the socket stays open", async () => {
      const socket = await openRawSync(backend.url);
      socket.send(connect());
      socket.send({
        type: "ModifyQuerySet",
        baseVersion: 0,
        newVersion: 1,
        modifications: [
          { type: "Add", queryId: 0, udfPath: "messages:whoami", args: [null] },
          { type: "Add", queryId: 1, udfPath: "messages:whoami", args: [{}] },
        ],
      });
      const transition = await socket.next((message) => message.type === "Transition");
      expect(transition.modifications).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            type: "QueryFailed",
            queryId: 0,
            errorMessage: expect.stringMatching(
              /^\[Request ID: [0-9a-f]{16}\] Server Error\nArgumentValidationError/,
            ) as string,
          }),
          expect.objectContaining({ type: "QueryUpdated", queryId: 1, value: null }),
        ]),
      );
      expect(socket.ws.readyState).toBe(socket.ws.OPEN);
      socket.ws.close();
    });
  });

  describe("HTTP bodies", () => {
    it.each([
      ["not JSON", "{", /not JSON/],
      ["JSON null", "null", /request body/],
      ["an array", "[]", /request body/],
      ["no path", JSON.stringify({ args: [{}] }), /`path`/],
      ["a path that is a number", JSON.stringify({ path: 1, args: [{}] }), /`path`/],
      ["args that are not an array", JSON.stringify({ path: "messages:touch", args: null }), /`args`/],
      [
        "an unknown format",
        JSON.stringify({ path: "messages:touch", args: [{}], format: "xml" }),
        /`format`/,
      ],
    ])("%s: 400 with a sentence, nothing written", async (_label, body, message) => {
      const before = documentsWritten(backend);
      for (const route of ["/api/query", "/api/mutation", "/api/action"]) {
        const response = await fetch(`${backend.url}${route}`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body,
        });
        expect(response.status, route).toBe(400);
        expect(await response.json()).toMatchObject({
          code: "BadJsonBody",
          message: expect.stringMatching(message) as string,
        });
      }
      expect(documentsWritten(backend)).toBe(before);
    });

    it("refuses a dev-token request of the wrong shape with 400", async () => {
      for (const body of [
        "null",
        "[]",
        JSON.stringify({ sub: 5 }),
        JSON.stringify({ sub: "a", name: { x: 1 } }),
        JSON.stringify({ sub: "x".repeat(300) }),
      ]) {
        const response = await fetch(`${backend.url}/local-auth/token`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body,
        });
        expect(response.status, body).toBe(400);
        expect(await response.json()).not.toHaveProperty("token");
      }
    });

    it("answers a request line whose target does not parse with 400", async () => {
      const { connect: netConnect } = await import("node:net");
      const { port } = new URL(backend.url);
      const reply = await new Promise<string>((resolve, reject) => {
        const socket = netConnect(Number(port), "127.0.0.1", () => {
          socket.write(`GET http://[ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
        });
        let text = "";
        socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
        socket.on("end", () => resolve(text));
        socket.on("error", reject);
      });
      expect(reply).toMatch(/^HTTP\/1\.1 400/);
      await expectOthersCarryOn("after-bad-target");
    });
  });
});
