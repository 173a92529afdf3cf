/**
 * Rate limits (model/rateLimits.ts): generous for a person, firm for a script. A limited call is
 * refused with RATE_LIMITED, says when to try again, and changes nothing.
 */
import { describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import { RATE_LIMITS, describeWait } from "./model/rateLimits";
import { createSellerWithShop, newTest } from "./test.setup";

const SARAH = { subject: "user_sarah", email: "sarah@livelocal.test" };
const streamForm = {
  streamTitle: "Denim drop",
  streamImageUrls: [],
  timezone: "America/New_York" as const,
  products: [],
};

describe("rate limits", () => {
  test("a seller creates a full burst of streams; the next one is refused with when to retry, and nothing is written", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.UTC(2026, 10, 24, 12) });
    try {
      const t = newTest();
      const { liveShopId } = await t.run(async (ctx) => await createSellerWithShop(ctx));
      const sarah = t.withIdentity(SARAH);
      for (let i = 0; i < RATE_LIMITS.newStream.capacity; i++) {
        await sarah.mutation(api.streams.createStream, { liveShopId, stream: streamForm });
      }
      const count = async () => await t.run(async (ctx) => (await ctx.db.query("streams").collect()).length);
      const before = await count();
      await expect(
        sarah.mutation(api.streams.createStream, { liveShopId, stream: streamForm }),
      ).rejects.toMatchObject({
        data: { code: "RATE_LIMITED", message: expect.stringMatching(/try again in 60 seconds\./) as string },
      });
      expect(await count()).toBe(before);
      // A minute later (60 an hour) there is room for one more.
      vi.setSystemTime(Date.now() + 61_000);
      await sarah.mutation(api.streams.createStream, { liveShopId, stream: streamForm });
      expect(await count()).toBe(before + 1);
    } finally {
      vi.useRealTimers();
    }
  });

  test("limits allow more than the app's own caps, so a person meets the cap's message first", () => {
    expect(RATE_LIMITS.newShop.capacity).toBeGreaterThan(20);
    expect(RATE_LIMITS.saveStream.capacity).toBeGreaterThan(100);
    expect(RATE_LIMITS.followShop.capacity).toBeGreaterThan(100);
  });

  test("waits read as a person says them", () => {
    expect(describeWait(400)).toBe("in 1 second");
    expect(describeWait(12_000)).toBe("in 12 seconds");
    expect(describeWait(59_001)).toBe("in 60 seconds");
    expect(describeWait(100_000)).toBe("in 2 minutes");
    expect(describeWait(3 * 3_600_000)).toBe("in 3 hours");
  });
});

describe("local sign-in tokens", () => {
  test("the local backend may issue a burst of tokens per address, then is told when to try again", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.UTC(2026, 10, 25, 12) });
    try {
      const t = newTest();
      for (let i = 0; i < RATE_LIMITS.localSignIn.capacity; i++) {
        expect(await t.mutation(internal.localAuth.limitSignIn, { key: "127.0.0.1" })).toEqual({
          ok: true,
          retryAfterMs: null,
        });
      }
      const refused = await t.mutation(internal.localAuth.limitSignIn, { key: "127.0.0.1" });
      expect(refused.ok).toBe(false);
      expect(refused.retryAfterMs).toBeGreaterThan(0);
      expect(refused.retryAfterMs).toBeLessThanOrEqual(1_000);
      // Another address has its own allowance.
      expect((await t.mutation(internal.localAuth.limitSignIn, { key: "::1" })).ok).toBe(true);
      vi.setSystemTime(Date.now() + refused.retryAfterMs!);
      expect((await t.mutation(internal.localAuth.limitSignIn, { key: "127.0.0.1" })).ok).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
