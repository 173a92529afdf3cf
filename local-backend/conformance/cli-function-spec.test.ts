/**
 * `npx convex function-spec` (the real CLI) against the embedded backend: every function of the
 * functions folder with its kind, visibility and argument/return validators, and the HTTP routes, as
 * Convex's `_system/cli/modules:apiSpec` lists them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningLocalBackend } from "../host/start.ts";
import { runConvexCli, startFixtureBackend } from "./test-helpers.ts";

type Spec = {
  url: string;
  functions: ({ identifier: string } & Record<string, unknown>)[];
};

describe("npx convex function-spec", { timeout: 60_000 }, () => {
  let backend: RunningLocalBackend;

  beforeAll(async () => {
    backend = await startFixtureBackend();
  });
  afterAll(async () => {
    await backend.stop();
  });

  it("lists functions with their validators, and HTTP routes", async () => {
    const result = await runConvexCli(backend, ["function-spec"]);
    expect(result.ok).toBe(true);
    const spec = JSON.parse(result.stdout) as Spec;
    expect(spec.url).toBe(backend.url);
    const byName = new Map(spec.functions.map((fn) => [fn.identifier, fn]));

    expect(byName.get("messages.js:send")).toEqual({
      identifier: "messages.js:send",
      functionType: "Mutation",
      visibility: { kind: "public" },
      args: {
        type: "object",
        value: {
          channel: { fieldType: { type: "string" }, optional: false },
          body: { fieldType: { type: "string" }, optional: false },
        },
      },
      returns: { type: "any" },
    });
    expect(byName.get("messages.js:add")).toMatchObject({
      functionType: "Mutation",
      visibility: { kind: "internal" },
    });
    expect(byName.get("messages.js:list")).toMatchObject({ functionType: "Query" });
    expect(byName.get("files.js:store")).toMatchObject({ functionType: "Action" });
    expect(byName.get("env.js:read")).toMatchObject({
      returns: { type: "union", value: [{ type: "string" }, { type: "null" }] },
    });
    expect(spec.functions).toContainEqual({ functionType: "HttpAction", method: "GET", path: "/hello" });
    // Only functions: no `_generated`, schema, crons or config entries.
    expect([...byName.keys()].filter((id) => id && !/^[a-zA-Z]+\.js:[A-Za-z]+$/.test(id))).toEqual([]);
  });

  it("needs the admin key", async () => {
    const refused = await runConvexCli(backend, ["function-spec"], {
      adminKey: `livelocal-local|${"0".repeat(64)}`,
    });
    expect(refused.ok).toBe(false);
    expect(refused.stderr + refused.stdout).toContain("The provided admin key was invalid for this instance");
  });
});
