/**
 * One connection or request trying to take the backend for itself, each beside a control client that
 * must keep getting answers while the flood is still under way: a sync frame asking for 20,000 queries,
 * a full query set, a burst of mutations, 30 MB function-call bodies and a large import (decisions 057
 * and 070).
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_PENDING_OPERATIONS, MAX_QUERY_SET_SIZE } from "../core/protocol.ts";
import type { RunningLocalBackend } from "../host/start.ts";
import {
  clientPool,
  m,
  newHttpClient,
  openRawSync,
  q,
  removeDir,
  startFixtureBackend,
  tempDataDir,
  uploadImport,
  watch,
  type RawSyncSocket,
} from "./test-helpers.ts";

const MB = 1024 * 1024;

function connect(socket: RawSyncSocket): void {
  socket.send({
    type: "Connect",
    sessionId: crypto.randomUUID(),
    connectionCount: 0,
    lastCloseReason: null,
  });
}

/** `count` subscriptions to `messages:list`, each on its own channel (so none shares another's run). */
function addQueries(count: number, prefix: string) {
  return {
    type: "ModifyQuerySet",
    baseVersion: 0,
    newVersion: 1,
    modifications: Array.from({ length: count }, (_, i) => ({
      type: "Add",
      queryId: i,
      udfPath: "messages:list",
      args: [{ channel: `${prefix}-${i}` }],
    })),
  };
}

/** Lets the event loop turn until `check` holds (the backend runs in this process). */
async function untilTurn(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

type Posted = { status: number; body: string; bytesSentWhenAnswered: number; bytesToSend: number };

/**
 * POSTs `total` bytes of JSON-ish filler to `path`, in 64 KiB writes, with a Content-Length or in
 * chunks; records how much had been handed to the socket when the answer came.
 */
function postLargeBody(url: string, path: string, total: number, chunked: boolean): Promise<Posted> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = -1;
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        method: "POST",
        path,
        headers: {
          "Content-Type": "application/json",
          ...(chunked ? {} : { "Content-Length": String(total) }),
        },
      },
      (res) => {
        answered = sent;
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString()));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body, bytesSentWhenAnswered: answered, bytesToSend: total }),
        );
      },
    );
    // Once refused, the rest of the body is not wanted: the server may close while it is being sent.
    req.on("error", (e) => {
      if (answered < 0) reject(e);
    });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const write = () => {
      while (sent < total && answered < 0) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once("drain", write);
          return;
        }
      }
      req.end();
    };
    write();
  });
}

