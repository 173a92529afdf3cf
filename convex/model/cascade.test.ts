import { convexTest } from "convex-test";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import type { Id, TableNames } from "../_generated/dataModel";
import schema from "../schema";
import { modules, newTest } from "../test.setup";
import { CASCADE_BATCH_SIZE, deleteShopCascade, deleteStreamCascade, deleteUserCascade } from "./cascade";
import { insertLiveShop, linkShopCategory, linkShopMsa } from "./liveShops";
import { insertStream, insertStreamPlatform, linkStreamCategory, linkStreamMsa } from "./streams";
import { insertWithTimestamps } from "./timestamps";
import { insertUser } from "./users";

type Backend = ReturnType<typeof newTest>;
type Ctx = Parameters<Parameters<Backend["run"]>[0]>[0];

const OWNED_TABLES = [
  "users",
  "liveShops",
  "streams",
  "liveShopStreams",
  "streamPlatforms",
  "streamCategories",
  "streamMsas",
  "liveShopCategories",
  "liveShopMsas",
  "savedStreams",
  "shopFollows",
  "goLiveAlerts",
  "calendarFeeds",
] as const satisfies readonly TableNames[];

async function countRows(t: Backend): Promise<Record<(typeof OWNED_TABLES)[number], number>> {
  const counts = {} as Record<(typeof OWNED_TABLES)[number], number>;
  // One transaction per table keeps the count itself within the tightened limits below.
  for (const table of OWNED_TABLES) {
    counts[table] = await t.run(async (ctx) => (await ctx.db.query(table).collect()).length);
  }
  return counts;
}

async function insertReferenceRows(ctx: Ctx) {
  await insertWithTimestamps(ctx, "categories", { categoryId: "fashion_apparel", label: "Fashion" });
  await insertWithTimestamps(ctx, "categories", {
    categoryId: "clothing",
    label: "Clothing",
    parentCategoryId: "fashion_apparel",
  });
  return await insertWithTimestamps(ctx, "msas", {
    cbsaCode: "35620",
    msaLabel: "New York-Newark-Jersey City, NY-NJ-PA",
    states: ["NY", "NJ", "PA"],
    coordinatesLat: 40.7,
    coordinatesLng: -74,
  });
}

/** A shop with its category and metro area, and streams each linked to a platform, category and metro area. */
async function insertShopWithStreams(
  ctx: Ctx,
  userId: Id<"users">,
  slug: string,
  msaId: Id<"msas">,
  streamCount: number,
) {
  const liveShopId = await insertLiveShop(ctx, { userId, liveShopName: slug, slug, status: "active" });
  await linkShopCategory(ctx, liveShopId, { categoryId: "fashion_apparel" });
  await linkShopMsa(ctx, liveShopId, msaId);
  const streamIds: Id<"streams">[] = [];
  for (let i = 0; i < streamCount; i++) {
    const streamId = await insertStream(ctx, { liveShopId, streamTitle: `${slug} show ${i}` });
    await insertStreamPlatform(ctx, streamId, {
      platformType: "whatnot",
      platformStreamUrl: "https://whatnot.com/live/x",
    });
    await linkStreamCategory(ctx, streamId, { categoryId: "fashion_apparel", subcategoryId: "clothing" });
    await linkStreamMsa(ctx, streamId, msaId);
    streamIds.push(streamId);
  }
  return { liveShopId, streamIds };
}

/** A go-live alert of the user's about one of the shop's streams. */
async function insertAlert(
  ctx: Ctx,
  userId: Id<"users">,
  shop: { liveShopId: Id<"liveShops">; streamIds: Id<"streams">[] },
  index = 0,
) {
  await insertWithTimestamps(ctx, "goLiveAlerts", {
    userId,
    streamId: shop.streamIds[index],
    liveShopId: shop.liveShopId,
    reason: "saved",
  });
}

