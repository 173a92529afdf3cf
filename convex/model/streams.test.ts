import { describe, expect, test } from "vitest";
import { internal } from "../_generated/api";
import { createSellerWithShop, newTest } from "../test.setup";
import { patchLiveShop } from "./liveShops";
import {
  insertStream,
  insertStreamPlatform,
  linkStreamCategory,
  linkStreamMsa,
  patchStream,
  upsertStreamPlatform,
} from "./streams";

describe("stream write helpers", () => {
  test("a new stream is CREATED, carries its shop's name, slug and time zone, and is linked to the shop", async () => {
    const t = newTest();
    await t.run(async (ctx) => {
      const { liveShopId } = await createSellerWithShop(ctx);
      await patchLiveShop(ctx, liveShopId, { timezone: "America/Denver" });
      const streamId = await insertStream(ctx, { liveShopId, streamTitle: "Denim drop" }, 42);
      expect(await ctx.db.get("streams", streamId)).toMatchObject({
        streamStatus: "CREATED",
        liveShopName: "Sarah's Vintage",
        liveShopSlug: "sarahs-vintage",
        timezone: "America/Denver",
        streamImageUrls: [],
        products: [],
        createdAt: 42,
        updatedAt: 42,
      });
      const link = await ctx.db
        .query("liveShopStreams")
        .withIndex("by_liveShopId_and_streamId", (q) =>
          q.eq("liveShopId", liveShopId).eq("streamId", streamId),
        )
        .unique();
      expect(link).toMatchObject({ streamStatus: "CREATED" });
    });
  });

  test("a status change is mirrored on the shop-stream link row", async () => {
    const t = newTest();
    await t.run(async (ctx) => {
      const { liveShopId } = await createSellerWithShop(ctx);
      const streamId = await insertStream(ctx, { liveShopId, streamTitle: "Denim drop" });
      await patchStream(ctx, streamId, { streamStatus: "LIVE" }, 99);
      const links = await ctx.db
        .query("liveShopStreams")
        .withIndex("by_streamId", (q) => q.eq("streamId", streamId))
        .collect();
      expect(links).toHaveLength(1);
      expect(links[0]).toMatchObject({ streamStatus: "LIVE", updatedAt: 99 });
    });
  });

  test("a stream has at most one link per platform type", async () => {
    const t = newTest();
    await t.run(async (ctx) => {
      const { liveShopId } = await createSellerWithShop(ctx);
      const streamId = await insertStream(ctx, { liveShopId, streamTitle: "Denim drop" });
      const first = await insertStreamPlatform(ctx, streamId, {
        platformType: "whatnot",
        platformStreamUrl: "https://www.whatnot.com/live/a",
      });
      await expect(
        insertStreamPlatform(ctx, streamId, {
          platformType: "whatnot",
          platformStreamUrl: "https://www.whatnot.com/b",
        }),
      ).rejects.toThrow(/already has a link for that platform/);
      const again = await upsertStreamPlatform(ctx, streamId, {
        platformType: "whatnot",
        platformStreamUrl: "https://www.whatnot.com/live/c",
      });
      expect(again).toBe(first);
      await insertStreamPlatform(ctx, streamId, {
        platformType: "tiktok",
        platformStreamUrl: "https://www.tiktok.com/@s",
      });
      const rows = await ctx.db
        .query("streamPlatforms")
        .withIndex("by_streamId_and_platformType", (q) => q.eq("streamId", streamId))
        .collect();
      expect(rows.map((row) => [row.platformType, row.platformStreamUrl])).toEqual([
        ["tiktok", "https://www.tiktok.com/@s"],
        ["whatnot", "https://www.whatnot.com/live/c"],
      ]);
    });
  });

  test("a stream is listed in a metro area once and links to a category once", async () => {
    const t = newTest();
    await t.mutation(internal.seed.seedReferenceData, {});
    await t.run(async (ctx) => {
      const { liveShopId } = await createSellerWithShop(ctx);
      const streamId = await insertStream(ctx, { liveShopId, streamTitle: "Denim drop" });
      const chicago = await ctx.db
        .query("msas")
        .withIndex("by_cbsaCode", (q) => q.eq("cbsaCode", "16980"))
        .unique();
      if (!chicago) throw new Error("Chicago is reference data");
      await linkStreamMsa(ctx, streamId, chicago._id);
      await expect(linkStreamMsa(ctx, streamId, chicago._id)).rejects.toThrow(/already listed/);
      await linkStreamCategory(ctx, streamId, { categoryId: "collectibles" });
      await expect(linkStreamCategory(ctx, streamId, { categoryId: "collectibles" })).rejects.toThrow(
        /already has that category/,
      );
    });
  });

  test("a stream cannot be created under a shop that does not exist", async () => {
    const t = newTest();
    await t.run(async (ctx) => {
      const { liveShopId } = await createSellerWithShop(ctx);
      await ctx.db.delete("liveShops", liveShopId);
      await expect(insertStream(ctx, { liveShopId, streamTitle: "Ghost" })).rejects.toThrow(/does not exist/);
    });
  });
});
