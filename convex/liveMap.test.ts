import { describe, expect, test } from "vitest";
import { api, internal } from "./_generated/api";
import type { Doc, Id } from "./_generated/dataModel";
import { emptyExploreFilter } from "./lib/explore";
import { calendarDay, planExploreWhen, inStartWindow } from "./lib/exploreWhen";
import { isStreamListedPublicly } from "./lib/lifecycle";
import { deleteStreamCascade } from "./model/cascade";
import { changeShopStatus, getLiveShopBySlug, patchLiveShop } from "./model/liveShops";
import { deleteAccount } from "./model/privacy";
import { publicShopStatus } from "./model/restriction";
import { insertStream, linkStreamMsa } from "./model/streams";
import { countDocsRead, newSeededTest, type newTest, writeWithTriggers } from "./test.setup";

type Backend = ReturnType<typeof newTest>;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ADMIN = { isOwner: false, isAdmin: true };
const NEW_YORK = "America/New_York";

const viewerDay = (timeZone = NEW_YORK, at = Date.now()) => ({ day: calendarDay(at, timeZone), timeZone });

async function mapCounts(t: Backend, args = viewerDay()) {
  const areas = await t.query(api.liveMap.listAreas, args);
  return areas.map(({ cbsaCode, onNow, today, week }) => ({ cbsaCode, onNow, today, week }));
}

/**
 * What the map should say, worked out from the source tables with the shared rules only: per metro
 * area of every publicly listed stream, the shows on now, and those on now or starting in explore's
 * today and next-7-days windows.
 */
async function expectedCounts(t: Backend, args = viewerDay()) {
  const today = planExploreWhen({ when: "today", ...args }).upcoming ?? {};
  const week = planExploreWhen({ when: "week", ...args }).upcoming ?? {};
  return await t.run(async (ctx) => {
    const areas = new Map<string, { cbsaCode: string; onNow: number; today: number; week: number }>();
    for (const stream of await ctx.db.query("streams").collect()) {
      const shop = await ctx.db.get("liveShops", stream.liveShopId);
      if (!shop || !isStreamListedPublicly(stream.streamStatus, publicShopStatus(shop))) continue;
      const onNow = stream.streamStatus === "LIVE" || stream.streamStatus === "PAUSED";
      const start = stream.streamStartUTC ?? Infinity;
      const scheduled = stream.streamStatus === "SCHEDULED";
      const links = await ctx.db
        .query("streamMsas")
        .withIndex("by_streamId_and_msaId", (q) => q.eq("streamId", stream._id))
        .collect();
      for (const link of links) {
        const msa = await ctx.db.get("msas", link.msaId);
        if (!msa) continue;
        const area = areas.get(msa.cbsaCode) ?? { cbsaCode: msa.cbsaCode, onNow: 0, today: 0, week: 0 };
        area.onNow += onNow ? 1 : 0;
        area.today += onNow || (scheduled && inStartWindow(start, today)) ? 1 : 0;
        area.week += onNow || (scheduled && inStartWindow(start, week)) ? 1 : 0;
        areas.set(msa.cbsaCode, area);
      }
    }
    return [...areas.values()].filter((area) => area.week > 0);
  });
}

const byCode = <T extends { cbsaCode: string }>(areas: T[]) =>
  [...areas].sort((a, b) => (a.cbsaCode < b.cbsaCode ? -1 : 1));

async function expectMapTrue(t: Backend, args = viewerDay()) {
  expect(byCode(await mapCounts(t, args))).toEqual(byCode(await expectedCounts(t, args)));
}

async function streamByTitle(t: Backend, title: string): Promise<Doc<"streams">> {
  const stream = await t.run(async (ctx) =>
    (await ctx.db.query("streams").collect()).find((candidate) => candidate.streamTitle === title),
  );
  if (!stream) throw new Error(`No stream "${title}".`);
  return stream;
}

async function ownerOf(t: Backend, stream: Doc<"streams">) {
  const owner = await t.run(async (ctx) => {
    const shop = await ctx.db.get("liveShops", stream.liveShopId);
    return shop ? await ctx.db.get("users", shop.userId) : null;
  });
  if (!owner) throw new Error("No owner.");
  return { owner, as: t.withIdentity({ subject: owner.clerkId, email: owner.email }) };
}

async function areaOf(t: Backend, streamId: Id<"streams">): Promise<string> {
  return await t.run(async (ctx) => {
    const link = await ctx.db
      .query("streamMsas")
      .withIndex("by_streamId_and_msaId", (q) => q.eq("streamId", streamId))
      .first();
    const msa = link && (await ctx.db.get("msas", link.msaId));
    if (!msa) throw new Error("The stream has no metro area.");
    return msa.cbsaCode;
  });
}

async function msaId(t: Backend, cbsaCode: string): Promise<Id<"msas">> {
  const msa = await t.run((ctx) =>
    ctx.db
      .query("msas")
      .withIndex("by_cbsaCode", (q) => q.eq("cbsaCode", cbsaCode))
      .unique(),
  );
  if (!msa) throw new Error(`No metro area ${cbsaCode}.`);
  return msa._id;
}

