import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { ACTION_TIMEOUT_MS, timeoutMessage } from "./user-code.ts";

/**
 * In a process of its own: the process-wide handler is the point, and a test runner's own handlers
 * would see the uncaught errors too.
 */
const scratch = mkdtempSync(path.join(tmpdir(), "livelocal-user-code-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function runScript(body: string) {
  const file = path.join(scratch, `script-${Math.random().toString(36).slice(2)}.mjs`);
  const module = pathToFileURL(path.join(import.meta.dirname, "user-code.ts")).href;
  writeFileSync(
    file,
    [
      `import http from "node:http";`,
      `import { readFile } from "node:fs";`,
      `import { runUserCode } from ${JSON.stringify(module)};`,
      // Something of the server's own keeps the process running, as a listening socket does.
      `const server = setInterval(() => {}, 1000);`,
      `const outcome = (p) => p.then((v) => "ok " + v, (e) => "failed " + e.message);`,
      body,
    ].join("\n"),
  );
  const child = spawnSync(process.execPath, ["--import", "tsx", file], { encoding: "utf8", timeout: 60_000 });
  return { status: child.status, stdout: child.stdout.trim().split("\n"), stderr: child.stderr };
}

describe("user code that throws outside its promise", () => {
  it("fails only its own call, and the process keeps serving the next one", () => {
    const { status, stdout } = runScript(`
      console.log(await outcome(runUserCode("a:timer", () => new Promise(() => { setTimeout(() => { throw new Error("boom in a timer"); }, 1); }))));
      console.log(await outcome(runUserCode("a:http", () => new Promise(() => { http.get("http://127.0.0.1:1/"); }))));
      console.log(await outcome(runUserCode("a:fs", () => new Promise(() => { readFile("/no/such/file", () => { throw new Error("boom in an fs callback"); }); }))));
      console.log(await outcome(runUserCode("a:rejection", () => new Promise(() => { void Promise.reject(new Error("nobody caught me")); }))));
      console.log(await outcome(runUserCode("a:fine", async () => 42)));
      clearInterval(server);
    `);
    expect(stdout).toEqual([
      "failed boom in a timer",
      "failed connect ECONNREFUSED 127.0.0.1:1",
      "failed boom in an fs callback",
      "failed nobody caught me",
      "ok 42",
    ]);
    expect(status).toBe(0);
  });

  it("logs a callback that throws after its call has ended, and carries on", () => {
    const { status, stdout, stderr } = runScript(`
      console.log(await outcome(runUserCode("a:late", async () => { setTimeout(() => { throw new Error("too late"); }, 1); return "answered"; })));
      console.log(await outcome(runUserCode("a:fine", async () => 42)));
      clearInterval(server);
    `);
    expect(stdout).toEqual(["ok answered", "ok 42"]);
    expect(stderr).toContain("a:late: uncaught after the call ended");
    expect(stderr).toContain("too late");
    expect(status).toBe(0);
  });

  it("fails a call that never settles after its timeout, with Convex's words", () => {
    const { status, stdout } = runScript(`
      console.log(await outcome(runUserCode("a:never", () => new Promise(() => {}), { timeoutMs: 50 })));
      clearInterval(server);
    `);
    expect(stdout).toEqual([`failed ${timeoutMessage(50)}`]);
    expect(status).toBe(0);
  });

  it("still exits on the server's own uncaught error", () => {
    const { status, stderr } = runScript(`
      await runUserCode("a:fine", async () => 42);
      setTimeout(() => { throw new Error("the server's own bug"); }, 1);
    `);
    expect(stderr).toContain("the server's own bug");
    expect(status).toBe(1);
  });
});

describe("Convex's action timeout", () => {
  it("is ten minutes, in Convex's words", () => {
    expect(timeoutMessage(ACTION_TIMEOUT_MS)).toBe("Function execution timed out (maximum duration: 600s)");
    expect(timeoutMessage(50)).toBe("Function execution timed out (maximum duration: 50ms)");
  });
});
