import { describe, expect, test } from "vitest";
import { api, internal } from "./_generated/api";
import { DEMO_USERS, DEMO_WATCH_LIST } from "./lib/data/demo";
import { US_STATES } from "./lib/data/states";
import { newTest } from "./test.setup";

describe("seed", () => {
  test("loads 393 metro areas, 52 states, 11 categories, 44 subcategories and 20 streams", async () => {
    const t = newTest();
    await t.mutation(internal.seed.seedAll, {});
    const counts = await t.run(async (ctx) => {
      const msas = await ctx.db.query("msas").collect();
      const categories = await ctx.db.query("categories").collect();
      const streams = await ctx.db.query("streams").collect();
      return {
        msas: msas.length,
        states: new Set(msas.flatMap((msa) => msa.states)).size,
        categories: categories.filter((c) => c.parentCategoryId === undefined).length,
        subcategories: categories.filter((c) => c.parentCategoryId !== undefined).length,
        streams: streams.length,
      };
    });
    expect(counts).toEqual({ msas: 393, states: 52, categories: 11, subcategories: 44, streams: 20 });
  });

  test("every state of the metro areas is one of the 52 reference states", async () => {
    const t = newTest();
    await t.mutation(internal.seed.seedReferenceData, {});
    const states = await t.run(async (ctx) =>
      (await ctx.db.query("msas").collect()).flatMap((msa) => msa.states),
    );
    const known = new Set(US_STATES.map((state) => state.code));
    expect(US_STATES).toHaveLength(52);
    expect(states.filter((state) => !known.has(state))).toEqual([]);
  });

  test("is idempotent: a second run inserts nothing", async () => {
    const t = newTest();
    await t.mutation(internal.seed.seedAll, {});
    const reference = await t.mutation(internal.seed.seedReferenceData, {});
    const demo = await t.mutation(internal.seed.seedDemoData, {});
    expect(reference.categories.inserted + reference.msas.inserted).toBe(0);
    expect(reference.msas.existing).toBe(393);
    expect(demo.users.inserted + demo.shops.inserted + demo.streams).toBe(0);
    const streams = await t.run(async (ctx) => (await ctx.db.query("streams").collect()).length);
    expect(streams).toBe(20);
  });

  test("the demo viewer's watch list has a live show, upcoming ones, a replay and three shops, once", async () => {
    const t = newTest();
    await t.mutation(internal.seed.seedAll, {});
    await t.mutation(internal.seed.seedDemoData, {});
    const viewer = DEMO_USERS.find((user) => user.key === DEMO_WATCH_LIST.userKey)!;
    const list = (await t
      .withIdentity({ subject: viewer.clerkId, email: viewer.email, name: viewer.name })
      .query(api.watchList.myWatchList, {}))!;
    expect(list.counts).toEqual({ savedStreams: 4, followedShops: 3 });
    expect(list.live.filter((stream) => stream.saved)).toHaveLength(1);
    expect(list.upcoming).toHaveLength(2);
    expect(list.ended[0].replayVideoUrl).toMatch(/^https:\/\//);
    expect(list.shops).toHaveLength(3);
    expect(list.unavailable).toEqual({ streamIds: [], liveShopIds: [], shops: [] });
  });

  test("the demo has something live now, something starting within hours and replays of ended shows", async () => {
    const t = newTest();
    const before = Date.now();
    await t.mutation(internal.seed.seedAll, {});
    const streams = await t.run(async (ctx) => await ctx.db.query("streams").collect());
    const live = streams.filter((s) => s.streamStatus === "LIVE");
    expect(live.length).toBeGreaterThanOrEqual(2);
    for (const stream of live) {
      expect(stream.streamStartUTC).toBeLessThanOrEqual(before + 1000);
      expect(stream.streamStopUTC).toBeGreaterThan(before);
    }
    const soon = streams.filter(
      (s) => s.streamStatus === "SCHEDULED" && (s.streamStartUTC ?? 0) < before + 8 * 60 * 60 * 1000,
    );
    expect(soon.length).toBeGreaterThanOrEqual(3);
    const ended = streams.filter((s) => s.streamStatus === "ENDED");
    expect(ended.length).toBeGreaterThanOrEqual(2);
    expect(ended.every((s) => s.replayVideoUrl?.startsWith("https://"))).toBe(true);
  });

  test("the demo's live and ended shows ran as planned: went live at their start, ended at their stop", async () => {
    const t = newTest();
    await t.mutation(internal.seed.seedAll, {});
    const streams = await t.run(async (ctx) => await ctx.db.query("streams").collect());
    for (const stream of streams) {
      const { streamStatus: status, streamStartedUTC: startedAt, streamEndedUTC: endedAt } = stream;
      const ran = status === "LIVE" || status === "PAUSED" || status === "ENDED";
      expect([stream.streamTitle, startedAt]).toEqual([
        stream.streamTitle,
        ran ? stream.streamStartUTC : undefined,
      ]);
      expect([stream.streamTitle, endedAt]).toEqual([
        stream.streamTitle,
        status === "ENDED" ? stream.streamStopUTC : undefined,
      ]);
    }
    expect(streams.filter((stream) => stream.streamEndedUTC !== undefined).length).toBeGreaterThanOrEqual(2);
  });

  test("every demo stream has its shop link row, and shops and streams have their metro areas", async () => {
    const t = newTest();
    await t.mutation(internal.seed.seedAll, {});
    const problems = await t.run(async (ctx) => {
      const issues: string[] = [];
      for (const stream of await ctx.db.query("streams").collect()) {
        const link = await ctx.db
          .query("liveShopStreams")
          .withIndex("by_streamId", (q) => q.eq("streamId", stream._id))
          .unique();
        if (link?.liveShopId !== stream.liveShopId || link.streamStatus !== stream.streamStatus) {
          issues.push(`${stream.streamTitle}: link row`);
        }
        const areas = await ctx.db
          .query("streamMsas")
          .withIndex("by_streamId_and_msaId", (q) => q.eq("streamId", stream._id))
          .collect();
        if (areas.length === 0) issues.push(`${stream.streamTitle}: no metro area`);
      }
      return issues;
    });
    expect(problems).toEqual([]);
  });

  test("demo sellers who chose to show their profile are named on their shops' pages; the others are not", async () => {
    const t = newTest();
    await t.mutation(internal.seed.seedAll, {});
    const owner = async (idOrSlug: string) =>
      (await t.query(api.liveShops.getPublicShop, { idOrSlug }))?.owner;
    expect(await owner("east-austin-denim-co")).toEqual({ name: "Maria Delgado" });
    expect(await owner("crumb-and-crust-bakehouse")).toBeNull();
  });
});
