/**
 * Convex components on the embedded backend: `convex.config.ts`'s `app.use(rateLimiter)` installs
 * @convex-dev/rate-limiter as on Convex (its own tables, its functions behind `ctx.runMutation`), and
 * its state is kept on disk like the app's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningLocalBackend } from "../host/start.ts";
import { m, newHttpClient, q, removeDir, startFixtureBackend, tempDataDir } from "./test-helpers.ts";

describe("components", { timeout: 60_000 }, () => {
  const dataDir = tempDataDir();
  let backend: RunningLocalBackend | null = null;

  beforeAll(async () => {
    backend = await startFixtureBackend({ dataDir });
  });
  afterAll(async () => {
    await backend?.stop();
    removeDir(dataDir);
  });

  const send = (body: string) =>
    newHttpClient(backend!.url).mutation(m("limited:send"), { channel: "limited", body });

  it("runs the rate limiter component: the third send in a minute is refused with when to retry, and writes nothing", async () => {
    await send("one");
    await send("two");
    const refused = await send("three").then(
      () => null,
      (e: unknown) => e as { data?: { code?: string; retryAfterMs?: number } },
    );
    expect(refused?.data?.code).toBe("RATE_LIMITED");
    expect(refused?.data?.retryAfterMs).toBeGreaterThan(0);
    expect(refused?.data?.retryAfterMs).toBeLessThanOrEqual(60_000);
    const bodies = await newHttpClient(backend!.url).query(q("messages:list"), { channel: "limited" });
    expect(bodies).toEqual([
      { author: "limited", body: "one" },
      { author: "limited", body: "two" },
    ]);
  });

  it("keeps the component's data apart from the app's, and across a restart", async () => {
    expect(backend!.core.engine().tableNames()).not.toContain("rateLimits");
    await backend!.stop();
    backend = await startFixtureBackend({ dataDir });
    const refused = await send("four").then(
      () => null,
      (e: unknown) => e as { data?: { code?: string } },
    );
    expect(refused?.data?.code).toBe("RATE_LIMITED");
  });

  it("limits local sign-in tokens through the functions' own limit, saying when to try again", async () => {
    const ask = () =>
      fetch(`${backend!.url}/local-auth/token`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ sub: "script", name: "Script" }),
      });
    // The fixture allows 20 a minute per address (test-fixture/convex/localAuth.ts).
    for (let i = 0; i < 20; i++) expect((await ask()).status).toBe(200);
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    const body = (await refused.json()) as { code: string; message: string; token?: string };
    expect(body.code).toBe("RateLimited");
    expect(body.message).toMatch(
      /Too many sign-ins from this machine in a short time\. Try again in \d+ seconds?\./,
    );
    expect(body.token).toBeUndefined();
  });
});
