/**
 * Page-test runs start a backend per test file (decision 087). What makes a start slow can be made once
 * and shared: the bundles of the app's components (built by another process) and the key pair that
 * signs local tokens. A backend given them uses them, and builds or makes none of its own.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateLocalAuthKey, type LocalAuthKey } from "../api/auth.ts";
import type { RunningLocalBackend } from "../host/start.ts";
import { adoptComponents, type SharedComponents } from "../runtime/components.ts";
import { fixtureDir, m, newHttpClient, startFixtureBackend } from "./test-helpers.ts";

const configFile = path.join(fixtureDir, "convex.config.ts");
const cache = path.resolve("node_modules", ".cache", "livelocal-components");

/** Bundle folders this process wrote. */
const ownBundles = () =>
  existsSync(cache) ? readdirSync(cache).filter((entry) => entry.startsWith(`${process.pid}-`)) : [];

describe("a backend started with what another process made", { timeout: 60_000 }, () => {
  let builder: ChildProcessWithoutNullStreams;
  let shared: SharedComponents;
  let key: LocalAuthKey;
  const backends: RunningLocalBackend[] = [];

  beforeAll(async () => {
    builder = spawn(process.execPath, [
      "--import",
      "tsx",
      path.join(import.meta.dirname, "share-components.ts"),
      configFile,
    ]);
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: builder.stdout }).once("line", resolve);
      builder.once("exit", (code) => reject(new Error(`The builder exited (${code}) before it printed.`)));
    });
    shared = JSON.parse(line) as SharedComponents;
    key = await generateLocalAuthKey();
    adoptComponents(configFile, shared);
    backends.push(await startFixtureBackend({ authKey: key }));
  });

  afterAll(async () => {
    await Promise.all(backends.map((backend) => backend.stop()));
    builder?.stdin.end();
  });

  it("runs a component from the bundles another process built, building none of its own", async () => {
    const hrefs = shared.components.flatMap((component) =>
      component.modules.flatMap(([, built]) => ("href" in built ? [built.href] : [])),
    );
    expect(hrefs.length).toBeGreaterThan(0);
    expect(hrefs.every((href) => href.includes(`/${builder.pid}-`))).toBe(true);
    const send = (body: string) =>
      newHttpClient(backends[0].url).mutation(m("limited:send"), { channel: "shared", body });
    await send("one");
    await send("two");
    const refused = await send("three").then(
      () => null,
      (e: unknown) => e as { data?: { code?: string } },
    );
    expect(refused?.data?.code).toBe("RATE_LIMITED");
    expect(ownBundles()).toEqual([]);
  });

  it("signs tokens with the key pair it was given, which another backend given it accepts", async () => {
    backends.push(await startFixtureBackend({ authKey: key }));
    const [first, second] = backends;
    const jwks = (await (await fetch(`${first.url}/.well-known/jwks.json`)).json()) as {
      keys: { kid: string }[];
    };
    expect(jwks.keys.map((jwk) => jwk.kid)).toEqual([key.kid]);
    const { token } = await first.issueToken({ sub: "shared-key" });
    const identity = await fetch(`${second.siteUrl}/identity`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(((await identity.json()) as { subject?: string } | null)?.subject).toBe("shared-key");
  });
});
