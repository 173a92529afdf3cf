/**
 * Folders of functions that only a local backend runs (the benchmark's generators, the e2e suite's
 * fixtures): their modules join the functions folder's, by the same paths, for the official clients
 * and the CLI alike, and no deployment of the functions folder gets them (decision 088).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningLocalBackend } from "../host/start.ts";
import { parseServerArgs } from "../host/server.ts";
import {
  m,
  newHttpClient,
  q,
  removeDir,
  runConvexCli,
  startFixtureBackend,
  tempDataDir,
} from "./test-helpers.ts";

const extraDir = path.join(import.meta.dirname, "test-fixture", "extra-functions");

/** An HTTP client with the admin key, as the CLI's (`setAdminAuth` is left out of `convex`'s types). */
function adminClient(backend: RunningLocalBackend) {
  const client = newHttpClient(backend.url);
  (client as unknown as { setAdminAuth(key: string): void }).setAdminAuth(backend.adminKey);
  return client;
}

describe("extra functions folders", { timeout: 60_000 }, () => {
  let backend: RunningLocalBackend;
  beforeAll(async () => {
    backend = await startFixtureBackend({ extraFunctionsDirs: [extraDir] });
  });
  afterAll(async () => {
    await backend.stop();
  });

  it("runs an extra folder's function by its path, on the same tables as the functions folder's", async () => {
    await adminClient(backend).mutation(m("fixtureData:postAs"), {
      channel: "extra",
      author: "Fixture",
      body: "seeded",
    });
    expect(await newHttpClient(backend.url).query(q("messages:list"), { channel: "extra" })).toEqual([
      { author: "Fixture", body: "seeded" },
    ]);
  });

  it("keeps an extra folder's internal functions from the public", async () => {
    await expect(
      newHttpClient(backend.url).mutation(m("fixtureData:postAs"), {
        channel: "extra",
        author: "Anyone",
        body: "nope",
      }),
    ).rejects.toThrow(/Could not find public function for 'fixtureData:postAs'/);
  });

  it("lists an extra folder's functions to the CLI with the others", async () => {
    const spec = await runConvexCli(backend, ["function-spec"]);
    expect(spec.ok).toBe(true);
    expect(spec.stdout).toContain("fixtureData.js:postAs");
    expect(spec.stdout).toContain("messages.js:list");
  });
});

describe("without the extra folder", () => {
  it("has no such function", async () => {
    const backend = await startFixtureBackend();
    try {
      await expect(
        adminClient(backend).mutation(m("fixtureData:postAs"), {
          channel: "extra",
          author: "Fixture",
          body: "x",
        }),
      ).rejects.toThrow(/Could not find public function for 'fixtureData:postAs'/);
    } finally {
      await backend.stop();
    }
  });
});

describe("an extra folder with a module path the functions folder has", () => {
  let clashing: string;
  beforeAll(() => {
    clashing = tempDataDir();
    mkdirSync(clashing, { recursive: true });
    writeFileSync(path.join(clashing, "messages.ts"), "export {};\n");
  });
  afterAll(() => removeDir(clashing));

  it("is refused at start, naming the file", async () => {
    await expect(startFixtureBackend({ extraFunctionsDirs: [clashing] })).rejects.toThrow(
      `${path.join(clashing, "messages.ts")} has the same module path as a file of`,
    );
  });
});

describe("the standalone server", () => {
  it("takes extra folders with --extra-functions, as many as given", () => {
    expect(parseServerArgs(["--extra-functions", "a", "--extra-functions", "b"]).extraFunctionsDirs).toEqual([
      path.resolve("a"),
      path.resolve("b"),
    ]);
    expect(parseServerArgs([]).extraFunctionsDirs).toEqual([]);
  });
});