const SCHEDULED_TITLE = "Kiln opening: fresh mugs, ramen bowls and bud vases";

describe("the live map's query", () => {
  test("counts each area's shows on now, today and this week, as explore's windows do", async () => {
    const t = await newSeededTest();
    const areas = await t.query(api.liveMap.listAreas, viewerDay());
    expect(areas.length).toBeGreaterThan(3);
    expect(areas.some((area) => area.onNow > 0)).toBe(true);
    await expectMapTrue(t);
    // Days are the viewer's: another zone's windows, and one whose midnight is on a quarter hour.
    await expectMapTrue(t, viewerDay("America/Los_Angeles"));
    await expectMapTrue(t, viewerDay("Asia/Kathmandu"));
    // Busiest first.
    const onNow = areas.map((area) => area.onNow);
    expect(onNow).toEqual([...onNow].sort((a, b) => b - a));
  });

  test("names each area's next shows: the first of its explore list", async () => {
    const t = await newSeededTest();
    for (const area of await t.query(api.liveMap.listAreas, viewerDay())) {
      const list = await t.query(api.explore.listExploreStreams, {
        filter: { ...emptyExploreFilter(), msas: [area.cbsaCode] },
        paginationOpts: { numItems: 3, cursor: null },
      });
      expect(area.next.map((show) => show._id)).toEqual(list.page.map((card) => card._id));
    }
  });

  test("stays true as time passes without a write", async () => {
    const t = await newSeededTest();
    const stream = await streamByTitle(t, SCHEDULED_TITLE);
    expect(stream.streamStatus).toBe("SCHEDULED");
    const code = await areaOf(t, stream._id);
    const area = await msaId(t, code);
    await writeWithTriggers(t, async (ctx) => {
      const id = await insertStream(ctx, {
        liveShopId: stream.liveShopId,
        streamTitle: "Three days out",
        streamStatus: "SCHEDULED",
        streamStartUTC: Date.now() + 3 * DAY,
        streamStopUTC: Date.now() + 3 * DAY + HOUR,
      });
      await linkStreamMsa(ctx, id, area);
    });
    for (const offset of [0, 1, 2, 3, 4, 9]) {
      await expectMapTrue(t, viewerDay(NEW_YORK, Date.now() + offset * DAY));
    }
    const threeDaysOn = (await mapCounts(t, viewerDay(NEW_YORK, Date.now() + 3 * DAY))).find(
      (area) => area.cbsaCode === code,
    );
    expect(threeDaysOn?.today).toBeGreaterThanOrEqual(1);
  });

  test("refuses a day or zone it cannot read, in words", async () => {
    const t = await newSeededTest();
    await expect(t.query(api.liveMap.listAreas, { day: "tomorrow", timeZone: NEW_YORK })).rejects.toThrow(
      "need your calendar day",
    );
    await expect(
      t.query(api.liveMap.listAreas, { day: "2026-11-21", timeZone: "Mars/Olympus" }),
    ).rejects.toThrow("need your time zone");
  });

  test("reads as many documents however many shows its areas have", async () => {
    const t = await newSeededTest();
    const stream = await streamByTitle(t, SCHEDULED_TITLE);
    const code = await areaOf(t, stream._id);
    const area = await msaId(t, code);
    const args = viewerDay();
    const read = async () =>
      (await countDocsRead(async () => await t.query(api.liveMap.listAreas, args))).docsRead;
    // Enough shows in the area that it names three, then many more of them on the same days.
    const addShows = async (count: number) =>
      await writeWithTriggers(t, async (ctx) => {
        for (let index = 0; index < count; index++) {
          const id = await insertStream(ctx, {
            liveShopId: stream.liveShopId,
            streamTitle: `Pop-up ${index}`,
            streamStatus: "SCHEDULED",
            streamStartUTC: Date.now() + (index % 5) * DAY + HOUR,
            streamStopUTC: Date.now() + (index % 5) * DAY + 2 * HOUR,
          });
          await linkStreamMsa(ctx, id, area);
        }
      });
    await addShows(5);
    const before = await read();
    await addShows(200);
    expect(await read()).toBe(before);
    await expectMapTrue(t, args);
  });
});

