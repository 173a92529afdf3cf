/** Small pure pieces: timestamps, paths, schedules, CLI arguments. */
import { describe, expect, it } from "vitest";
import { cronStringFor, nextRunAt } from "../scheduler/cron-runner.ts";
import { canonicalizeUdfPath, displayUdfPath, tableFromId } from "../core/paths.ts";
import { Clock, decodeTs, encodeTs } from "../core/protocol.ts";
import { parseServerArgs } from "../host/server.ts";
import { stableStringify } from "../live/subscriptions.ts";

describe("protocol pieces", () => {
  it("encodes timestamps as Convex does", () => {
    expect(encodeTs(0n)).toBe("AAAAAAAAAAA=");
    const ts = 1_763_700_000_123_456_789n;
    expect(decodeTs(encodeTs(ts))).toBe(ts);
  });

  it("hands out strictly increasing timestamps past anything observed", () => {
    const clock = new Clock();
    const a = clock.next();
    const b = clock.next();
    expect(b > a).toBe(true);
    clock.observe(b + 10_000_000_000n);
    expect(clock.next() > b + 10_000_000_000n).toBe(true);
  });

  it("ignores a client's claim to have seen a timestamp far beyond this machine's clock", () => {
    const clock = new Clock();
    const before = clock.next();
    clock.observe(2n ** 64n - 1n);
    const after = clock.next();
    expect(after > before).toBe(true);
    expect(after < BigInt(Date.now() + 60_000) * 1_000_000n).toBe(true);
  });

  it("canonicalises function paths", () => {
    expect(canonicalizeUdfPath("messages:list")).toBe("messages:list");
    expect(canonicalizeUdfPath("messages.js:list")).toBe("messages:list");
    expect(canonicalizeUdfPath("dir/file")).toBe("dir/file:default");
    // Errors name a default export by its module alone, as Convex's do.
    expect(displayUdfPath("dir/file.js:default")).toBe("dir/file");
    expect(displayUdfPath("dir/file:list")).toBe("dir/file:list");
    expect(tableFromId("000000010001messages")).toBe("messages");
    expect(tableFromId("12345")).toBeNull();
  });

  it("keys arguments independently of their order", () => {
    expect(stableStringify({ b: 1, a: [{ d: 2, c: 3 }] })).toBe(
      stableStringify({ a: [{ c: 3, d: 2 }], b: 1 }),
    );
  });
});

describe("cron schedules", () => {
  const at = Date.UTC(2025, 0, 1, 10, 30);
  it("computes the next run", () => {
    expect(nextRunAt("x", { type: "interval", minutes: 5 }, at)).toBe(at + 5 * 60_000);
    expect(nextRunAt("x", { type: "daily", hourUTC: 12, minuteUTC: 0 }, at)).toBe(
      Date.UTC(2025, 0, 1, 12, 0),
    );
    expect(nextRunAt("x", { type: "hourly", minuteUTC: 15 }, at)).toBe(Date.UTC(2025, 0, 1, 11, 15));
    expect(nextRunAt("x", { type: "cron", cron: "0 0 * * *" }, at)).toBe(Date.UTC(2025, 0, 2, 0, 0));
    expect(cronStringFor("x", { type: "weekly", dayOfWeek: "monday", hourUTC: 9, minuteUTC: 5 })).toBe(
      "5 9 * * 1",
    );
    expect(cronStringFor("x", { type: "monthly", day: 3, hourUTC: 1, minuteUTC: 2 })).toBe("2 1 3 * *");
  });
});

describe("server arguments", () => {
  it("defaults to loopback and the repo's data folder", () => {
    const parsed = parseServerArgs([]);
    expect(parsed.host).toBeUndefined();
    expect(parsed.dataDir).toMatch(/\.local-backend$/);
    expect(parsed.reset).toBe(false);
    expect(parseServerArgs(["--port", "4000", "--host", "0.0.0.0", "--reset"])).toMatchObject({
      port: 4000,
      host: "0.0.0.0",
      reset: true,
    });
    expect(() => parseServerArgs(["--port", "x"])).toThrow(/port/);
  });
});
