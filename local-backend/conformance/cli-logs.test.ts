/**
 * `npx convex logs` (the real CLI from node_modules) against the embedded backend: it shows the log
 * lines of recent executions (`--history`) and then new ones as they happen, errors included; the
 * endpoint it polls answers the admin key only.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningLocalBackend } from "../host/start.ts";
import {
  convexCliEntry,
  convexCliEnv,
  eventually,
  m,
  newHttpClient,
  q,
  startFixtureBackend,
} from "./test-helpers.ts";

describe("npx convex logs", { timeout: 60_000 }, () => {
  let backend: RunningLocalBackend;
  let logs: ChildProcess | null = null;
  let output = "";

  beforeAll(async () => {
    backend = await startFixtureBackend();
    // Before the CLI starts: shown with --history.
    await newHttpClient(backend.url).mutation(m("messages:send"), {
      channel: "logs",
      body: "before watching",
    });
  });
  afterAll(async () => {
    logs?.kill();
    await backend.stop();
  });

  it("streams function log lines as Convex does", async () => {
    logs = spawn(process.execPath, [convexCliEntry, "logs", "--history", "20", "--success"], {
      cwd: path.join(import.meta.dirname, "..", ".."),
      env: convexCliEnv(backend),
      stdio: ["ignore", "pipe", "pipe"],
    });
    logs.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    logs.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));

    // The CLI prints an execution's lines as they come (in more than one chunk): wait for the last.
    const executed = /\[CONVEX M\(messages:send\)\] Function executed in \d+ ms/;
    await eventually(() => executed.test(output), 20_000);
    expect(output).toMatch(/\[CONVEX M\(messages:send\)\] \[INFO\] sending before watching/);

    // New executions while it watches: a query's log line, a failing query, an HTTP action.
    const client = newHttpClient(backend.url);
    await client.query(q("messages:list"), { channel: "watched-channel" });
    await expect(client.query(q("messages:queryThrows"), {})).rejects.toThrow();
    await fetch(`${backend.siteUrl}/hello`);
    await eventually(
      () => output.includes("listing watched-channel") && output.includes("query exploded"),
      20_000,
    );
    expect(output).toMatch(/\[CONVEX Q\(messages:list\)\] \[LOG\] listing watched-channel/);
    expect(output).toMatch(/\[CONVEX Q\(messages:queryThrows\)\] Uncaught Error: query exploded/);
  });

  it("answers the admin key only, with Convex's codes", async () => {
    const url = `${backend.url}/api/stream_function_logs?cursor=0`;
    const none = await fetch(url);
    expect(none.status).toBe(403);
    expect(await none.json()).toMatchObject({ code: "BadDeployKey" });
    const wrong = await fetch(url, {
      headers: { Authorization: `Convex livelocal-local|${"0".repeat(64)}` },
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({
      code: "BadAdminKey",
      message: "The provided admin key was invalid for this instance",
    });
    const admin = await fetch(url, { headers: { Authorization: `Convex ${backend.adminKey}` } });
    const body = (await admin.json()) as {
      entries: { identifier: string; udfType: string }[];
      newCursor: number;
    };
    expect(body.newCursor).toBeGreaterThan(0);
    expect(body.entries).toContainEqual(
      expect.objectContaining({ identifier: "messages:send", udfType: "Mutation", kind: "Completion" }),
    );
  });
});