describe("the live map's summary follows every write to a stream's listing", () => {
  test("each lifecycle transition through the public mutations", async () => {
    const t = await newSeededTest();
    const stream = await streamByTitle(t, SCHEDULED_TITLE);
    const code = await areaOf(t, stream._id);
    const { as: seller } = await ownerOf(t, stream);
    const areaNow = async () => (await mapCounts(t)).find((area) => area.cbsaCode === code);
    const before = await areaNow();

    await seller.mutation(api.streams.setStreamStatus, { streamId: stream._id, status: "LIVE" });
    expect((await areaNow())?.onNow).toBe((before?.onNow ?? 0) + 1);
    await expectMapTrue(t);
    await seller.mutation(api.streams.setStreamStatus, { streamId: stream._id, status: "PAUSED" });
    expect((await areaNow())?.onNow).toBe((before?.onNow ?? 0) + 1);
    await seller.mutation(api.streams.setStreamStatus, { streamId: stream._id, status: "LIVE" });
    await seller.mutation(api.streams.setStreamStatus, { streamId: stream._id, status: "ENDED" });
    await expectMapTrue(t);
    expect((await areaNow())?.onNow ?? 0).toBe(before?.onNow ?? 0);

    // A draft is not listed; scheduling it lists it, back to draft and cancelling take it off.
    const area = await msaId(t, code);
    const draft = await writeWithTriggers(t, async (ctx) => {
      const id = await insertStream(ctx, {
        liveShopId: stream.liveShopId,
        streamTitle: "Tomorrow's glaze test",
        streamStatus: "CREATED",
        streamStartUTC: Date.now() + 2 * HOUR,
        streamStopUTC: Date.now() + 3 * HOUR,
      });
      await linkStreamMsa(ctx, id, area);
      return id;
    });
    const weekBefore = (await areaNow())?.week ?? 0;
    await seller.mutation(api.streams.setStreamStatus, { streamId: draft, status: "SCHEDULED" });
    expect((await areaNow())?.week).toBe(weekBefore + 1);
    await seller.mutation(api.streams.setStreamStatus, { streamId: draft, status: "CREATED" });
    expect((await areaNow())?.week ?? 0).toBe(weekBefore);
    await seller.mutation(api.streams.setStreamStatus, { streamId: draft, status: "SCHEDULED" });
    await seller.mutation(api.streams.setStreamStatus, { streamId: draft, status: "CANCELLED" });
    expect((await areaNow())?.week ?? 0).toBe(weekBefore);
    await expectMapTrue(t);
  });

  test("deleting a stream, suspending its shop and erasing its owner take it off the map", async () => {
    const t = await newSeededTest();
    const stream = await streamByTitle(t, SCHEDULED_TITLE);
    const { owner } = await ownerOf(t, stream);
    await writeWithTriggers(t, (ctx) => deleteStreamCascade(ctx, stream._id));
    await t.finishAllScheduledFunctions(() => undefined);
    await expectMapTrue(t);

    const shop = await t.run((ctx) => getLiveShopBySlug(ctx, "windy-city-card-breaks"));
    if (!shop) throw new Error("No shop.");
    const chicago = async () => (await mapCounts(t)).find((area) => area.cbsaCode === "16980");
    const before = await chicago();
    await writeWithTriggers(t, (ctx) =>
      changeShopStatus(ctx, shop, ADMIN, "suspended", "Counterfeit slabs."),
    );
    await t.finishAllScheduledFunctions(() => undefined);
    await expectMapTrue(t);
    expect((await chicago())?.week ?? 0).toBeLessThan(before?.week ?? 0);

    // Restricting the owner's processing (GDPR article 18) hides their shows as a suspension does.
    const other = await t.run(async (ctx) => await ctx.db.get("liveShops", stream.liveShopId));
    if (!other) throw new Error("No shop.");
    await writeWithTriggers(t, (ctx) => patchLiveShop(ctx, other._id, { ownerRestricted: true }));
    await t.finishAllScheduledFunctions(() => undefined);
    await expectMapTrue(t);
    await writeWithTriggers(t, (ctx) => patchLiveShop(ctx, other._id, { ownerRestricted: undefined }));
    await t.finishAllScheduledFunctions(() => undefined);
    await expectMapTrue(t);

    // Erasing the account deletes its shops and shows, and their counts with them.
    await writeWithTriggers(
      t,
      async (ctx) => await deleteAccount(ctx, (await ctx.db.get("users", owner._id))!),
    );
    await t.finishAllScheduledFunctions(() => undefined);
    await expectMapTrue(t);
    const rows = await t.run(async (ctx) => ({
      areas: await ctx.db.query("mapAreas").collect(),
      days: await ctx.db.query("mapAreaDays").collect(),
    }));
    expect(rows.areas.every((area) => area.onNow >= 0 && area.upcoming >= 0)).toBe(true);
    expect(rows.days.every((day) => day.quarters.every((value) => value >= 0))).toBe(true);
  });

  test("the migration rebuilds the same summary from the stream lists", async () => {
    const t = await newSeededTest();
    const snapshot = async () =>
      await t.run(async (ctx) => ({
        areas: (await ctx.db.query("mapAreas").collect()).map(({ cbsaCode, onNow, upcoming }) => ({
          cbsaCode,
          onNow,
          upcoming,
        })),
        days: (await ctx.db.query("mapAreaDays").collect()).map(({ cbsaCode, day, quarters }) => ({
          cbsaCode,
          day,
          quarters,
        })),
      }));
    const before = await snapshot();
    expect(before.areas.length).toBeGreaterThan(0);
    await t.run(async (ctx) => {
      for (const row of await ctx.db.query("mapAreas").collect())
        await ctx.db.patch("mapAreas", row._id, { onNow: 99 });
    });
    await t.mutation(internal.liveMap.rebuild, {});
    await t.finishAllScheduledFunctions(() => undefined);
    expect(byCode((await snapshot()).areas)).toEqual(byCode(before.areas));
    expect((await snapshot()).days).toHaveLength(before.days.length);
  });
});
