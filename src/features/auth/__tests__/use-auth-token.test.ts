import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import type { LocalIdentity } from "../local-auth";

const JORDAN: LocalIdentity = { sub: "demo_viewer", email: "viewer@livelocal.test", name: "Jordan Lee" };
const HOUR = 60 * 60 * 1000;

const fetchMock = vi.fn((_url: string, init?: RequestInit) => {
  const { sub } = JSON.parse(init?.body as string) as LocalIdentity;
  return Promise.resolve(Response.json({ token: `token-for-${sub}`, expiresAt: Date.now() + HOUR }));
});
const { clerkGetToken } = vi.hoisted(() => ({
  clerkGetToken: vi.fn((_options: { template: string }) => Promise.resolve("clerk-convex-token")),
}));
vi.mock("@clerk/react", () => ({ getToken: clerkGetToken }));

beforeEach(() => {
  vi.resetModules();
  vi.stubGlobal("fetch", fetchMock);
  fetchMock.mockClear();
  clerkGetToken.mockClear();
  localStorage.clear();
});

afterEach(() => {
  vi.doUnmock("@/config/env");
  vi.unstubAllGlobals();
});

async function loadHook(mode: "local" | "clerk") {
  vi.doMock("@/config/env", () => ({ mode }));
  const [{ useAuthTokenGetter: useAuthToken }, localAuth] = await Promise.all([
    import("../use-auth-token"),
    import("../local-auth"),
  ]);
  return { useAuthToken, localAuth };
}

describe("useAuthTokenGetter", () => {
  test("local mode: the development token of the signed-in identity, and null once signed out", async () => {
    const { useAuthToken, localAuth } = await loadHook("local");
    await localAuth.signInLocally(JORDAN);
    const { result } = renderHook(() => useAuthToken());

    expect(await result.current()).toBe("token-for-demo_viewer");
    // The token Convex already holds is reused: signing in fetched it, asking again does not.
    expect(fetchMock).toHaveBeenCalledTimes(1);

    act(() => localAuth.signOutLocally());
    expect(await result.current()).toBeNull();
    expect(clerkGetToken).not.toHaveBeenCalled();
  });

  test("clerk mode: Clerk's token from the convex JWT template, loaded only when asked", async () => {
    const { useAuthToken } = await loadHook("clerk");
    const { result } = renderHook(() => useAuthToken());
    expect(clerkGetToken).not.toHaveBeenCalled();

    expect(await result.current()).toBe("clerk-convex-token");
    expect(clerkGetToken).toHaveBeenCalledWith({ template: "convex" });
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
