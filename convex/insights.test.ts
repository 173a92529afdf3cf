/**
 * Seller insights (decision 089) through their public functions: what a visit counts and what it does
 * not, who may read a shop's counts, and what the hourly sweep keeps and forgets.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { INSIGHTS_RETENTION_DAYS, INSIGHTS_SHOWS_LISTED } from "./lib/constants";
import { insertLiveShop } from "./model/liveShops";
import { insertStream } from "./model/streams";
import { insertUser } from "./model/users";
import { newTest } from "./test.setup";

type Backend = ReturnType<typeof newTest>;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// 14:20 UTC on a Wednesday: 9 am in New York, the shop's zone.
const NOON = Date.UTC(2026, 10, 25, 14, 20);
const SARAH = { subject: "user_sarah", email: "sarah@livelocal.test", name: "Sarah Seller" };
const OMAR = { subject: "user_omar", email: "omar@livelocal.test", name: "Omar Other" };
const VERA = { subject: "user_vera", email: "vera@livelocal.test", name: "Vera Viewer" };
const ADA = { subject: "user_ada", email: "ada@livelocal.test", name: "Ada Admin" };
const TOKEN_A = "visitor-token-aaaaaaaa";
const TOKEN_B = "visitor-token-bbbbbbbb";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOON);
});
afterEach(() => {
  vi.useRealTimers();
});

/** Sarah's active shop with a live show, Omar's shop, Vera (a viewer) and Ada (an admin). */
async function setUp(t: Backend) {
  return await t.run(async (ctx) => {
    const user = (identity: typeof SARAH, role: "viewer" | "seller" | "admin") =>
      insertUser(ctx, { clerkId: identity.subject, email: identity.email, name: identity.name, role });
    const sarahId = await user(SARAH, "seller");
    const omarId = await user(OMAR, "seller");
    const veraId = await user(VERA, "viewer");
    await user(ADA, "admin");
    const shopId = await insertLiveShop(ctx, {
      userId: sarahId,
      liveShopName: "Sarah's Vintage",
      slug: "sarahs-vintage",
      status: "active",
    });
    const omarShopId = await insertLiveShop(ctx, {
      userId: omarId,
      liveShopName: "Omar's Records",
      slug: "omars-records",
      status: "active",
    });
    const streamId = await insertStream(ctx, {
      liveShopId: shopId,
      streamTitle: "Denim drop",
      streamStatus: "LIVE",
      streamStartUTC: Date.now(),
    });
    const omarStreamId = await insertStream(ctx, {
      liveShopId: omarShopId,
      streamTitle: "Crates",
      streamStatus: "LIVE",
      streamStartUTC: Date.now(),
    });
    return { sarahId, veraId, shopId, omarShopId, streamId, omarStreamId };
  });
}

async function setAnalytics(t: Backend, userId: Id<"users">, analytics: boolean) {
  await t.run(async (ctx) => {
    const user = await ctx.db.get("users", userId);
    if (user) {
      await ctx.db.patch("users", userId, { privacyPreferences: { ...user.privacyPreferences, analytics } });
    }
  });
}

const view = (streamId: Id<"streams">, visitor = TOKEN_A) => ({ streamId, metric: "view", visitor }) as const;

async function totals(t: Backend, liveShopId: Id<"liveShops">, streamId?: Id<"streams">) {
  const insights = await t
    .withIdentity(SARAH)
    .query(api.insights.forShop, { liveShopId, ...(streamId && { streamId }) });
  return insights?.totals;
}

