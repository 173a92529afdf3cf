/**
 * The Convex CLI from node_modules against the embedded backend, as against a self-hosted deployment
 * (`CONVEX_SELF_HOSTED_URL` + `CONVEX_SELF_HOSTED_ADMIN_KEY`): `run` (public and internal functions) and
 * `data` (tables, and a table's documents); a wrong key is refused.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningLocalBackend } from "../host/start.ts";
import { newHttpClient, m, startFixtureBackend } from "./test-helpers.ts";

const root = path.join(import.meta.dirname, "..", "..");
const cliEntry = path.join(root, "node_modules", "convex", "bin", "main.js");

describe("the Convex CLI", { timeout: 60_000 }, () => {
  let backend: RunningLocalBackend;
  const cli = async (args: string[], adminKey = backend.adminKey) => {
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [cliEntry, ...args], {
        cwd: root,
        env: { ...process.env, CONVEX_SELF_HOSTED_URL: backend.url, CONVEX_SELF_HOSTED_ADMIN_KEY: adminKey },
      });
      return { ok: true, stdout, stderr };
    } catch (e) {
      const failed = e as { stdout?: string; stderr?: string };
      return { ok: false, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
    }
  };

  beforeAll(async () => {
    backend = await startFixtureBackend();
    await newHttpClient(backend.url).mutation(m("messages:send"), {
      channel: "cli",
      body: "hello from the CLI test",
    });
  });
  afterAll(async () => {
    await backend.stop();
  });

  it("runs public and internal functions with `npx convex run`", async () => {
    const count = await cli(["run", "messages:count", '{"channel":"cli"}']);
    expect(count).toMatchObject({ ok: true });
    expect(count.stdout.trim()).toBe("1");
    // Internal functions are for admins, as on Convex.
    const secret = await cli(["run", "messages:secret", "{}"]);
    expect(secret).toMatchObject({ ok: true });
    expect(secret.stdout).toContain("secret");
  });

  it("lists tables and documents with `npx convex data`", async () => {
    const tables = await cli(["data"]);
    expect(tables.ok).toBe(true);
    expect(tables.stdout.split("\n")).toContain("messages");
    const rows = await cli(["data", "messages", "--format", "jsonl", "--limit", "5"]);
    expect(rows.ok).toBe(true);
    expect(rows.stdout).toContain("hello from the CLI test");
  });

  it("refuses a key that is not this backend's", async () => {
    const refused = await cli(
      ["run", "messages:count", '{"channel":"cli"}'],
      "livelocal-local|" + "0".repeat(64),
    );
    expect(refused.ok).toBe(false);
    expect(refused.stderr + refused.stdout).toMatch(/The provided admin key was invalid for this instance/);
  });
});
