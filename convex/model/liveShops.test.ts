import { describe, expect, test } from "vitest";
import { internal } from "../_generated/api";
import { createSellerWithShop, newTest } from "../test.setup";
import { getLiveShopBySlug, insertLiveShop, linkShopCategory, linkShopMsa, patchLiveShop } from "./liveShops";
import { insertStream } from "./streams";

describe("live shop write helpers", () => {
  test("a new shop is a draft Organization in New York time with empty lists", async () => {
    const t = newTest();
    const shop = await t.run(async (ctx) => {
      const { liveShopId } = await createSellerWithShop(ctx);
      return await ctx.db.get("liveShops", liveShopId);
    });
    expect(shop).toMatchObject({
      status: "draft",
      schemaType: "Organization",
      timezone: "America/New_York",
      faqSection: [],
      languages: [],
      products: [],
    });
    expect(shop?.createdAt).toBe(shop?.updatedAt);
  });

  test("the slug is unique on create", async () => {
    const t = newTest();
    await t.run(async (ctx) => {
      const { userId } = await createSellerWithShop(ctx);
      await expect(
        insertLiveShop(ctx, { userId, liveShopName: "Copy", slug: "sarahs-vintage" }),
      ).rejects.toThrow(/taken by another shop/);
    });
  });

  test("the slug is unique on edit, and a refused edit changes nothing", async () => {
    const t = newTest();
    await t.run(async (ctx) => {
      const { userId } = await createSellerWithShop(ctx);
      const other = await insertLiveShop(ctx, { userId, liveShopName: "Second", slug: "second" }, 7);
      await expect(patchLiveShop(ctx, other, { slug: "sarahs-vintage", headline: "x" })).rejects.toThrow(
        /taken/,
      );
      expect(await ctx.db.get("liveShops", other)).toMatchObject({ slug: "second", updatedAt: 7 });
      expect(await ctx.db.get("liveShops", other)).not.toHaveProperty("headline");
    });
  });

  test("renaming a shop renames it on every one of its streams", async () => {
    const t = newTest();
    await t.run(async (ctx) => {
      const { liveShopId } = await createSellerWithShop(ctx);
      const streamId = await insertStream(ctx, { liveShopId, streamTitle: "Denim drop" });
      await patchLiveShop(ctx, liveShopId, { liveShopName: "Sarah's Denim", slug: "sarahs-denim" });
      expect(await ctx.db.get("streams", streamId)).toMatchObject({
        liveShopName: "Sarah's Denim",
        liveShopSlug: "sarahs-denim",
      });
      expect(await getLiveShopBySlug(ctx, "sarahs-vintage")).toBeNull();
    });
  });

  test("a shop links to a category once, and only to real categories and their own subcategories", async () => {
    const t = newTest();
    await t.mutation(internal.seed.seedReferenceData, {});
    await t.run(async (ctx) => {
      const { liveShopId } = await createSellerWithShop(ctx);
      await linkShopCategory(ctx, liveShopId, { categoryId: "fashion_apparel", subcategoryId: "clothing" });
      await linkShopCategory(ctx, liveShopId, {
        categoryId: "fashion_apparel",
        subcategoryId: "shoes",
        priority: 1,
      });
      await expect(
        linkShopCategory(ctx, liveShopId, { categoryId: "fashion_apparel", subcategoryId: "clothing" }),
      ).rejects.toThrow(/already has that category/);
      await expect(linkShopCategory(ctx, liveShopId, { categoryId: "weapons" })).rejects.toThrow(
        /Unknown category/,
      );
      await expect(linkShopCategory(ctx, liveShopId, { categoryId: "clothing" })).rejects.toThrow(
        /Unknown category/,
      );
      await expect(
        linkShopCategory(ctx, liveShopId, { categoryId: "home_goods", subcategoryId: "clothing" }),
      ).rejects.toThrow(/not a subcategory of Home Goods/);
      const links = await ctx.db
        .query("liveShopCategories")
        .withIndex("by_liveShopId_and_categoryId", (q) => q.eq("liveShopId", liveShopId))
        .collect();
      expect(links.map((link) => [link.subcategoryId, link.priority])).toEqual([
        ["clothing", 0],
        ["shoes", 1],
      ]);
    });
  });

  test("a shop serves a metro area once", async () => {
    const t = newTest();
    await t.mutation(internal.seed.seedReferenceData, {});
    await t.run(async (ctx) => {
      const { liveShopId } = await createSellerWithShop(ctx);
      const austin = await ctx.db
        .query("msas")
        .withIndex("by_cbsaCode", (q) => q.eq("cbsaCode", "12420"))
        .unique();
      if (!austin) throw new Error("Austin is reference data");
      await linkShopMsa(ctx, liveShopId, austin._id);
      await expect(linkShopMsa(ctx, liveShopId, austin._id)).rejects.toThrow(/already serves/);
    });
  });
});
