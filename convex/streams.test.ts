import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { insertLiveShop, patchLiveShop } from "./model/liveShops";
import { insertStream } from "./model/streams";
import { insertUser } from "./model/users";
import { newTest } from "./test.setup";

const HOUR = 3_600_000;
const sarah = { subject: "user_sarah", email: "sarah@livelocal.test" };

async function setUp() {
  const t = newTest();
  const ids = await t.run(async (ctx) => {
    const userId = await insertUser(ctx, { clerkId: sarah.subject, email: sarah.email, role: "seller" });
    const liveShopId = await insertLiveShop(ctx, {
      userId,
      liveShopName: "Sarah's Vintage",
      slug: "sarahs-vintage",
      status: "active",
    });
    const scheduled = await insertStream(ctx, {
      liveShopId,
      streamTitle: "Denim drop",
      streamStatus: "SCHEDULED",
      streamStartUTC: Date.now() + HOUR,
      streamStopUTC: Date.now() + 2 * HOUR,
    });
    const draft = await insertStream(ctx, { liveShopId, streamTitle: "Untimed draft" });
    return { liveShopId, scheduled, draft };
  });
  return { t, ...ids, seller: t.withIdentity(sarah) };
}

async function statusOf(t: ReturnType<typeof newTest>, streamId: Id<"streams">) {
  return await t.run(async (ctx) => (await ctx.db.get("streams", streamId))?.streamStatus);
}

describe("streams", () => {
  test("the owner takes a scheduled stream live and it appears on the live-now board", async () => {
    const { t, seller, scheduled } = await setUp();
    expect(await t.query(api.streams.listLiveNow, {})).toEqual([]);
    await seller.mutation(api.streams.setStreamStatus, { streamId: scheduled, status: "LIVE" });
    const live = await t.query(api.streams.listLiveNow, {});
    expect(live.map((card) => [card.streamTitle, card.streamStatus])).toEqual([["Denim drop", "LIVE"]]);
  });

  test("a transition the lifecycle forbids is refused with its code and changes nothing", async () => {
    const { t, seller, draft } = await setUp();
    await expect(
      seller.mutation(api.streams.setStreamStatus, { streamId: draft, status: "SCHEDULED" }),
    ).rejects.toMatchObject({ data: { code: "MISSING_TIMES" } });
    await expect(
      seller.mutation(api.streams.setStreamStatus, { streamId: draft, status: "ENDED" }),
    ).rejects.toMatchObject({ data: { code: "INVALID_TRANSITION" } });
    expect(await statusOf(t, draft)).toBe("CREATED");
  });

  test("going live without a start time records now as the start", async () => {
    const { t, seller, draft } = await setUp();
    const before = Date.now();
    await seller.mutation(api.streams.setStreamStatus, { streamId: draft, status: "LIVE" });
    const start = await t.run(async (ctx) => (await ctx.db.get("streams", draft))?.streamStartUTC);
    expect(start).toBeGreaterThanOrEqual(before);
  });

  test("streams of a shop that is not active are not on the live-now board", async () => {
    const { t, seller, scheduled, liveShopId } = await setUp();
    await seller.mutation(api.streams.setStreamStatus, { streamId: scheduled, status: "LIVE" });
    await t.run(async (ctx) => await patchLiveShop(ctx, liveShopId, { status: "suspended" }));
    expect(await t.query(api.streams.listLiveNow, {})).toEqual([]);
  });

  test("a seller's dashboard lists their own shops and streams only", async () => {
    const { t, seller } = await setUp();
    await t.run(async (ctx) => {
      const omar = await insertUser(ctx, { clerkId: "user_omar", email: "omar@livelocal.test" });
      const shop = await insertLiveShop(ctx, { userId: omar, liveShopName: "Omar's", slug: "omars" });
      await insertStream(ctx, { liveShopId: shop, streamTitle: "Not Sarah's" });
    });
    const mine = await seller.query(api.streams.listMyStreams, {});
    expect(mine.map((shop) => shop.liveShopName)).toEqual(["Sarah's Vintage"]);
    expect(mine[0]?.streams.map((stream) => stream.streamTitle).sort()).toEqual([
      "Denim drop",
      "Untimed draft",
    ]);
  });

  test("an admin may cancel any shop's stream but not take it live", async () => {
    const { t, scheduled } = await setUp();
    await t.run(
      async (ctx) =>
        await insertUser(ctx, { clerkId: "user_ada", email: "ada@livelocal.test", role: "admin" }),
    );
    const admin = t.withIdentity({ subject: "user_ada", email: "ada@livelocal.test" });
    await expect(
      admin.mutation(api.streams.setStreamStatus, { streamId: scheduled, status: "LIVE" }),
    ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
    await admin.mutation(api.streams.setStreamStatus, { streamId: scheduled, status: "CANCELLED" });
    expect(await statusOf(t, scheduled)).toBe("CANCELLED");
  });
});
