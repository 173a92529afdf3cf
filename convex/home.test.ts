import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { FEATURED_SHOPS_LIMIT, STARTING_SOON_LIMIT } from "./model/home";
import { insertLiveShop } from "./model/liveShops";
import { insertStream } from "./model/streams";
import { insertUser } from "./model/users";
import { newTest } from "./test.setup";

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 21, 12, 0);

async function setUp() {
  const t = newTest();
  const ids = await t.run(async (ctx) => {
    const userId = await insertUser(ctx, {
      clerkId: "user_sarah",
      email: "sarah@livelocal.test",
      role: "seller",
    });
    const active = await insertLiveShop(ctx, {
      userId,
      liveShopName: "Sarah's Vintage",
      slug: "sarahs-vintage",
      status: "active",
    });
    const draft = await insertLiveShop(ctx, {
      userId,
      liveShopName: "Hidden draft",
      slug: "hidden-draft",
      status: "draft",
    });
    const schedule = (liveShopId: typeof active, streamTitle: string, startIn: number) =>
      insertStream(ctx, {
        liveShopId,
        streamTitle,
        streamStatus: "SCHEDULED",
        streamStartUTC: NOW + startIn,
        streamStopUTC: NOW + startIn + HOUR,
      });
    await schedule(active, "In three hours", 3 * HOUR);
    await schedule(active, "In one hour", HOUR);
    await schedule(active, "Yesterday's, never started", -24 * HOUR);
    await schedule(active, "Next week", 7 * 24 * HOUR);
    await schedule(draft, "Of a draft shop", 2 * HOUR);
    return { userId, active, draft };
  });
  return { t, ...ids };
}

describe("home: starting soon", () => {
  test("lists scheduled streams of public shops from `since` over the next two days, soonest first", async () => {
    const { t } = await setUp();
    const cards = await t.query(api.streams.listStartingSoon, { since: NOW });
    expect(cards.map((card) => card.streamTitle)).toEqual(["In one hour", "In three hours"]);
  });

  test("a stream that went live leaves the list", async () => {
    const { t, active } = await setUp();
    await t.run(async (ctx) => {
      const stream = await ctx.db
        .query("streams")
        .withIndex("by_liveShopId", (q) => q.eq("liveShopId", active))
        .collect();
      const first = stream.find((s) => s.streamTitle === "In one hour");
      if (first) await ctx.db.patch("streams", first._id, { streamStatus: "LIVE" });
    });
    const cards = await t.query(api.streams.listStartingSoon, { since: NOW });
    expect(cards.map((card) => card.streamTitle)).toEqual(["In three hours"]);
  });

  test("a shop whose show is paused counts as on now, ahead of one with only upcoming shows (decision 059)", async () => {
    const { t, userId } = await setUp();
    await t.run(async (ctx) => {
      const liveShopId = await insertLiveShop(ctx, {
        userId,
        liveShopName: "Zed's break",
        slug: "zeds-break",
        status: "active",
      });
      await insertStream(ctx, { liveShopId, streamTitle: "On a break", streamStatus: "PAUSED" });
    });
    const shops = await t.query(api.liveShops.listFeaturedShops, {});
    expect(shops.map((shop) => shop.liveShopName)[0]).toBe("Zed's break");
  });

  test("is bounded", async () => {
    const { t, active } = await setUp();
    await t.run(async (ctx) => {
      for (let i = 0; i < STARTING_SOON_LIMIT + 5; i++) {
        await insertStream(ctx, {
          liveShopId: active,
          streamTitle: `Show ${i}`,
          streamStatus: "SCHEDULED",
          streamStartUTC: NOW + 10 * 60_000 + i,
          streamStopUTC: NOW + HOUR,
        });
      }
    });
    expect(await t.query(api.streams.listStartingSoon, { since: NOW })).toHaveLength(STARTING_SOON_LIMIT);
  });
});

describe("home: featured shops", () => {
  test("shows active shops only, the one with the most upcoming shows first", async () => {
    const { t, userId } = await setUp();
    await t.run(async (ctx) => {
      await insertLiveShop(ctx, {
        userId,
        liveShopName: "A quiet shop",
        slug: "a-quiet-shop",
        status: "active",
      });
      await insertLiveShop(ctx, {
        userId,
        liveShopName: "Closed for now",
        slug: "closed",
        status: "maintenance",
      });
    });
    const shops = await t.query(api.liveShops.listFeaturedShops, {});
    expect(shops.map((shop) => shop.liveShopName)).toEqual(["Sarah's Vintage", "A quiet shop"]);
  });

  test("is bounded", async () => {
    const { t, userId } = await setUp();
    await t.run(async (ctx) => {
      for (let i = 0; i < FEATURED_SHOPS_LIMIT + 3; i++) {
        await insertLiveShop(ctx, { userId, liveShopName: `Shop ${i}`, slug: `shop-${i}`, status: "active" });
      }
    });
    expect(await t.query(api.liveShops.listFeaturedShops, {})).toHaveLength(FEATURED_SHOPS_LIMIT);
  });
});