describe("counting a visit", () => {
  test("counts a visitor once per show and hour, and again the next hour", async () => {
    const t = newTest();
    const { shopId, streamId } = await setUp(t);
    expect(await t.mutation(api.insights.record, view(streamId))).toBe(true);
    expect(await t.mutation(api.insights.record, view(streamId))).toBe(false);
    expect(await t.mutation(api.insights.record, view(streamId, TOKEN_B))).toBe(true);
    expect((await totals(t, shopId))?.view).toBe(2);

    vi.setSystemTime(NOON + HOUR);
    expect(await t.mutation(api.insights.record, view(streamId))).toBe(true);
    expect((await totals(t, shopId, streamId))?.view).toBe(3);
  });

  test("does not count the shop's owner, nor a signed-in person whose analytics are off", async () => {
    const t = newTest();
    const { shopId, streamId, veraId } = await setUp(t);
    await setAnalytics(t, veraId, false);
    expect(await t.withIdentity(SARAH).mutation(api.insights.record, view(streamId))).toBe(false);
    expect(await t.withIdentity(VERA).mutation(api.insights.record, view(streamId))).toBe(false);
    expect((await totals(t, shopId))?.view).toBe(0);

    await setAnalytics(t, veraId, true);
    expect(await t.withIdentity(VERA).mutation(api.insights.record, view(streamId))).toBe(true);
    expect((await totals(t, shopId))?.view).toBe(1);
  });

  test("counts click-throughs by platform, most first, and calendar adds", async () => {
    const t = newTest();
    const { shopId, streamId } = await setUp(t);
    const click = (platform: "whatnot" | "tiktok", visitor: string) =>
      t.mutation(api.insights.record, { streamId, metric: "click", platform, visitor });
    await click("tiktok", TOKEN_A);
    await click("whatnot", TOKEN_A);
    await click("whatnot", TOKEN_B);
    await t.mutation(api.insights.record, { streamId, metric: "calendar", visitor: TOKEN_A });
    const insights = await t.withIdentity(SARAH).query(api.insights.forShop, { liveShopId: shopId });
    expect(insights?.platforms).toEqual([
      { platform: "whatnot", clicks: 2 },
      { platform: "tiktok", clicks: 1 },
    ]);
    expect(insights?.totals).toMatchObject({ click: 3, calendar: 1 });
    // 14:00 UTC is 9 am in New York.
    expect(insights?.byHour[9]).toMatchObject({ click: 3, calendar: 1 });
    expect(insights?.byDay.at(-1)).toMatchObject({ day: "2026-11-25", click: 3 });
  });

  test("counts a view of the shop page apart from its shows", async () => {
    const t = newTest();
    const { shopId, streamId } = await setUp(t);
    await t.mutation(api.insights.record, { liveShopId: shopId, metric: "view", visitor: TOKEN_A });
    expect((await totals(t, shopId))?.view).toBe(1);
    expect((await totals(t, shopId, streamId))?.view).toBe(0);
  });

  test("refuses a malformed token or a click without its platform, and counts nothing", async () => {
    const t = newTest();
    const { shopId, streamId } = await setUp(t);
    await expect(t.mutation(api.insights.record, view(streamId, "short"))).rejects.toThrow(
      "The visitor token must be 16 to 64 letters, digits, - or _.",
    );
    await expect(
      t.mutation(api.insights.record, { streamId, metric: "click", visitor: TOKEN_A }),
    ).rejects.toThrow("A click-through names its platform; nothing else does.");
    expect((await totals(t, shopId))?.click).toBe(0);
  });

  test("keeps no user id, token or address: only hashed keys, deleted after the hour", async () => {
    const t = newTest();
    const { shopId, streamId, veraId } = await setUp(t);
    await setAnalytics(t, veraId, true);
    await t.withIdentity(VERA).mutation(api.insights.record, view(streamId));
    const stored = await t.run(async (ctx) =>
      JSON.stringify([
        await ctx.db.query("insightHours").collect(),
        await ctx.db.query("insightVisitors").collect(),
      ]),
    );
    expect(stored).not.toContain(veraId);
    expect(stored).not.toContain(TOKEN_A);
    expect(stored).not.toContain(VERA.subject);

    vi.setSystemTime(NOON + HOUR);
    await t.mutation(internal.insights.sweep, {});
    const left = await t.run(async (ctx) => ({
      visitors: await ctx.db.query("insightVisitors").collect(),
      secrets: await ctx.db.query("insightSecrets").collect(),
      hours: await ctx.db.query("insightHours").collect(),
    }));
    expect(left.visitors).toEqual([]);
    expect(left.secrets).toEqual([]);
    expect(left.hours.map(({ count, settled }) => ({ count, settled }))).toEqual([
      { count: 1, settled: true },
    ]);
    expect((await totals(t, shopId))?.view).toBe(1);
  });

  test("keeps counts INSIGHTS_RETENTION_DAYS days, then the sweep deletes them", async () => {
    const t = newTest();
    const { streamId } = await setUp(t);
    await t.mutation(api.insights.record, view(streamId));
    vi.setSystemTime(NOON + INSIGHTS_RETENTION_DAYS * DAY - 2 * HOUR);
    await t.mutation(internal.insights.sweep, {});
    expect(await t.run(async (ctx) => await ctx.db.query("insightHours").collect())).toHaveLength(1);
    vi.setSystemTime(NOON + INSIGHTS_RETENTION_DAYS * DAY + 2 * HOUR);
    await t.mutation(internal.insights.sweep, {});
    expect(await t.run(async (ctx) => await ctx.db.query("insightHours").collect())).toEqual([]);
  });
});