describe("a flood beside a control client", { timeout: 120_000 }, () => {
  let backend: RunningLocalBackend;
  const pool = clientPool(() => backend.url);
  const listRuns = () => backend.stats().functions["messages:list"]?.calls ?? 0;

  beforeAll(async () => {
    backend = await startFixtureBackend();
    // Loaded once, so the flood's first query does not pay for it.
    await newHttpClient(backend.url).query(q("messages:list"), { channel: "warm-up" });
  });
  afterAll(async () => {
    await pool.closeAll();
    await backend.stop();
  });

  it("refuses a sync frame asking for 20,000 queries, runs none of them, and keeps serving the control client", async () => {
    const control = pool.client();
    const board = watch<{ body: string }[]>(control, q("messages:list"), { channel: "control-20k" });
    await board.next((rows) => rows.length === 0);
    const runsBefore = listRuns();

    const flood = await openRawSync(backend.url);
    connect(flood);
    flood.send(addQueries(20_000, "flood-20k"));
    const fatal = await flood.next((message) => message.type === "FatalError");
    expect(fatal.error).toMatch(/^TooManyQuerySetModifications: .*at most 2,000 .*20,000/);
    expect(await flood.closed).toBe(1011);

    await control.mutation(m("messages:send"), { channel: "control-20k", body: "still here" });
    await board.next((rows) => rows.some((row) => row.body === "still here"));
    // The control's own re-run is the only run of `messages:list` since the flood arrived.
    expect(listRuns() - runsBefore).toBeLessThanOrEqual(1);
  });

  it(`refuses a query set of more than ${MAX_QUERY_SET_SIZE} queries on one connection`, async () => {
    const flood = await openRawSync(backend.url);
    connect(flood);
    const runsBefore = listRuns();
    flood.send(addQueries(MAX_QUERY_SET_SIZE + 1, "flood-over"));
    const fatal = await flood.next((message) => message.type === "FatalError");
    expect(fatal.error).toBe(
      `TooManyQueries: A connection may subscribe to at most 1,000 queries at once; this ModifyQuerySet would make it 1,001.`,
    );
    expect(await flood.closed).toBe(1011);
    expect(listRuns()).toBe(runsBefore);
  });

  it("runs a full query set a slice at a time: a control read is answered while the set is still running", async () => {
    const flood = await openRawSync(backend.url);
    connect(flood);
    const runsBefore = listRuns();
    flood.send(addQueries(MAX_QUERY_SET_SIZE, "flood-full"));
    // The set has started running (the backend shares this test's event loop, so this also shows
    // it gives the loop back while it runs).
    await untilTurn(() => listRuns() > runsBefore);
    const floodAnsweredFirst = await newHttpClient(backend.url)
      .query(q("messages:count"), { channel: "control-full" })
      .then(() => flood.messages.some((message) => message.type === "Transition"));
    expect(floodAnsweredFirst).toBe(false);
    const transition = await flood.next((message) => message.type === "Transition", 60_000);
    expect(transition.modifications).toHaveLength(MAX_QUERY_SET_SIZE);
    expect(listRuns() - runsBefore).toBeGreaterThanOrEqual(MAX_QUERY_SET_SIZE);
    flood.ws.close();
  });

  it(`closes a connection with more than ${MAX_PENDING_OPERATIONS} mutations waiting, as Convex does (1013, try again later)`, async () => {
    const flood = await openRawSync(backend.url);
    connect(flood);
    const closeReason = new Promise<string>((resolve) =>
      flood.ws.once("close", (_code: number, reason: Buffer) => resolve(reason.toString())),
    );
    for (let requestId = 0; requestId < 2 * MAX_PENDING_OPERATIONS; requestId++) {
      flood.send({
        type: "Mutation",
        requestId,
        udfPath: "messages:send",
        args: [{ channel: "flood-mutations", body: String(requestId) }],
      });
    }
    expect(await flood.closed).toBe(1013);
    expect(await closeReason).toBe("TooManyConcurrentMutations");
    const count = await newHttpClient(backend.url).query(q("messages:count"), { channel: "flood-mutations" });
    expect(count).toBeLessThanOrEqual(MAX_PENDING_OPERATIONS);
  });

  it.each([
    ["with its length declared", false],
    ["in chunks", true],
  ])(
    "refuses a 30 MB function-call body sent %s with 413 before it has all been sent",
    async (_name, chunked) => {
      const answer = await postLargeBody(backend.url, "/api/query", 30 * MB, chunked);
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toEqual({
        code: "PayloadTooLarge",
        message: "The request body is larger than this endpoint accepts (16,779,216 bytes).",
      });
      // Not read to the end: refused at once (declared) or soon after the 16 MiB limit (chunked).
      expect(answer.bytesSentWhenAnswered).toBeLessThan(answer.bytesToSend);
    },
  );

  it("answers a control client while eight 30 MB bodies are being refused", async () => {
    const floods = Array.from({ length: 8 }, () => postLargeBody(backend.url, "/api/query", 30 * MB, true));
    let floodsAnswered = 0;
    for (const flood of floods) void flood.then(() => (floodsAnswered += 1));
    const control = newHttpClient(backend.url);
    const answered = await control
      .query(q("messages:count"), { channel: "control-bodies" })
      .then(() => floodsAnswered);
    expect(answered).toBeLessThan(8);
    for (const flood of await Promise.all(floods)) expect(flood.status).toBe(413);
  });

  it("parses a large import between turns of the event loop: a control read sent with finish_upload is answered while it is parsed", async () => {
    const admin = { Authorization: `Convex ${backend.adminKey}` };
    const post = async (path: string, body: string) => {
      const response = await fetch(`${backend.url}${path}`, { method: "POST", headers: admin, body });
      expect(response.status).toBe(200);
      const text = await response.text();
      return text === "" ? null : (JSON.parse(text) as unknown);
    };
    const rows = Array.from({ length: 100_000 }, (_, i) =>
      JSON.stringify({ channel: "imported", author: "import", body: `row ${i}` }),
    );
    const importId = await uploadImport(post, rows);
    const importState = () => {
      const imports = backend.core.cli.systemQuery("_system/cli/queryImport:list")!.run({}) as {
        _id: string;
        state: { state: string };
      }[];
      return imports.find((record) => record._id === importId)?.state.state;
    };
    const stateWhenControlAnswered = await newHttpClient(backend.url)
      .query(q("messages:count"), { channel: "control-import" })
      .then(importState);
    expect(stateWhenControlAnswered).toBe("uploaded");
    await untilTurn(() => importState() === "waiting_for_confirmation");
    await post("/api/cancel_import", JSON.stringify({ importId }));
  });

  it("refuses an HTTP action body over Convex's 20 MiB", async () => {
    const answer = await postLargeBody(backend.siteUrl, "/messages", 21 * MB, false);
    expect(answer.status).toBe(413);
    expect(answer.body).toBe("The request body is larger than this endpoint accepts (20 MiB).\n");
  });
});

