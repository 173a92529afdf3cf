import { expect, test, vi } from "vitest";
import { fetchLatestBuildId, isNewBuild, LATEST_BUILD_URL, latestBuildId } from "../new-build";

test("reads the id of latest.json and ignores anything else", () => {
  expect(latestBuildId({ id: "mwq-1", builtAt: "2026-11-21T11:00:00Z" })).toBe("mwq-1");
  expect(latestBuildId({ id: "" })).toBeNull();
  expect(latestBuildId("<!doctype html>")).toBeNull();
  expect(latestBuildId(null)).toBeNull();
});

test("a different id is a new build; the same, or an unknown one, is not", () => {
  expect(isNewBuild("a", "b")).toBe(true);
  expect(isNewBuild("a", "a")).toBe(false);
  expect(isNewBuild("a", null)).toBe(false);
  expect(isNewBuild(undefined, "b")).toBe(false);
});

test("fetches latest.json uncached, and treats failures as 'cannot tell'", async () => {
  const ok = vi.fn(() => Promise.resolve(new Response(JSON.stringify({ id: "next" }))));
  expect(await fetchLatestBuildId(ok)).toBe("next");
  expect(ok).toHaveBeenCalledWith(LATEST_BUILD_URL, { cache: "no-store" });
  expect(await fetchLatestBuildId(() => Promise.resolve(new Response("", { status: 404 })))).toBeNull();
  expect(await fetchLatestBuildId(() => Promise.reject(new TypeError("offline")))).toBeNull();
  expect(await fetchLatestBuildId(() => Promise.resolve(new Response("<html>")))).toBeNull();
});