/** The user's calendar feed. */
async function insertFeed(ctx: Ctx, userId: Id<"users">, name: string) {
  await insertWithTimestamps(ctx, "calendarFeeds", {
    userId,
    token: `${name}FeedToken`.padEnd(43, "x"),
    appOrigin: "https://app.test",
  });
}

async function scheduledRuns(t: Backend) {
  return await t.run(async (ctx) => await ctx.db.system.query("_scheduled_functions").collect());
}

describe("cascade deletion", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test("deleting Sarah removes her two shops, their streams and every link, her saves, follows, alerts and feed; Omar's and Lee's data stays", async () => {
    const t = newTest();
    const ids = await t.run(async (ctx) => {
      const msaId = await insertReferenceRows(ctx);
      const sarah = await insertUser(ctx, {
        clerkId: "user_sarah",
        email: "sarah@livelocal.test",
        role: "seller",
      });
      const omar = await insertUser(ctx, {
        clerkId: "user_omar",
        email: "omar@livelocal.test",
        role: "seller",
      });
      const lee = await insertUser(ctx, { clerkId: "user_lee", email: "lee@livelocal.test" });
      const vintage = await insertShopWithStreams(ctx, sarah, "sarahs-vintage", msaId, 2);
      const records = await insertShopWithStreams(ctx, sarah, "sarahs-records", msaId, 3);
      const omars = await insertShopWithStreams(ctx, omar, "omars", msaId, 1);
      // Sarah's own watch list and follows, pointing at Omar's shop.
      await insertWithTimestamps(ctx, "savedStreams", { userId: sarah, streamId: omars.streamIds[0] });
      await insertWithTimestamps(ctx, "shopFollows", { userId: sarah, liveShopId: omars.liveShopId });
      await insertAlert(ctx, sarah, omars);
      await insertFeed(ctx, sarah, "sarah");
      // Lee saves and follows both sellers.
      await insertWithTimestamps(ctx, "savedStreams", { userId: lee, streamId: vintage.streamIds[0] });
      await insertWithTimestamps(ctx, "savedStreams", { userId: lee, streamId: records.streamIds[2] });
      await insertWithTimestamps(ctx, "savedStreams", { userId: lee, streamId: omars.streamIds[0] });
      await insertWithTimestamps(ctx, "shopFollows", { userId: lee, liveShopId: vintage.liveShopId });
      await insertWithTimestamps(ctx, "shopFollows", { userId: lee, liveShopId: omars.liveShopId });
      // Lee was told when a show of each seller went live, and has a feed.
      await insertAlert(ctx, lee, vintage);
      await insertAlert(ctx, lee, omars);
      await insertFeed(ctx, lee, "lee");
      const requestId = await insertWithTimestamps(ctx, "privacyRequests", {
        userId: sarah,
        type: "correction",
        status: "completed",
        reason: "My address is wrong",
        details: "It is 12 Main St",
        requestedAt: 1_000,
        dueAt: 2_000,
        decidedAt: 1_500,
        decisionReason: "Corrected for Sarah",
      });
      return { sarah, omars, requestId };
    });

    await t.run(async (ctx) => await deleteUserCascade(ctx, ids.sarah));
    await t.finishAllScheduledFunctions(vi.runAllTimers);

    // What remains is exactly Omar's shop with its one stream and links, and Lee's rows about Omar.
    expect(await countRows(t)).toEqual({
      users: 2,
      liveShops: 1,
      streams: 1,
      liveShopStreams: 1,
      streamPlatforms: 1,
      streamCategories: 1,
      streamMsas: 1,
      liveShopCategories: 1,
      liveShopMsas: 1,
      savedStreams: 1,
      shopFollows: 1,
      goLiveAlerts: 1,
      calendarFeeds: 1,
    });
    const left = await t.run(async (ctx) => ({
      shop: await ctx.db.get("liveShops", ids.omars.liveShopId),
      stream: await ctx.db.get("streams", ids.omars.streamIds[0]),
      request: await ctx.db.get("privacyRequests", ids.requestId),
    }));
    expect(left.shop).not.toBeNull();
    expect(left.stream).not.toBeNull();
    expect(left.request).toMatchObject({ type: "correction", status: "completed", requestedAt: 1_000 });
    expect(left.request).not.toHaveProperty("userId");
    expect(left.request).not.toHaveProperty("reason");
    expect(left.request).not.toHaveProperty("details");
    expect(left.request).not.toHaveProperty("decisionReason");
  });

  test("the user row is gone at once, before the rest is cleaned up", async () => {
    const t = newTest();
    const sarah = await t.run(async (ctx) => {
      const msaId = await insertReferenceRows(ctx);
      const userId = await insertUser(ctx, { clerkId: "user_sarah", email: "sarah@livelocal.test" });
      await insertShopWithStreams(ctx, userId, "sarahs-vintage", msaId, 1);
      return userId;
    });
    await t.run(async (ctx) => {
      await deleteUserCascade(ctx, sarah);
      expect(await ctx.db.get("users", sarah)).toBeNull();
    });
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    expect((await countRows(t)).liveShops).toBe(0);
  });

  test("deleting twice is harmless", async () => {
    const t = newTest();
    const sarah = await t.run(async (ctx) => {
      const msaId = await insertReferenceRows(ctx);
      const userId = await insertUser(ctx, { clerkId: "user_sarah", email: "sarah@livelocal.test" });
      await insertShopWithStreams(ctx, userId, "sarahs-vintage", msaId, 2);
      return userId;
    });
    await t.run(async (ctx) => await deleteUserCascade(ctx, sarah));
    await t.run(async (ctx) => await deleteUserCascade(ctx, sarah));
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    expect(Object.values(await countRows(t)).every((count) => count === 0)).toBe(true);
  });

  test("a big account is deleted in several transactions, each within Convex's limits", async () => {
    // Tighter than Convex's own limits, so one transaction deleting everything would fail here.
    const t = convexTest({
      schema,
      modules,
      transactionLimits: {
        documentsWritten: CASCADE_BATCH_SIZE + 100,
        documentsRead: 2 * CASCADE_BATCH_SIZE,
      },
    });
    const STREAMS = 200;
    const SAVERS = 400;
    const { sarah, msaId } = await t.run(async (ctx) => ({
      msaId: await insertReferenceRows(ctx),
      sarah: await insertUser(ctx, { clerkId: "user_sarah", email: "sarah@livelocal.test", role: "seller" }),
    }));
    const { liveShopId, streamIds } = await t.run(
      async (ctx) => await insertShopWithStreams(ctx, sarah, "sarahs-vintage", msaId, 0),
    );
    for (let chunk = 0; chunk < STREAMS / 50; chunk++) {
      await t.run(async (ctx) => {
        for (let i = 0; i < 50; i++) {
          const streamId = await insertStream(ctx, { liveShopId, streamTitle: `Show ${chunk}-${i}` });
          await insertStreamPlatform(ctx, streamId, { platformType: "tiktok" });
          await linkStreamCategory(ctx, streamId, { categoryId: "fashion_apparel" });
          await linkStreamMsa(ctx, streamId, msaId);
          streamIds.push(streamId);
        }
      });
    }
    // One popular show saved by 400 people: more links than one batch holds.
    for (let chunk = 0; chunk < SAVERS / 100; chunk++) {
      await t.run(async (ctx) => {
        for (let i = 0; i < 100; i++) {
          const userId = await insertUser(ctx, {
            clerkId: `user_fan_${chunk}_${i}`,
            email: `fan-${chunk}-${i}@livelocal.test`,
          });
          await insertWithTimestamps(ctx, "savedStreams", { userId, streamId: streamIds[0] });
        }
      });
    }
    const before = await countRows(t);
    const links =
      before.liveShopStreams +
      before.streamPlatforms +
      before.streamCategories +
      before.streamMsas +
      before.savedStreams;
    expect(links).toBe(STREAMS * 4 + SAVERS);

    await t.run(async (ctx) => await deleteUserCascade(ctx, sarah));
    expect((await countRows(t)).streams).toBeGreaterThan(0);
    await t.finishAllScheduledFunctions(vi.runAllTimers);

    const runs = await scheduledRuns(t);
    expect(runs.length).toBeGreaterThanOrEqual(Math.floor((STREAMS * 5 + SAVERS) / CASCADE_BATCH_SIZE));
    expect(runs.every((run) => run.state.kind === "success")).toBe(true);
    expect(await countRows(t)).toMatchObject({
      users: SAVERS,
      liveShops: 0,
      streams: 0,
      liveShopStreams: 0,
      streamPlatforms: 0,
      streamCategories: 0,
      streamMsas: 0,
      liveShopCategories: 0,
      liveShopMsas: 0,
      savedStreams: 0,
    });
  });

  test("deleting a stream removes it at once and its links, saves and alerts, leaving the shop's other streams", async () => {
    const t = newTest();
    const shop = await t.run(async (ctx) => {
      const msaId = await insertReferenceRows(ctx);
      const sarah = await insertUser(ctx, { clerkId: "user_sarah", email: "sarah@livelocal.test" });
      const lee = await insertUser(ctx, { clerkId: "user_lee", email: "lee@livelocal.test" });
      const shop = await insertShopWithStreams(ctx, sarah, "sarahs-vintage", msaId, 2);
      await insertWithTimestamps(ctx, "savedStreams", { userId: lee, streamId: shop.streamIds[0] });
      await insertAlert(ctx, lee, shop, 0);
      await insertAlert(ctx, lee, shop, 1);
      return shop;
    });
    await t.run(async (ctx) => {
      await deleteStreamCascade(ctx, shop.streamIds[0]);
      expect(await ctx.db.get("streams", shop.streamIds[0])).toBeNull();
    });
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    expect(await countRows(t)).toMatchObject({
      users: 2,
      liveShops: 1,
      streams: 1,
      liveShopStreams: 1,
      streamPlatforms: 1,
      streamCategories: 1,
      streamMsas: 1,
      liveShopCategories: 1,
      liveShopMsas: 1,
      savedStreams: 0,
      goLiveAlerts: 1,
    });
  });

  test("deleting a shop removes it, its streams and every link, follows, saves and alerts, and keeps its owner", async () => {
    const t = newTest();
    const { sarah, vintage } = await t.run(async (ctx) => {
      const msaId = await insertReferenceRows(ctx);
      const sarah = await insertUser(ctx, { clerkId: "user_sarah", email: "sarah@livelocal.test" });
      const lee = await insertUser(ctx, { clerkId: "user_lee", email: "lee@livelocal.test" });
      const vintage = await insertShopWithStreams(ctx, sarah, "sarahs-vintage", msaId, 2);
      await insertShopWithStreams(ctx, sarah, "sarahs-records", msaId, 1);
      await insertWithTimestamps(ctx, "shopFollows", { userId: lee, liveShopId: vintage.liveShopId });
      await insertWithTimestamps(ctx, "savedStreams", { userId: lee, streamId: vintage.streamIds[1] });
      await insertAlert(ctx, lee, vintage, 1);
      await insertFeed(ctx, lee, "lee");
      return { sarah, vintage };
    });
    await t.run(async (ctx) => {
      await deleteShopCascade(ctx, vintage.liveShopId);
      expect(await ctx.db.get("liveShops", vintage.liveShopId)).toBeNull();
    });
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    expect(await countRows(t)).toMatchObject({
      users: 2,
      liveShops: 1,
      streams: 1,
      liveShopStreams: 1,
      streamPlatforms: 1,
      liveShopCategories: 1,
      liveShopMsas: 1,
      savedStreams: 0,
      shopFollows: 0,
      goLiveAlerts: 0,
      calendarFeeds: 1,
    });
    expect(await t.run(async (ctx) => await ctx.db.get("users", sarah))).not.toBeNull();
  });
});