describe("a large import's write (decision 070)", () => {
  let backend: RunningLocalBackend;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = tempDataDir();
    backend = await startFixtureBackend({ dataDir });
  });
  afterAll(async () => {
    await backend.stop();
    removeDir(dataDir);
  });

  it("answers reads from the database as it was while 100,000 rows are written, holds writes until the commit, and then shows all of it", async () => {
    const admin = { Authorization: `Convex ${backend.adminKey}` };
    const post = async (path: string, body: string) => {
      const response = await fetch(`${backend.url}${path}`, { method: "POST", headers: admin, body });
      expect(response.status).toBe(200);
      const text = await response.text();
      return text === "" ? null : (JSON.parse(text) as unknown);
    };
    // The first row is alone on its channel: a read of it says whether the import is visible.
    const rows = Array.from({ length: 100_000 }, (_, i) =>
      JSON.stringify({
        channel: i === 0 ? "imported-first" : "imported",
        author: "import",
        body: `row ${i}`,
      }),
    );
    const importId = await uploadImport(post, rows);
    const importState = () => {
      const imports = backend.core.cli.systemQuery("_system/cli/queryImport:list")!.run({}) as {
        _id: string;
        state: { state: string };
      }[];
      return imports.find((record) => record._id === importId)?.state.state;
    };
    await untilTurn(() => importState() === "waiting_for_confirmation");

    const control = newHttpClient(backend.url);
    const performed = post("/api/perform_import", JSON.stringify({ importId }));
    await untilTurn(() => importState() === "in_progress");
    const written = control
      .mutation(m("messages:send"), { channel: "imported-first", body: "during" })
      .then(importState);
    // Reads keep being answered while the import writes, from the database as it was before it.
    const duringImport: unknown[] = [];
    for (;;) {
      const seen = await control.query(q("messages:count"), { channel: "imported-first" });
      if (importState() !== "in_progress") break;
      duringImport.push(seen);
    }
    await performed;
    expect(importState()).toBe("completed");
    expect(duringImport.length).toBeGreaterThan(1);
    expect(new Set(duringImport)).toEqual(new Set([0]));
    // The write waited for the import's commit, and came after it.
    expect(await written).toBe("completed");
    expect(await control.query(q("messages:list"), { channel: "imported-first" })).toEqual([
      { author: "import", body: "row 0" },
      { author: "anonymous", body: "during" },
    ]);
  }, 120_000);
});
