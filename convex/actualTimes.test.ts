/**
 * A show that goes live early or ends early (issue 41, decision 058): what happened is recorded by the
 * lifecycle's mutations and is what every query's card, page and feed carry, with the plan kept for
 * what has not happened yet.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { shownStreamTimes } from "./lib/shownTimes";
import { insertStream } from "./model/streams";
import { insertWithTimestamps } from "./model/timestamps";
import { insertUser } from "./model/users";
import { createSellerWithShop, newTest } from "./test.setup";

type Backend = ReturnType<typeof newTest>;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
// Nov 28, 2026, 17:00 UTC; the show is planned for Dec 3, 7:00–8:30 PM Eastern.
const NOV_28 = Date.UTC(2026, 10, 28, 17);
const PLANNED_START = Date.UTC(2026, 11, 4, 0);
const PLANNED_STOP = PLANNED_START + 90 * MINUTE;
const SARAH = { subject: "user_sarah", email: "sarah@livelocal.test" };
const ADA = { subject: "user_ada", email: "ada@livelocal.test" };
const VERA = { subject: "user_vera", email: "vera@livelocal.test" };

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOV_28);
});
afterEach(() => vi.useRealTimers());

async function setUp(t: Backend) {
  return await t.run(async (ctx) => {
    const { liveShopId } = await createSellerWithShop(ctx, { status: "active" });
    await insertUser(ctx, { clerkId: ADA.subject, email: ADA.email, role: "admin" });
    const veraId = await insertUser(ctx, { clerkId: VERA.subject, email: VERA.email });
    const plan = { liveShopId, streamStatus: "SCHEDULED" as const, streamStopUTC: PLANNED_STOP };
    const early = await insertStream(ctx, {
      ...plan,
      streamTitle: "Holiday denim",
      streamStartUTC: PLANNED_START,
    });
    const other = await insertStream(ctx, {
      ...plan,
      streamTitle: "Cut short",
      streamStartUTC: PLANNED_START,
    });
    for (const streamId of [early, other])
      await insertWithTimestamps(ctx, "savedStreams", { userId: veraId, streamId });
    return { liveShopId, early, other };
  });
}

async function setStatus(
  t: Backend,
  who: typeof SARAH,
  streamId: Id<"streams">,
  status: "LIVE" | "PAUSED" | "ENDED",
  reason?: string,
) {
  await t.withIdentity(who).mutation(api.streams.setStreamStatus, { streamId, status, reason });
}

describe("a show taken live early and ended", () => {
  test("records when it went live and ended, keeps the plan, and every query carries both", async () => {
    const t = newTest();
    const { liveShopId, early } = await setUp(t);
    await setStatus(t, SARAH, early, "LIVE");

    // Live: the real start, and the planned stop still to come.
    const livePage = (await t.query(api.streams.getPublicStream, { streamId: early }))!;
    expect(shownStreamTimes(livePage)).toEqual({
      start: NOV_28,
      stop: PLANNED_STOP,
      started: true,
      ended: false,
    });
    const [liveCard] = await t.query(api.streams.listLiveNow, {});
    expect(liveCard).toMatchObject({ _id: early, streamStartedUTC: NOV_28, streamStartUTC: PLANNED_START });

    // A pause and a resume are not a new start.
    vi.setSystemTime(NOV_28 + 10 * MINUTE);
    await setStatus(t, SARAH, early, "PAUSED");
    vi.setSystemTime(NOV_28 + 15 * MINUTE);
    await setStatus(t, SARAH, early, "LIVE");
    vi.setSystemTime(NOV_28 + 40 * MINUTE);
    await setStatus(t, SARAH, early, "ENDED");

    const page = (await t.query(api.streams.getPublicStream, { streamId: early }))!;
    expect(page).toMatchObject({
      streamStartUTC: PLANNED_START,
      streamStopUTC: PLANNED_STOP,
      streamStartedUTC: NOV_28,
      streamEndedUTC: NOV_28 + 40 * MINUTE,
    });
    const shop = (await t.query(api.liveShops.getPublicShop, { idOrSlug: "sarahs-vintage" }))!;
    expect(shownStreamTimes(shop.streams.past[0])).toMatchObject({
      start: NOV_28,
      stop: NOV_28 + 40 * MINUTE,
    });
    const [dashboard] = await t.withIdentity(SARAH).query(api.streams.listMyStreams, {});
    expect(dashboard.liveShopId).toBe(liveShopId);
    expect(shownStreamTimes(dashboard.streams.find((stream) => stream._id === early)!).start).toBe(NOV_28);
    const watch = (await t.withIdentity(VERA).query(api.watchList.myWatchList, {}))!;
    expect(shownStreamTimes(watch.ended[0])).toMatchObject({ start: NOV_28, stop: NOV_28 + 40 * MINUTE });
    const replays = await t.query(api.explore.listExploreStreams, {
      filter: { categories: [], subcategories: [], states: [], msas: [] },
      view: { when: "replays" },
      paginationOpts: { numItems: 5, cursor: null },
    });
    expect(replays.page.map((card) => [card._id, card.streamEndedUTC])).toEqual([
      [early, NOV_28 + 40 * MINUTE],
    ]);
  });

  test("an admin ending someone's show early records when, as the owner ending it does", async () => {
    const t = newTest();
    const { other } = await setUp(t);
    await setStatus(t, SARAH, other, "LIVE");
    vi.setSystemTime(NOV_28 + 5 * MINUTE);
    await setStatus(t, ADA, other, "ENDED", "Off-topic");
    const page = (await t.query(api.streams.getPublicStream, { streamId: other }))!;
    expect(shownStreamTimes(page)).toEqual({
      start: NOV_28,
      stop: NOV_28 + 5 * MINUTE,
      started: true,
      ended: true,
    });
  });

  test("the auto-end job keeps the planned stop: nobody said when it really ended", async () => {
    const t = newTest();
    const { early } = await setUp(t);
    await setStatus(t, SARAH, early, "LIVE");
    vi.setSystemTime(PLANNED_STOP + 3 * HOUR);
    await t.mutation(internal.streams.endOverdue, {});
    const page = (await t.query(api.streams.getPublicStream, { streamId: early }))!;
    expect(page.streamStatus).toBe("ENDED");
    expect(page.streamEndedUTC).toBeUndefined();
    expect(shownStreamTimes(page)).toMatchObject({ start: NOV_28, stop: PLANNED_STOP, ended: true });
  });

  test("the calendar feed puts a live show at its real start", async () => {
    const t = newTest();
    const { early } = await setUp(t);
    await setStatus(t, SARAH, early, "LIVE");
    const token = "a".repeat(43);
    await t.run(async (ctx) => {
      const vera = await ctx.db
        .query("users")
        .withIndex("by_clerkId", (q) => q.eq("clerkId", VERA.subject))
        .unique();
      await insertWithTimestamps(ctx, "calendarFeeds", {
        userId: vera!._id,
        token,
        appOrigin: "https://app.test",
      });
    });
    const response = await t.fetch(`/calendar/${token}.ics`);
    const ics = await response.text();
    // Holiday denim: live since Nov 28 17:00 UTC, to end as planned; Cut short: still Dec 4 00:00 UTC.
    expect(ics).toContain("DTSTART:20261128T170000Z\r\nDTEND:20261204T013000Z\r\nSUMMARY:Holiday denim");
    expect(ics).toContain("DTSTART:20261204T000000Z\r\nDTEND:20261204T013000Z\r\nSUMMARY:Cut short");
  });
});
