/** The public shop and stream pages (liveShops.getPublicShop, streams.getPublicStream). */
import { describe, expect, test } from "vitest";
import { api, internal } from "./_generated/api";
import type { ShopStatus, StreamStatus } from "./lib/constants";
import { insertLiveShop, linkShopCategory, linkShopMsa } from "./model/liveShops";
import { insertStream, insertStreamPlatform } from "./model/streams";
import { insertUser } from "./model/users";
import { newTest } from "./test.setup";

const sarah = { subject: "user_sarah", email: "sarah@livelocal.test", name: "Sarah Kim" };
const vera = { subject: "user_vera", email: "vera@livelocal.test" };
const ada = { subject: "user_ada", email: "ada@livelocal.test" };
const HOUR = 3_600_000;

async function setUp(shopStatus: ShopStatus = "active", streamStatus: StreamStatus = "SCHEDULED") {
  const t = newTest();
  await t.mutation(internal.seed.seedReferenceData, {});
  const ids = await t.run(async (ctx) => {
    const sarahId = await insertUser(ctx, {
      clerkId: sarah.subject,
      email: sarah.email,
      name: sarah.name,
      avatar: "https://img.example.com/sarah.png",
      role: "seller",
    });
    await insertUser(ctx, { clerkId: vera.subject, email: vera.email, role: "viewer" });
    await insertUser(ctx, { clerkId: ada.subject, email: ada.email, role: "admin" });
    const liveShopId = await insertLiveShop(ctx, {
      userId: sarahId,
      liveShopName: "Sarah's Vintage",
      slug: "sarahs-vintage",
      status: shopStatus,
      taxId: "12-3456789",
      themeColor: "#112233",
    });
    await linkShopCategory(ctx, liveShopId, { categoryId: "home_goods" });
    const msa = await ctx.db
      .query("msas")
      .withIndex("by_cbsaCode", (q) => q.eq("cbsaCode", "35620"))
      .unique();
    await linkShopMsa(ctx, liveShopId, msa!._id);
    const now = Date.now();
    const streamId = await insertStream(ctx, {
      liveShopId,
      streamTitle: "Denim drop",
      streamStatus,
      streamStartUTC: now + HOUR,
      streamStopUTC: now + 2 * HOUR,
    });
    await insertStreamPlatform(ctx, streamId, {
      platformType: "whatnot",
      platformStreamUrl: "https://www.whatnot.com/live/denim",
    });
    await insertStream(ctx, { liveShopId, streamTitle: "On air", streamStatus: "LIVE", streamStartUTC: now });
    await insertStream(ctx, {
      liveShopId,
      streamTitle: "Last week",
      streamStatus: "ENDED",
      streamStartUTC: now - 48 * HOUR,
      streamStopUTC: now - 47 * HOUR,
    });
    await insertStream(ctx, { liveShopId, streamTitle: "Draft", streamStatus: "CREATED" });
    return { liveShopId, streamId, sarahId };
  });
  return { t, ...ids };
}

describe("getPublicShop", () => {
  test("an active shop is found by slug and by id, without its tax id or owner", async () => {
    const { t, liveShopId } = await setUp();
    const bySlug = await t.query(api.liveShops.getPublicShop, { idOrSlug: "sarahs-vintage" });
    const byId = await t.query(api.liveShops.getPublicShop, { idOrSlug: liveShopId });
    expect(bySlug).toEqual(byId);
    expect(bySlug).not.toHaveProperty("taxId");
    expect(bySlug).not.toHaveProperty("userId");
    expect(bySlug?.categories).toEqual([{ categoryId: "home_goods", label: "Home Goods" }]);
    expect(bySlug?.areas.map((area) => area.cbsaCode)).toEqual(["35620"]);
    expect(bySlug?.areas[0]?.msaLabel).toContain("New York");
  });

  test("its streams are grouped live now, upcoming and past, with platform links; drafts stay out", async () => {
    const { t } = await setUp();
    const shop = await t.query(api.liveShops.getPublicShop, { idOrSlug: "sarahs-vintage" });
    expect(shop?.streams.live.map((s) => s.streamTitle)).toEqual(["On air"]);
    expect(shop?.streams.upcoming.map((s) => s.streamTitle)).toEqual(["Denim drop"]);
    expect(shop?.streams.past.map((s) => s.streamTitle)).toEqual(["Last week"]);
    expect(shop?.streams.upcoming[0]?.platforms).toEqual([
      { platformType: "whatnot", platformStreamUrl: "https://www.whatnot.com/live/denim" },
    ]);
  });

  test("a shop in maintenance is public (the page shows the notice)", async () => {
    const { t } = await setUp("maintenance");
    const shop = await t.query(api.liveShops.getPublicShop, { idOrSlug: "sarahs-vintage" });
    expect(shop?.status).toBe("maintenance");
  });

  test.each(["draft", "suspended", "pending_verification", "inactive"] as const)(
    "a %s shop is not found by the public; its owner and admins see it as a preview",
    async (status) => {
      const { t } = await setUp(status);
      expect(await t.query(api.liveShops.getPublicShop, { idOrSlug: "sarahs-vintage" })).toBeNull();
      expect(
        await t.withIdentity(vera).query(api.liveShops.getPublicShop, { idOrSlug: "sarahs-vintage" }),
      ).toBeNull();
      for (const manager of [t.withIdentity(sarah), t.withIdentity(ada)]) {
        expect(
          await manager.query(api.liveShops.getPublicShop, { idOrSlug: "sarahs-vintage" }),
        ).toMatchObject({
          liveShopName: "Sarah's Vintage",
          status,
          preview: true,
        });
      }
    },
  );

  test("a public shop is no preview, whoever asks", async () => {
    const { t } = await setUp("active");
    for (const caller of [t, t.withIdentity(sarah), t.withIdentity(ada)]) {
      const shop = await caller.query(api.liveShops.getPublicShop, { idOrSlug: "sarahs-vintage" });
      expect(shop).not.toBeNull();
      expect(shop).not.toHaveProperty("preview");
    }
  });

  test("an unknown slug or a malformed id is not found", async () => {
    const { t, streamId } = await setUp();
    expect(await t.query(api.liveShops.getPublicShop, { idOrSlug: "nope" })).toBeNull();
    // A stream's id is a valid id of another table.
    expect(await t.query(api.liveShops.getPublicShop, { idOrSlug: streamId })).toBeNull();
  });
});

