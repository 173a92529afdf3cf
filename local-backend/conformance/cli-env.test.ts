/**
 * `npx convex env list|set|get|remove` (the real CLI) against the embedded backend: variables are
 * kept in the data folder across restarts and functions read them as `process.env.NAME`; Convex's
 * name rules and its wording for a wrong admin key hold.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningLocalBackend } from "../host/start.ts";
import {
  q,
  newHttpClient,
  removeDir,
  runConvexCli,
  startFixtureBackend,
  tempDataDir,
} from "./test-helpers.ts";

const NAME = "LIVELOCAL_CLI_TEST_GREETING";

describe("npx convex env", { timeout: 120_000 }, () => {
  let backend: RunningLocalBackend;
  const dataDir = tempDataDir();
  const seen = async () => await newHttpClient(backend.url).query(q("env:read"), { name: NAME });

  beforeAll(async () => {
    backend = await startFixtureBackend({ dataDir });
  });
  afterAll(async () => {
    await backend.stop();
    removeDir(dataDir);
  });

  it("sets, lists, gets and removes variables that functions see as process.env", async () => {
    // A fresh backend has only the variables it generates for itself (generated-env.ts).
    const fresh = await runConvexCli(backend, ["env", "list"]);
    expect(fresh.ok).toBe(true);
    expect(
      fresh.stdout
        .split("\n")
        .filter(Boolean)
        .map((line) => line.split("=")[0])
        .sort(),
    ).toEqual(["NOTIFICATIONS_SECRET", "VAPID_PRIVATE_KEY", "VAPID_PUBLIC_KEY"]);

    const set = await runConvexCli(backend, ["env", "set", NAME, "hello from env"]);
    expect(set.ok).toBe(true);
    expect(set.stderr).toContain(`Successfully set ${NAME}`);
    expect(await seen()).toBe("hello from env");

    const listed = await runConvexCli(backend, ["env", "list"]);
    expect(listed.ok).toBe(true);
    expect(listed.stdout).toContain(`${NAME}=`);
    expect(listed.stdout).toContain("hello from env");
    const got = await runConvexCli(backend, ["env", "get", NAME]);
    expect(got).toMatchObject({ ok: true });
    expect(got.stdout.trim()).toBe("hello from env");

    // Kept on disk: a restarted backend has it (and a stopped one gave process.env back).
    await backend.stop();
    expect(process.env[NAME]).toBeUndefined();
    backend = await startFixtureBackend({ dataDir });
    expect(await seen()).toBe("hello from env");
    expect((await runConvexCli(backend, ["env", "get", NAME])).stdout.trim()).toBe("hello from env");

    const removed = await runConvexCli(backend, ["env", "remove", NAME]);
    expect(removed.ok).toBe(true);
    expect(removed.stderr).toContain(`Successfully unset ${NAME}`);
    expect(await seen()).toBeNull();
    const missing = await runConvexCli(backend, ["env", "get", NAME]);
    expect(missing.stderr).toContain(`Environment variable "${NAME}" not found`);
  });

  it("refuses what Convex refuses, in its words", async () => {
    const badName = await runConvexCli(backend, ["env", "set", "1_NOT_A_NAME", "x"]);
    expect(badName.ok).toBe(false);
    expect(badName.stderr).toContain(
      "EnvironmentVariableNameInvalid: The environment variable name 1_NOT_A_NAME is invalid.",
    );
    const builtIn = await runConvexCli(backend, ["env", "set", "CONVEX_SITE_URL", "x"]);
    expect(builtIn.ok).toBe(false);
    expect(builtIn.stderr).toContain('Environment variable with name "CONVEX_SITE_URL" is built-in');

    const wrongKey = await runConvexCli(backend, ["env", "set", NAME, "x"], {
      adminKey: `livelocal-local|${"0".repeat(64)}`,
    });
    expect(wrongKey.ok).toBe(false);
    expect(wrongKey.stderr).toContain("BadAdminKey: The provided admin key was invalid for this instance");
    expect(await seen()).toBeNull();
  });
});
