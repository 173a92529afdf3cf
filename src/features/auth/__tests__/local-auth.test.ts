import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import {
  LOCAL_SESSION_KEY,
  signInLocally,
  signOutLocally,
  useLocalAuth,
  type LocalIdentity,
} from "../local-auth";

const AVERY: LocalIdentity = { sub: "demo_admin", email: "admin@livelocal.test", name: "Avery Chen" };
const JORDAN: LocalIdentity = { sub: "demo_viewer", email: "viewer@livelocal.test", name: "Jordan Lee" };
const HOUR = 60 * 60 * 1000;

let issued = 0;
const fetchMock = vi.fn((_url: string, init?: RequestInit) => {
  issued += 1;
  const { sub } = JSON.parse(init?.body as string) as LocalIdentity;
  return Promise.resolve(Response.json({ token: `token-${issued}-${sub}`, expiresAt: Date.now() + HOUR }));
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2026-11-21T12:00:00Z"));
  vi.stubGlobal("fetch", fetchMock);
  issued = 0;
  fetchMock.mockClear();
  signOutLocally();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("local sign-in", () => {
  test("signing in stores the identity (never the token) and reports the session as authenticated", async () => {
    const { result } = renderHook(() => useLocalAuth());
    expect(result.current).toMatchObject({ isLoading: false, isAuthenticated: false });

    await act(() => signInLocally(AVERY));

    expect(result.current.isAuthenticated).toBe(true);
    expect(JSON.parse(localStorage.getItem(LOCAL_SESSION_KEY) ?? "null")).toEqual(AVERY);
    expect(localStorage.getItem(LOCAL_SESSION_KEY)).not.toContain("token");
    expect(fetchMock).toHaveBeenCalledWith("/local-auth/token", expect.objectContaining({ method: "POST" }));
  });

  test("a backend that refuses leaves the visitor signed out, with a message", async () => {
    fetchMock.mockResolvedValueOnce(new Response("no", { status: 500 }));
    await expect(signInLocally(AVERY)).rejects.toThrow(/HTTP 500/);
    expect(localStorage.getItem(LOCAL_SESSION_KEY)).toBeNull();
  });

  test("signing out clears the session and Convex gets no token", async () => {
    const { result } = renderHook(() => useLocalAuth());
    await act(() => signInLocally(AVERY));
    act(() => signOutLocally());
    expect(result.current.isAuthenticated).toBe(false);
    expect(localStorage.getItem(LOCAL_SESSION_KEY)).toBeNull();
    expect(await result.current.fetchAccessToken({ forceRefreshToken: false })).toBeNull();
  });
});

describe("tokens", () => {
  test("the sign-in's token is reused until a minute before it expires, then refreshed", async () => {
    const { result } = renderHook(() => useLocalAuth());
    await act(() => signInLocally(AVERY));
    const fetchToken = result.current.fetchAccessToken;

    expect(await fetchToken({ forceRefreshToken: false })).toBe("token-1-demo_admin");
    vi.setSystemTime(Date.now() + HOUR - 61_000);
    expect(await fetchToken({ forceRefreshToken: false })).toBe("token-1-demo_admin");
    expect(fetchMock).toHaveBeenCalledTimes(1);

    vi.setSystemTime(Date.now() + 2_000); // now 59 s before expiry
    expect(await fetchToken({ forceRefreshToken: false })).toBe("token-2-demo_admin");
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  test("a forced refresh (the server rejected the token) always fetches a new one", async () => {
    const { result } = renderHook(() => useLocalAuth());
    await act(() => signInLocally(AVERY));
    expect(await result.current.fetchAccessToken({ forceRefreshToken: true })).toBe("token-2-demo_admin");
  });

  test("an unreachable backend gives Convex no token rather than an exception", async () => {
    const { result } = renderHook(() => useLocalAuth());
    await act(() => signInLocally(AVERY));
    fetchMock.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    vi.spyOn(console, "error").mockImplementationOnce(() => {});
    expect(await result.current.fetchAccessToken({ forceRefreshToken: true })).toBeNull();
  });
});

describe("other tabs", () => {
  test("a sign-in and sign-out in another tab reach this one through the storage event", async () => {
    const { result } = renderHook(() => useLocalAuth());
    const firstFetcher = result.current.fetchAccessToken;

    act(() => {
      localStorage.setItem(LOCAL_SESSION_KEY, JSON.stringify(JORDAN));
      window.dispatchEvent(new StorageEvent("storage", { key: LOCAL_SESSION_KEY }));
    });
    expect(result.current.isAuthenticated).toBe(true);
    // A new fetcher tells Convex the identity changed; it fetches Jordan's token, not a cached one.
    expect(result.current.fetchAccessToken).not.toBe(firstFetcher);
    expect(await result.current.fetchAccessToken({ forceRefreshToken: false })).toBe("token-1-demo_viewer");

    act(() => {
      localStorage.removeItem(LOCAL_SESSION_KEY);
      window.dispatchEvent(new StorageEvent("storage", { key: LOCAL_SESSION_KEY }));
    });
    expect(result.current.isAuthenticated).toBe(false);
  });

  test("a stored session that is not an identity counts as signed out", () => {
    localStorage.setItem(LOCAL_SESSION_KEY, '{"sub":""}');
    const { result } = renderHook(() => useLocalAuth());
    expect(result.current.isAuthenticated).toBe(false);
  });
});
