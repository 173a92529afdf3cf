import { describe, expect, test } from "vitest";
import { parseEnv } from "../env";

const ORIGIN = "http://127.0.0.1:5173";
const CONVEX_URL = "https://happy-otter-123.convex.cloud";
// A real key's shape: pk_test_ + base64("<frontend api>$").
const VALID_KEY = `pk_test_${btoa("happy-otter-12.clerk.accounts.dev$")}`;

describe("parseEnv", () => {
  test("without VITE_CONVEX_URL it runs in local mode against the page's own origin", () => {
    expect(parseEnv({}, ORIGIN)).toEqual({
      ok: true,
      config: { mode: "local", backend: "embedded", convexUrl: ORIGIN },
    });
    expect(parseEnv({ VITE_CONVEX_URL: " ", VITE_CLERK_PUBLISHABLE_KEY: "" }, ORIGIN)).toEqual({
      ok: true,
      config: { mode: "local", backend: "embedded", convexUrl: ORIGIN },
    });
  });

  test("a Clerk key alone signs in with Clerk against the embedded backend on the page's origin", () => {
    const result = parseEnv({ VITE_CONVEX_URL: " ", VITE_CLERK_PUBLISHABLE_KEY: VALID_KEY }, ORIGIN);
    expect(result).toEqual({
      ok: true,
      config: { mode: "clerk", backend: "embedded", convexUrl: ORIGIN, clerkPublishableKey: VALID_KEY },
    });
    const bad = parseEnv({ VITE_CLERK_PUBLISHABLE_KEY: "sk_test_abc" }, ORIGIN);
    expect(bad).toMatchObject({
      ok: false,
      mode: "clerk",
      problem: { variable: "VITE_CLERK_PUBLISHABLE_KEY" },
    });
  });

  test("a deployment URL with a valid key runs in Clerk mode", () => {
    const result = parseEnv({ VITE_CONVEX_URL: CONVEX_URL, VITE_CLERK_PUBLISHABLE_KEY: VALID_KEY }, ORIGIN);
    expect(result).toEqual({
      ok: true,
      config: { mode: "clerk", backend: "deployment", convexUrl: CONVEX_URL, clerkPublishableKey: VALID_KEY },
    });
  });

  test("a deployment URL without a key names VITE_CLERK_PUBLISHABLE_KEY as missing", () => {
    const result = parseEnv({ VITE_CONVEX_URL: CONVEX_URL }, ORIGIN);
    expect(result).toMatchObject({
      ok: false,
      mode: "clerk",
      problem: { variable: "VITE_CLERK_PUBLISHABLE_KEY" },
    });
    expect(!result.ok && result.problem.message).toMatch(/VITE_CLERK_PUBLISHABLE_KEY is missing/);
  });

  test.each([
    ["a secret key", "sk_test_abc"],
    ["a key without the encoded host", "pk_test_"],
    ["a key that does not decode to a host", `pk_live_${btoa("not a host")}`],
  ])("refuses %s", (_, key) => {
    const result = parseEnv({ VITE_CONVEX_URL: CONVEX_URL, VITE_CLERK_PUBLISHABLE_KEY: key }, ORIGIN);
    expect(result).toMatchObject({ ok: false, problem: { variable: "VITE_CLERK_PUBLISHABLE_KEY" } });
    expect(!result.ok && result.problem.message).toMatch(/pk_test_… or pk_live_…/);
  });

  test.each([["not a url"], ["ftp://example.com"], ["https://happy-otter-123.convex.site"]])(
    "refuses the deployment URL %s",
    (url) => {
      const result = parseEnv({ VITE_CONVEX_URL: url, VITE_CLERK_PUBLISHABLE_KEY: VALID_KEY }, ORIGIN);
      expect(result).toMatchObject({ ok: false, problem: { variable: "VITE_CONVEX_URL" } });
    },
  );
});