describe("the owner on their shop's page (issue 16 item 12)", () => {
  const ownerOnPage = async (t: ReturnType<typeof newTest>) =>
    (await t.query(api.liveShops.getPublicShop, { idOrSlug: "sarahs-vintage" }))?.owner;

  test("a new account keeps it off; turned on in settings, the page shows name and picture, never the email", async () => {
    const { t } = await setUp();
    expect(await ownerOnPage(t)).toBeNull();
    await t.withIdentity(sarah).mutation(api.settings.setPrivacyPreferences, {
      preferences: { showProfile: true },
    });
    expect(await ownerOnPage(t)).toEqual({ name: "Sarah Kim", avatar: "https://img.example.com/sarah.png" });
    const page = JSON.stringify(await t.query(api.liveShops.getPublicShop, { idOrSlug: "sarahs-vintage" }));
    expect(page).not.toContain(sarah.email);
    await t.withIdentity(sarah).mutation(api.settings.setPrivacyPreferences, {
      preferences: { showProfile: false },
    });
    expect(await ownerOnPage(t)).toBeNull();
  });

  test("an owner without a name is not shown, even when they allow it", async () => {
    const { t, sarahId } = await setUp();
    await t.withIdentity(sarah).mutation(api.settings.setPrivacyPreferences, {
      preferences: { showProfile: true },
    });
    await t.run(async (ctx) => await ctx.db.patch("users", sarahId, { name: undefined }));
    expect(await ownerOnPage(t)).toBeNull();
  });

  test("turnOffShowProfile turns it off for accounts from before, who never chose it", async () => {
    const { t, sarahId } = await setUp();
    await t.run(async (ctx) => {
      const user = await ctx.db.get("users", sarahId);
      await ctx.db.patch("users", sarahId, {
        privacyPreferences: { ...user!.privacyPreferences, showProfile: true },
      });
    });
    expect(await ownerOnPage(t)).not.toBeNull();
    await t.mutation(internal.settings.turnOffShowProfile, {});
    await t.finishAllScheduledFunctions(() => undefined);
    expect(await ownerOnPage(t)).toBeNull();
    const prefs = await t.run(async (ctx) => (await ctx.db.get("users", sarahId))?.privacyPreferences);
    expect(prefs).toEqual({ analytics: false, personalization: true, showProfile: false });
  });
});

describe("getPublicStream", () => {
  test("a scheduled stream of an active shop shows with its shop, platforms and areas", async () => {
    const { t, streamId } = await setUp();
    const stream = await t.query(api.streams.getPublicStream, { streamId });
    expect(stream?.streamTitle).toBe("Denim drop");
    expect(stream?.shop).toMatchObject({ liveShopName: "Sarah's Vintage", slug: "sarahs-vintage" });
    expect(stream?.shop).not.toHaveProperty("userId");
    expect(stream?.platforms).toHaveLength(1);
  });

  test("a cancelled stream keeps its page", async () => {
    const { t, streamId } = await setUp("active", "CANCELLED");
    expect((await t.query(api.streams.getPublicStream, { streamId }))?.streamStatus).toBe("CANCELLED");
  });

  test("a draft is seen only by its owner and admins", async () => {
    const { t, streamId } = await setUp("active", "CREATED");
    expect(await t.query(api.streams.getPublicStream, { streamId })).toBeNull();
    expect(await t.withIdentity(vera).query(api.streams.getPublicStream, { streamId })).toBeNull();
    expect(await t.withIdentity(sarah).query(api.streams.getPublicStream, { streamId })).not.toBeNull();
    expect(await t.withIdentity(ada).query(api.streams.getPublicStream, { streamId })).not.toBeNull();
  });

  test("a stream of a suspended shop is hidden from the public", async () => {
    const { t, streamId } = await setUp("suspended");
    expect(await t.query(api.streams.getPublicStream, { streamId })).toBeNull();
  });

  test("a malformed or foreign id is not found", async () => {
    const { t, liveShopId } = await setUp();
    expect(await t.query(api.streams.getPublicStream, { streamId: "not-an-id" })).toBeNull();
    expect(await t.query(api.streams.getPublicStream, { streamId: liveShopId })).toBeNull();
  });
});
