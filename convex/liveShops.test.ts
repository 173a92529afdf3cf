import { describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { SHOP_STATUSES, type ShopStatus } from "./lib/constants";
import { LIMITS, type LiveShopInput } from "./lib/validation";
import { insertLiveShop, linkShopCategory, linkShopMsa, SHOP_NAME_COPY_BATCH } from "./model/liveShops";
import { insertStream } from "./model/streams";
import { insertWithTimestamps } from "./model/timestamps";
import { insertUser } from "./model/users";
import { newTest } from "./test.setup";

const sarah = { subject: "user_sarah", email: "sarah@livelocal.test" };
const omar = { subject: "user_omar", email: "omar@livelocal.test" };
const vera = { subject: "user_vera", email: "vera@livelocal.test" };
const ada = { subject: "user_ada", email: "ada@livelocal.test" };

type Backend = ReturnType<typeof newTest>;

/** What the shop form sends: every list present, blank fields left out. */
function shopForm(overrides: Partial<LiveShopInput> = {}) {
  return {
    liveShopName: "Sarah's Vintage",
    slug: "sarahs-vintage",
    description: "Vintage denim and jackets.",
    faqSection: [],
    timezone: "America/New_York" as const,
    languages: [],
    products: [],
    schemaType: "Organization" as const,
    ...overrides,
  };
}

/** Sarah (a seller) with a shop in `status`; Omar, another seller with his own shop; Vera, a viewer; Ada, an admin. */
async function setUp(status: ShopStatus = "draft", options: { reference?: boolean } = {}) {
  const t = newTest();
  if (options.reference) await t.mutation(internal.seed.seedReferenceData, {});
  const liveShopId = await t.run(async (ctx) => {
    const sarahId = await insertUser(ctx, { clerkId: sarah.subject, email: sarah.email, role: "seller" });
    const omarId = await insertUser(ctx, { clerkId: omar.subject, email: omar.email, role: "seller" });
    await insertUser(ctx, { clerkId: vera.subject, email: vera.email });
    await insertUser(ctx, { clerkId: ada.subject, email: ada.email, role: "admin" });
    await insertLiveShop(ctx, { userId: omarId, liveShopName: "Omar's", slug: "omars" });
    return await insertLiveShop(ctx, { ...shopForm(), userId: sarahId, status });
  });
  return {
    t,
    liveShopId,
    seller: t.withIdentity(sarah),
    other: t.withIdentity(omar),
    viewer: t.withIdentity(vera),
    admin: t.withIdentity(ada),
  };
}

/** One category and one metro area, enough for a shop to be submitted (no full reference data needed). */
async function completeShop(t: Backend, liveShopId: Id<"liveShops">) {
  await t.run(async (ctx) => {
    await insertWithTimestamps(ctx, "categories", { categoryId: "home_goods", label: "Home" });
    const msaId = await insertWithTimestamps(ctx, "msas", {
      cbsaCode: "12420",
      msaLabel: "Austin",
      states: ["TX"],
      coordinatesLat: 30,
      coordinatesLng: -97,
    });
    await linkShopCategory(ctx, liveShopId, { categoryId: "home_goods" });
    await linkShopMsa(ctx, liveShopId, msaId);
  });
}

async function shopOf(t: Backend, liveShopId: Id<"liveShops">) {
  return await t.run(async (ctx) => await ctx.db.get("liveShops", liveShopId));
}

async function countShops(t: Backend) {
  return await t.run(async (ctx) => (await ctx.db.query("liveShops").collect()).length);
}

describe("creating a live shop", () => {
  test("Vera's first shop is a draft she owns, and makes her a seller", async () => {
    const { t, viewer } = await setUp();
    const liveShopId = await viewer.mutation(api.liveShops.createLiveShop, {
      shop: shopForm({ liveShopName: "Vera's Plants", slug: "veras-plants", headline: "  Green  " }),
    });
    expect(await shopOf(t, liveShopId)).toMatchObject({
      liveShopName: "Vera's Plants",
      headline: "Green",
      status: "draft",
      timezone: "America/New_York",
      schemaType: "Organization",
    });
    expect((await viewer.query(api.users.viewer, {}))?.role).toBe("seller");
    expect((await viewer.query(api.liveShops.listMyShops, {})).map((shop) => shop.slug)).toEqual([
      "veras-plants",
    ]);
  });

  test("an admin who opens a shop stays an admin", async () => {
    const { admin } = await setUp();
    await admin.mutation(api.liveShops.createLiveShop, { shop: shopForm({ slug: "ada-shop" }) });
    expect((await admin.query(api.users.viewer, {}))?.role).toBe("admin");
  });

  test("a taken web address is refused and nothing is written", async () => {
    const { t, viewer } = await setUp();
    await expect(
      viewer.mutation(api.liveShops.createLiveShop, { shop: shopForm({ slug: "omars" }) }),
    ).rejects.toMatchObject({ data: { code: "CONFLICT" } });
    expect(await countShops(t)).toBe(2);
    expect((await viewer.query(api.users.viewer, {}))?.role).toBe("viewer");
  });

  test.each([
    ["liveShopName", "x".repeat(LIMITS.shopName + 1), "Shop name must be at most 100 characters."],
    ["description", "x".repeat(LIMITS.shopDescription + 1), "Description must be at most 5,000 characters."],
    ["headline", "x".repeat(LIMITS.headline + 1), "Headline must be at most 200 characters."],
    ["taxId", "x".repeat(LIMITS.taxId + 1), "Tax id must be at most 50 characters."],
    [
      "productsSummary",
      "x".repeat(LIMITS.productsSummary + 1),
      "Products summary must be at most 1,000 characters.",
    ],
    ["slug", "Not A Slug", "Use lowercase letters, numbers and single hyphens, like corner-bakery."],
    ["themeColor", "#12345", "Enter a colour like #1a2b3c."],
    ["logoUrl", "javascript:alert(1)", "Only http:// and https:// links are allowed."],
    [
      "bannerImageUrl",
      `https://example.com/${"a".repeat(LIMITS.url)}`,
      "A link must be at most 2,048 characters.",
    ],
  ])(
    "a %s over its limit is refused with the form's message, and nothing is written",
    async (field, value, message) => {
      const { t, viewer } = await setUp();
      await expect(
        viewer.mutation(api.liveShops.createLiveShop, { shop: shopForm({ [field]: value }) }),
      ).rejects.toMatchObject({
        data: { code: "INVALID_ARGUMENT", message, fields: { [`shop.${field}`]: message } },
      });
      expect(await countShops(t)).toBe(2);
    },
  );

  test("a person may own at most 20 shops", async () => {
    const { t, seller } = await setUp();
    for (let i = 1; i < LIMITS.shopsPerUser; i++) {
      await seller.mutation(api.liveShops.createLiveShop, { shop: shopForm({ slug: `shop-${i}` }) });
    }
    await expect(
      seller.mutation(api.liveShops.createLiveShop, { shop: shopForm({ slug: "one-too-many" }) }),
    ).rejects.toMatchObject({ data: { code: "LIMIT_EXCEEDED" } });
    expect(await countShops(t)).toBe(LIMITS.shopsPerUser + 1);
  });
});

describe("editing a live shop", () => {
  test("renaming the shop renames it on its streams; blank fields are cleared", async () => {
    const { t, seller, liveShopId } = await setUp();
    const streamId = await t.run(
      async (ctx) => await insertStream(ctx, { liveShopId, streamTitle: "Denim drop" }),
    );
    await seller.mutation(api.liveShops.updateLiveShop, {
      liveShopId,
      shop: shopForm({ liveShopName: "Sarah's Denim", slug: "sarahs-denim", description: "" }),
    });
    const shop = await shopOf(t, liveShopId);
    expect(shop).toMatchObject({ liveShopName: "Sarah's Denim", slug: "sarahs-denim" });
    expect(shop).not.toHaveProperty("description");
    expect(await t.run(async (ctx) => await ctx.db.get("streams", streamId))).toMatchObject({
      liveShopName: "Sarah's Denim",
      liveShopSlug: "sarahs-denim",
    });
  });

  // 950 streams in convex-test's in-memory engine take seconds on a busy 2-core machine.
  test(
    "renaming a shop with 950 streams gives every stream and its listing's search text the new name, in scheduled batches",
    { timeout: 60_000 },
    async () => {
      vi.useFakeTimers();
      try {
        const { t, seller, liveShopId } = await setUp("active");
        const count = 950;
        await t.run(async (ctx) => {
          const start = Date.UTC(2026, 10, 21, 18);
          for (let i = 0; i < count; i++) {
            await insertStream(ctx, {
              liveShopId,
              streamTitle: `Show ${i}`,
              streamStatus: "SCHEDULED",
              streamStartUTC: start + i * 60_000,
              streamStopUTC: start + i * 60_000 + 30_000,
            });
          }
        });
        await t.mutation(internal.explore.rebuildListings, {});
        await t.finishAllScheduledFunctions(vi.runAllTimers);
        const names = async () =>
          await t.run(async (ctx) => ({
            streams: (await ctx.db.query("streams").collect()).map(
              (s) => `${s.liveShopName}|${s.liveShopSlug}`,
            ),
            // A listing row names no shop (decision 046), but the search text of a stream's
            // searchable row holds its shop's name.
            listings: (await ctx.db.query("streamListings").collect()).flatMap((row) => {
              if (row.searchWords === undefined) return [];
              const words = row.searchWords.join(" ").split(" ");
              return [
                words.includes("denim")
                  ? "Sarah's Denim"
                  : words.includes("vintage")
                    ? "Sarah's Vintage"
                    : "?",
              ];
            }),
          }));
        expect((await names()).listings).toEqual(Array(count).fill("Sarah's Vintage"));

        await seller.mutation(api.liveShops.updateLiveShop, {
          liveShopId,
          shop: shopForm({ liveShopName: "Sarah's Denim", slug: "sarahs-denim" }),
        });
        // The first batch at once, the rest once the scheduled batches have run.
        const renamed = "Sarah's Denim|sarahs-denim";
        const right = (await names()).streams.filter((name) => name === renamed);
        expect(right).toHaveLength(SHOP_NAME_COPY_BATCH);
        await t.finishAllScheduledFunctions(vi.runAllTimers);
        const after = await names();
        expect(after.streams).toEqual(Array(count).fill(renamed));
        expect(after.listings).toEqual(Array(count).fill("Sarah's Denim"));
      } finally {
        vi.useRealTimers();
      }
    },
  );

  test("two renames in a row end with the latest name on every stream", async () => {
    vi.useFakeTimers();
    try {
      const { t, seller, liveShopId } = await setUp("active");
      await t.run(async (ctx) => {
        for (let i = 0; i < SHOP_NAME_COPY_BATCH * 2 + 5; i++)
          await insertStream(ctx, { liveShopId, streamTitle: `Show ${i}` });
      });
      for (const [liveShopName, slug] of [
        ["First", "first"],
        ["Second", "second"],
      ]) {
        await seller.mutation(api.liveShops.updateLiveShop, {
          liveShopId,
          shop: shopForm({ liveShopName, slug }),
        });
      }
      await t.finishAllScheduledFunctions(vi.runAllTimers);
      const streams = await t.run(async (ctx) => await ctx.db.query("streams").collect());
      expect(new Set(streams.map((stream) => `${stream.liveShopName}|${stream.liveShopSlug}`))).toEqual(
        new Set(["Second|second"]),
      );
    } finally {
      vi.useRealTimers();
    }
  });

  test("another shop's web address is refused and nothing changes", async () => {
    const { t, seller, liveShopId } = await setUp();
    await expect(
      seller.mutation(api.liveShops.updateLiveShop, {
        liveShopId,
        shop: shopForm({ liveShopName: "Renamed", slug: "omars" }),
      }),
    ).rejects.toMatchObject({ data: { code: "CONFLICT" } });
    expect(await shopOf(t, liveShopId)).toMatchObject({
      liveShopName: "Sarah's Vintage",
      slug: "sarahs-vintage",
    });
  });

  test("another seller and a viewer are refused; an admin may moderate", async () => {
    const { t, liveShopId, other, viewer, admin } = await setUp();
    for (const caller of [other, viewer]) {
      await expect(
        caller.mutation(api.liveShops.updateLiveShop, {
          liveShopId,
          shop: shopForm({ liveShopName: "Mine" }),
        }),
      ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
    }
    expect((await shopOf(t, liveShopId))?.liveShopName).toBe("Sarah's Vintage");
    await admin.mutation(api.liveShops.updateLiveShop, {
      liveShopId,
      shop: shopForm({ headline: "Checked" }),
    });
    expect((await shopOf(t, liveShopId))?.headline).toBe("Checked");
  });

  test("a submitted shop keeps its description", async () => {
    const { t, seller, liveShopId } = await setUp("active");
    await completeShop(t, liveShopId);
    await expect(
      seller.mutation(api.liveShops.updateLiveShop, { liveShopId, shop: shopForm({ description: " " }) }),
    ).rejects.toMatchObject({ data: { code: "MISSING_SHOP_DETAILS", missing: ["description"] } });
  });
});

describe("reading shops", () => {
  test("the owner and admins get the shop with its categories and metro areas; others get null", async () => {
    const { t, seller, other, viewer, admin, liveShopId } = await setUp();
    await completeShop(t, liveShopId);
    const mine = await seller.query(api.liveShops.getMyShop, { liveShopId });
    expect(mine).toMatchObject({
      liveShopName: "Sarah's Vintage",
      categories: [{ categoryId: "home_goods", priority: 0 }],
      cbsaCodes: ["12420"],
    });
    expect(await admin.query(api.liveShops.getMyShop, { liveShopId })).not.toBeNull();
    expect(await other.query(api.liveShops.getMyShop, { liveShopId })).toBeNull();
    expect(await viewer.query(api.liveShops.getMyShop, { liveShopId })).toBeNull();
    expect(await t.query(api.liveShops.getMyShop, { liveShopId })).toBeNull();
  });

  test("listMyShops lists only the caller's shops", async () => {
    const { t, seller } = await setUp();
    expect((await seller.query(api.liveShops.listMyShops, {})).map((shop) => shop.slug)).toEqual([
      "sarahs-vintage",
    ]);
    expect(await t.query(api.liveShops.listMyShops, {})).toEqual([]);
  });

  test("checkSlug: taken by another shop, free, or the shop's own", async () => {
    const { t, liveShopId } = await setUp();
    expect(await t.query(api.liveShops.checkSlug, { slug: "omars" })).toEqual({ available: false });
    expect(await t.query(api.liveShops.checkSlug, { slug: "fresh-start" })).toEqual({ available: true });
    expect(await t.query(api.liveShops.checkSlug, { slug: "sarahs-vintage", liveShopId })).toEqual({
      available: true,
    });
    expect(await t.query(api.liveShops.checkSlug, { slug: "Not a slug" })).toEqual({ available: false });
  });
});

describe("a shop's categories and metro areas", () => {
  test("the set is replaced, keeping the tree: a subcategory must belong to its category", async () => {
    const { seller, liveShopId } = await setUp("draft", { reference: true });
    await seller.mutation(api.liveShops.updateLiveShop, {
      liveShopId,
      shop: shopForm(),
      categories: [
        { categoryId: "home_goods", subcategoryId: "kitchen_dining", priority: 1 },
        { categoryId: "fashion_apparel" },
      ],
    });
    await seller.mutation(api.liveShops.updateLiveShop, {
      liveShopId,
      shop: shopForm(),
      categories: [{ categoryId: "home_goods", subcategoryId: "kitchen_dining", priority: 0 }],
    });
    expect((await seller.query(api.liveShops.getMyShop, { liveShopId }))?.categories).toEqual([
      { categoryId: "home_goods", subcategoryId: "kitchen_dining", priority: 0 },
    ]);

    for (const categories of [
      [{ categoryId: "home_goods", subcategoryId: "clothing" }],
      [{ categoryId: "not_a_category" }],
      [{ categoryId: "clothing" }],
    ]) {
      await expect(
        seller.mutation(api.liveShops.updateLiveShop, { liveShopId, shop: shopForm(), categories }),
      ).rejects.toMatchObject({ data: { code: "INVALID_ARGUMENT" } });
    }
    expect((await seller.query(api.liveShops.getMyShop, { liveShopId }))?.categories).toHaveLength(1);
  });

  test("duplicates and more than 12 categories are refused with the form's message", async () => {
    const { seller, liveShopId } = await setUp("draft", { reference: true });
    await expect(
      seller.mutation(api.liveShops.updateLiveShop, {
        liveShopId,
        shop: shopForm(),
        categories: [{ categoryId: "home_goods" }, { categoryId: "home_goods" }],
      }),
    ).rejects.toMatchObject({ data: { message: "List each category only once." } });
    const tooMany = Array.from({ length: LIMITS.linkedCategories + 1 }, (_, i) => ({
      categoryId: "home_goods",
      priority: i,
      subcategoryId: `sub_${i}`,
    }));
    await expect(
      seller.mutation(api.liveShops.updateLiveShop, { liveShopId, shop: shopForm(), categories: tooMany }),
    ).rejects.toMatchObject({ data: { message: "Choose at most 12 categories." } });
  });

  test("metro areas are set by CBSA code; unknown codes and more than 10 are refused", async () => {
    const { seller, liveShopId } = await setUp("draft", { reference: true });
    await seller.mutation(api.liveShops.updateLiveShop, {
      liveShopId,
      shop: shopForm(),
      cbsaCodes: ["12420", "16980"],
    });
    await seller.mutation(api.liveShops.updateLiveShop, {
      liveShopId,
      shop: shopForm(),
      cbsaCodes: ["16980", "35620"],
    });
    expect((await seller.query(api.liveShops.getMyShop, { liveShopId }))?.cbsaCodes.sort()).toEqual([
      "16980",
      "35620",
    ]);
    await expect(
      seller.mutation(api.liveShops.updateLiveShop, {
        liveShopId,
        shop: shopForm(),
        cbsaCodes: ["12420", "99999"],
      }),
    ).rejects.toMatchObject({ data: { code: "INVALID_ARGUMENT", message: 'Unknown metro area "99999".' } });
    await expect(
      seller.mutation(api.liveShops.updateLiveShop, {
        liveShopId,
        shop: shopForm(),
        cbsaCodes: Array.from({ length: LIMITS.linkedMetroAreas + 1 }, (_, i) => String(10000 + i)),
      }),
    ).rejects.toMatchObject({ data: { message: "Choose at most 10 metro areas." } });
    expect((await seller.query(api.liveShops.getMyShop, { liveShopId }))?.cbsaCodes).toHaveLength(2);
  });

  test("a submitted shop keeps at least one category and one metro area", async () => {
    const { t, seller, liveShopId } = await setUp("pending_verification");
    await completeShop(t, liveShopId);
    await expect(
      seller.mutation(api.liveShops.updateLiveShop, { liveShopId, shop: shopForm(), categories: [] }),
    ).rejects.toMatchObject({ data: { code: "MISSING_SHOP_DETAILS", missing: ["category"] } });
    await expect(
      seller.mutation(api.liveShops.updateLiveShop, { liveShopId, shop: shopForm(), cbsaCodes: [] }),
    ).rejects.toMatchObject({ data: { code: "MISSING_SHOP_DETAILS", missing: ["metroArea"] } });
  });

  test("another seller and a viewer cannot change them", async () => {
    const { t, other, viewer, liveShopId } = await setUp();
    await completeShop(t, liveShopId);
    for (const caller of [other, viewer]) {
      await expect(
        caller.mutation(api.liveShops.updateLiveShop, { liveShopId, shop: shopForm(), categories: [] }),
      ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
      await expect(
        caller.mutation(api.liveShops.updateLiveShop, { liveShopId, shop: shopForm(), cbsaCodes: [] }),
      ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
    }
  });
});

describe("saving the shop form: one mutation, all or nothing", () => {
  test("fields, categories and metro areas are saved together", async () => {
    const { seller, liveShopId } = await setUp("draft", { reference: true });
    await seller.mutation(api.liveShops.updateLiveShop, {
      liveShopId,
      shop: shopForm({ liveShopName: "Sarah's Denim" }),
      categories: [{ categoryId: "fashion_apparel", subcategoryId: "clothing", priority: 0 }],
      cbsaCodes: ["12420"],
    });
    expect(await seller.query(api.liveShops.getMyShop, { liveShopId })).toMatchObject({
      liveShopName: "Sarah's Denim",
      categories: [{ categoryId: "fashion_apparel", subcategoryId: "clothing", priority: 0 }],
      cbsaCodes: ["12420"],
    });
  });

  test("a save whose metro areas (its last part) name an unknown one writes nothing", async () => {
    const { t, seller, liveShopId } = await setUp("draft", { reference: true });
    await seller.mutation(api.liveShops.updateLiveShop, {
      liveShopId,
      shop: shopForm(),
      categories: [{ categoryId: "home_goods", priority: 0 }],
      cbsaCodes: ["12420"],
    });
    const before = await t.run(async (ctx) => ({
      shop: await ctx.db.get("liveShops", liveShopId),
      categories: await ctx.db.query("liveShopCategories").collect(),
      msas: await ctx.db.query("liveShopMsas").collect(),
      listings: await ctx.db.query("shopListings").collect(),
    }));

    await expect(
      seller.mutation(api.liveShops.updateLiveShop, {
        liveShopId,
        shop: shopForm({ liveShopName: "Renamed", description: "Changed." }),
        categories: [{ categoryId: "fashion_apparel", priority: 0 }],
        cbsaCodes: ["16980", "99999"],
      }),
    ).rejects.toMatchObject({ data: { code: "INVALID_ARGUMENT", message: 'Unknown metro area "99999".' } });

    const after = await t.run(async (ctx) => ({
      shop: await ctx.db.get("liveShops", liveShopId),
      categories: await ctx.db.query("liveShopCategories").collect(),
      msas: await ctx.db.query("liveShopMsas").collect(),
      listings: await ctx.db.query("shopListings").collect(),
    }));
    expect(after).toEqual(before);
    expect(after.shop?.liveShopName).toBe("Sarah's Vintage");
  });

  test("a new shop whose metro areas are refused is not opened, and its owner stays a viewer", async () => {
    const { t, viewer } = await setUp("draft", { reference: true });
    await expect(
      viewer.mutation(api.liveShops.createLiveShop, {
        shop: shopForm({ liveShopName: "Vera's Plants", slug: "veras-plants" }),
        categories: [{ categoryId: "home_goods", priority: 0 }],
        cbsaCodes: ["99999"],
      }),
    ).rejects.toMatchObject({ data: { message: 'Unknown metro area "99999".' } });
    expect(await countShops(t)).toBe(2);
    expect((await viewer.query(api.users.viewer, {}))?.role).toBe("viewer");
    expect(await t.run(async (ctx) => await ctx.db.query("liveShopCategories").collect())).toEqual([]);
    expect(await t.run(async (ctx) => await ctx.db.query("adminActions").collect())).toEqual([]);
  });

  test("a new shop is opened with its categories and metro areas", async () => {
    const { viewer } = await setUp("draft", { reference: true });
    const liveShopId = await viewer.mutation(api.liveShops.createLiveShop, {
      shop: shopForm({ liveShopName: "Vera's Plants", slug: "veras-plants" }),
      categories: [{ categoryId: "home_goods", priority: 0 }],
      cbsaCodes: ["12420"],
    });
    expect(await viewer.query(api.liveShops.getMyShop, { liveShopId })).toMatchObject({
      categories: [{ categoryId: "home_goods", priority: 0 }],
      cbsaCodes: ["12420"],
    });
  });

  test("a submitted shop's save that empties its categories changes nothing else either", async () => {
    const { t, seller, liveShopId } = await setUp("pending_verification");
    await completeShop(t, liveShopId);
    await expect(
      seller.mutation(api.liveShops.updateLiveShop, {
        liveShopId,
        shop: shopForm({ headline: "New headline" }),
        categories: [],
      }),
    ).rejects.toMatchObject({ data: { code: "MISSING_SHOP_DETAILS" } });
    expect((await shopOf(t, liveShopId))?.headline).toBeUndefined();
  });
});

describe("the live shop lifecycle, through setShopStatus", () => {
  /** docs/product.md#live-shop-lifecycle, row by row; every other pair is refused. */
  const ALLOWED: [ShopStatus, ShopStatus, "owner" | "admin"][] = [
    ["draft", "pending_verification", "owner"],
    ["pending_verification", "active", "admin"],
    ["pending_verification", "draft", "admin"],
    ["active", "maintenance", "owner"],
    ["maintenance", "active", "owner"],
    ["active", "suspended", "admin"],
    ["maintenance", "suspended", "admin"],
    ["suspended", "active", "admin"],
    ["draft", "inactive", "owner"],
    ["active", "inactive", "owner"],
    ["maintenance", "inactive", "owner"],
    ["inactive", "draft", "owner"],
  ];
  const cases = SHOP_STATUSES.flatMap((from) =>
    SHOP_STATUSES.flatMap((to) =>
      (["owner", "admin"] as const).map((who) => ({
        from,
        to,
        who,
        allowed: ALLOWED.some(([f, t, w]) => f === from && t === to && w === who),
      })),
    ),
  );

  test.each(cases)("$from → $to by the $who: allowed $allowed", async ({ from, to, who, allowed }) => {
    const { t, seller, admin, liveShopId } = await setUp(from);
    await completeShop(t, liveShopId);
    const run = (who === "owner" ? seller : admin).mutation(api.liveShops.setShopStatus, {
      liveShopId,
      status: to,
      reason: "Blurry logo",
    });
    if (allowed) {
      await run;
      expect((await shopOf(t, liveShopId))?.status).toBe(to);
    } else {
      await expect(run).rejects.toMatchObject({
        data: { code: expect.stringMatching(/^(INVALID_TRANSITION|FORBIDDEN)$/) as unknown },
      });
      expect((await shopOf(t, liveShopId))?.status).toBe(from);
    }
  });

  test("submitting an incomplete shop lists what is missing", async () => {
    const { t, seller, liveShopId } = await setUp();
    await seller.mutation(api.liveShops.updateLiveShop, { liveShopId, shop: shopForm({ description: "" }) });
    await expect(
      seller.mutation(api.liveShops.setShopStatus, { liveShopId, status: "pending_verification" }),
    ).rejects.toMatchObject({
      data: {
        code: "MISSING_SHOP_DETAILS",
        message:
          "Add a description, at least one category and at least one metro area before submitting for verification.",
        missing: ["description", "category", "metroArea"],
      },
    });
    expect((await shopOf(t, liveShopId))?.status).toBe("draft");
  });

  test("a rejection needs a reason, which the owner sees until the next change", async () => {
    const { t, seller, admin, liveShopId } = await setUp("pending_verification");
    await expect(
      admin.mutation(api.liveShops.setShopStatus, { liveShopId, status: "draft", reason: "  " }),
    ).rejects.toMatchObject({ data: { code: "REASON_REQUIRED" } });
    await admin.mutation(api.liveShops.setShopStatus, { liveShopId, status: "draft", reason: "Add a logo" });
    expect(await seller.query(api.liveShops.listMyShops, {})).toMatchObject([
      { status: "draft", statusReason: "Add a logo" },
    ]);
    await completeShop(t, liveShopId);
    await seller.mutation(api.liveShops.setShopStatus, { liveShopId, status: "pending_verification" });
    expect(await shopOf(t, liveShopId)).not.toHaveProperty("statusReason");
  });

  test("a suspension reason over 500 characters is refused with the form's message", async () => {
    const { t, admin, liveShopId } = await setUp("active");
    await expect(
      admin.mutation(api.liveShops.setShopStatus, {
        liveShopId,
        status: "suspended",
        reason: "x".repeat(LIMITS.statusReason + 1),
      }),
    ).rejects.toMatchObject({
      data: { code: "INVALID_ARGUMENT", message: "Reason must be at most 500 characters." },
    });
    expect((await shopOf(t, liveShopId))?.status).toBe("active");
  });

  test("another seller and a viewer cannot change a shop's status", async () => {
    const { other, viewer, liveShopId } = await setUp("active");
    for (const caller of [other, viewer]) {
      await expect(
        caller.mutation(api.liveShops.setShopStatus, { liveShopId, status: "inactive" }),
      ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
    }
  });
});
