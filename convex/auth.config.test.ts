/**
 * Which issuers a deployment accepts (decision 007): Clerk when its issuer is set, the local backend's
 * in local mode, and no deployment at all without either: loading the file throws, naming the variable,
 * which is how a push to Convex fails.
 */
// No static import of the file: loading it without either variable throws, as it should.
import { afterEach, describe, expect, test, vi } from "vitest";

const CLERK = "https://sarah-app.clerk.accounts.dev";
const LOCAL = "https://auth.livelocal.localhost";

type Env = { CLERK_JWT_ISSUER_DOMAIN?: string; LIVELOCAL_LOCAL_AUTH_ISSUER?: string };

/** The file's exports as Convex (or the local backend) loads it, with these settings in the environment. */
async function loadModuleWith(env: Env) {
  vi.stubEnv("CLERK_JWT_ISSUER_DOMAIN", env.CLERK_JWT_ISSUER_DOMAIN);
  vi.stubEnv("LIVELOCAL_LOCAL_AUTH_ISSUER", env.LIVELOCAL_LOCAL_AUTH_ISSUER);
  vi.resetModules();
  return await import("./auth.config");
}

async function loadWith(env: Env) {
  return (await loadModuleWith(env)).default;
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe("auth.config.ts", () => {
  test("a deployment with the Clerk issuer accepts Clerk's 'convex' tokens only, even beside the local issuer", async () => {
    const clerkOnly = [{ domain: CLERK, applicationID: "convex" }];
    expect((await loadWith({ CLERK_JWT_ISSUER_DOMAIN: CLERK })).providers).toEqual(clerkOnly);
    expect(
      (await loadWith({ CLERK_JWT_ISSUER_DOMAIN: CLERK, LIVELOCAL_LOCAL_AUTH_ISSUER: LOCAL })).providers,
    ).toEqual(clerkOnly);
  });

  test("local mode (the local backend sets its issuer before loading the file) accepts local tokens", async () => {
    expect((await loadWith({ LIVELOCAL_LOCAL_AUTH_ISSUER: LOCAL })).providers).toEqual([
      { domain: LOCAL, applicationID: "livelocal-local" },
    ]);
  });

  test("without CLERK_JWT_ISSUER_DOMAIN on a real deployment, loading fails and names the variable", async () => {
    const { authProviders, MISSING_CLERK_ISSUER } = await loadModuleWith({ CLERK_JWT_ISSUER_DOMAIN: CLERK });
    expect(MISSING_CLERK_ISSUER).toMatch(/^CLERK_JWT_ISSUER_DOMAIN is not set/);
    expect(() => authProviders({})).toThrow(MISSING_CLERK_ISSUER);
    await expect(loadWith({})).rejects.toThrow(MISSING_CLERK_ISSUER);
    await expect(loadWith({ CLERK_JWT_ISSUER_DOMAIN: "" })).rejects.toThrow(MISSING_CLERK_ISSUER);
  });
});
