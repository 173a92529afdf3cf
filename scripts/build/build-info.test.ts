import { expect, test } from "vitest";
import { buildMetaPath, newBuildId } from "./build-info.ts";

test("build ids are URL-safe, differ between builds and sort by time", () => {
  const a = newBuildId(Date.UTC(2026, 10, 21));
  const b = newBuildId(Date.UTC(2026, 11, 1));
  expect(a).toMatch(/^[a-z0-9]+-[0-9a-f]{8}$/);
  expect(newBuildId(Date.UTC(2026, 10, 21))).not.toBe(a);
  expect([b, a].sort()).toEqual([a, b]);
  expect(buildMetaPath(a)).toBe(`builds/meta/${a}.json`);
});
