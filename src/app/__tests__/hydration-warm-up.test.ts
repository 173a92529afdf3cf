import { afterEach, beforeEach, expect, test, vi } from "vitest";
import type { PageData } from "@/lib/page-data";
import { warmUpForHydration, zonesIn } from "../hydration-warm-up";

const convexClientFor = vi.hoisted(() => vi.fn());
vi.mock("../provider", () => ({ convexClientFor }));

const page = (queries: Record<string, unknown>): PageData => ({
  now: Date.UTC(2026, 10, 25, 18),
  origin: "https://livelocal.example",
  queries,
});

beforeEach(() => {
  vi.useFakeTimers();
  convexClientFor.mockClear();
});
afterEach(() => {
  vi.useRealTimers();
});

test("the zones of a page are every shop zone its answers name, once each", () => {
  const data = page({
    live: [
      { _id: "a", timezone: "America/Chicago" },
      { _id: "b", timezone: "America/Denver" },
    ],
    stream: { shop: { timezone: "America/Chicago" }, products: [{ name: "timezone" }] },
    empty: null,
  });
  expect(zonesIn(data).sort()).toEqual(["America/Chicago", "America/Denver"]);
});

test("the warm-up works in tasks of its own, then makes the Convex client", async () => {
  const done = warmUpForHydration(page({ live: [{ timezone: "America/Los_Angeles" }] }));
  let finished = false;
  void done.then(() => (finished = true));
  // Nothing runs in the caller's task: the browser gets a turn before each step.
  await Promise.resolve();
  expect(finished).toBe(false);
  expect(convexClientFor).not.toHaveBeenCalled();
  await vi.runAllTimersAsync();
  await done;
  expect(convexClientFor).toHaveBeenCalledTimes(1);
});

test("a zone that is not one, or data of the wrong shape, does not stop the page from hydrating", async () => {
  const done = warmUpForHydration(page({ odd: [{ timezone: "Mars/Olympus_Mons" }, { timezone: "" }, 42] }));
  await vi.runAllTimersAsync();
  await expect(done).resolves.toBeUndefined();
  expect(convexClientFor).toHaveBeenCalledTimes(1);
});