describe("counted where they happen", () => {
  test("saves and follows count for people whose analytics are on", async () => {
    const t = newTest();
    const { shopId, streamId, veraId } = await setUp(t);
    await setAnalytics(t, veraId, false);
    await t.withIdentity(VERA).mutation(api.watchList.setStreamSaved, { streamId, saved: true });
    expect(await totals(t, shopId)).toMatchObject({ save: 0, follow: 0 });
    await t.withIdentity(VERA).mutation(api.watchList.setStreamSaved, { streamId, saved: false });
    await setAnalytics(t, veraId, true);
    await t.withIdentity(VERA).mutation(api.watchList.setStreamSaved, { streamId, saved: true });
    await t
      .withIdentity(VERA)
      .mutation(api.watchList.setShopFollowed, { liveShopId: shopId, followed: true });
    expect(await totals(t, shopId)).toMatchObject({ save: 1, follow: 1 });
    expect(await totals(t, shopId, streamId)).toMatchObject({ save: 1, follow: 0 });
  });
});

describe("reading a shop's insights", () => {
  test("its owner and admins read them; anyone else gets null", async () => {
    const t = newTest();
    const { shopId, streamId, omarStreamId } = await setUp(t);
    const read = (identity: typeof SARAH | null, streamIdArg?: Id<"streams">) =>
      (identity ? t.withIdentity(identity) : t).query(api.insights.forShop, {
        liveShopId: shopId,
        ...(streamIdArg && { streamId: streamIdArg }),
      });
    expect(await read(null)).toBeNull();
    expect(await read(VERA)).toBeNull();
    expect(await read(OMAR)).toBeNull();
    expect((await read(SARAH))?.liveShopName).toBe("Sarah's Vintage");
    expect((await read(ADA))?.shows).toEqual([{ _id: streamId, streamTitle: "Denim drop" }]);
    // Another seller's show cannot be read through one's own shop.
    expect(await read(SARAH, omarStreamId)).toBeNull();
  });

  test("reads a show older than the newest listed, and lists it", async () => {
    const t = newTest();
    const { shopId, streamId } = await setUp(t);
    await t.run(async (ctx) => {
      for (let index = 0; index < INSIGHTS_SHOWS_LISTED; index++)
        await insertStream(ctx, {
          liveShopId: shopId,
          streamTitle: `Later show ${index}`,
          streamStatus: "SCHEDULED",
          streamStartUTC: Date.now() + (index + 1) * 3_600_000,
        });
    });
    await t.mutation(api.insights.record, view(streamId));
    const insights = await t
      .withIdentity(SARAH)
      .query(api.insights.forShop, { liveShopId: shopId, streamId });
    expect(insights?.totals.view).toBe(1);
    expect(insights?.shows).toHaveLength(INSIGHTS_SHOWS_LISTED + 1);
    expect(insights?.shows.at(-1)).toEqual({ _id: streamId, streamTitle: "Denim drop" });
  });

  test("a deleted shop's counts go with it", async () => {
    const t = newTest();
    const { shopId, streamId } = await setUp(t);
    await t.mutation(api.insights.record, view(streamId));
    const { deleteShopCascade } = await import("./model/cascade");
    await t.run(async (ctx) => await deleteShopCascade(ctx, shopId));
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    expect(await t.run(async (ctx) => await ctx.db.query("insightHours").collect())).toEqual([]);
  });
});
