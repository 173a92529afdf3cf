/**
 * The private calendar feed (issue 8, decision 021): turned on by an action, served at
 * `GET /calendar/<token>.ics`, listing the person's saved shows still to come and nothing else, until
 * it is turned off or replaced.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { StreamStatus } from "./lib/constants";
import { FEED_TOKEN_PATTERN } from "./model/calendarFeed";
import { deleteUserCascade } from "./model/cascade";
import { insertLiveShop, patchLiveShop } from "./model/liveShops";
import { insertStream } from "./model/streams";
import { insertUser } from "./model/users";
import { newTest } from "./test.setup";

type Backend = ReturnType<typeof newTest>;

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 21, 18);
const VERA = { subject: "user_vera", email: "vera@livelocal.test", name: "Vera Viewer" };
const LEE = { subject: "user_lee", email: "lee@livelocal.test", name: "Lee Looker" };
const ADA = { subject: "user_ada", email: "ada@livelocal.test", name: "Ada Admin" };
const APP = "https://app.test";

async function setUp(t: Backend) {
  const ids = await t.run(async (ctx) => {
    const veraId = await insertUser(ctx, { clerkId: VERA.subject, email: VERA.email, name: VERA.name });
    const leeId = await insertUser(ctx, { clerkId: LEE.subject, email: LEE.email, name: LEE.name });
    await insertUser(ctx, { clerkId: ADA.subject, email: ADA.email, name: ADA.name, role: "admin" });
    const sarahId = await insertUser(ctx, {
      clerkId: "user_sarah",
      email: "sarah@livelocal.test",
      role: "seller",
    });
    const liveShopId = await insertLiveShop(ctx, {
      userId: sarahId,
      liveShopName: "Sarah's Vintage",
      slug: "sarahs-vintage",
      status: "active",
    });
    const stream = (streamTitle: string, streamStatus: StreamStatus, startIn: number) =>
      insertStream(ctx, {
        liveShopId,
        streamTitle,
        streamStatus,
        streamStartUTC: NOW + startIn,
        streamStopUTC: NOW + startIn + HOUR,
      });
    return {
      veraId,
      leeId,
      liveShopId,
      scheduled: await stream("Denim drop", "SCHEDULED", 2 * HOUR),
      live: await stream("Live right now", "LIVE", -HOUR / 2),
      ended: await stream("Over and done", "ENDED", -24 * HOUR),
      notSaved: await stream("Never saved", "SCHEDULED", 3 * HOUR),
      leesOnly: await stream("Lee's pick", "SCHEDULED", 4 * HOUR),
    };
  });
  const vera = t.withIdentity(VERA);
  for (const streamId of [ids.scheduled, ids.live, ids.ended]) {
    await vera.mutation(api.watchList.setStreamSaved, { streamId, saved: true });
  }
  await t.withIdentity(LEE).mutation(api.watchList.setStreamSaved, { streamId: ids.leesOnly, saved: true });
  return ids;
}

const feedPath = (token: string) => `/calendar/${token}.ics`;

async function feedRows(t: Backend) {
  return await t.run(async (ctx) => await ctx.db.query("calendarFeeds").collect());
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

describe("turning the feed on", () => {
  test("gives an unguessable token, shown by myFeed; off until then", async () => {
    const t = newTest();
    await setUp(t);
    const vera = t.withIdentity(VERA);
    expect(await vera.query(api.calendarFeed.myFeed, {})).toEqual({ token: null, createdAt: null });
    expect(await t.query(api.calendarFeed.myFeed, {})).toBeNull();

    const { token } = await vera.action(api.calendarFeed.turnOn, { appOrigin: APP });
    expect(token).toMatch(FEED_TOKEN_PATTERN);
    expect(await vera.query(api.calendarFeed.myFeed, {})).toEqual({ token, createdAt: NOW });
    // Lee's feed is his own, with another token; neither sees the other's.
    const lees = await t.withIdentity(LEE).action(api.calendarFeed.turnOn, { appOrigin: APP });
    expect(lees.token).not.toBe(token);
    expect((await vera.query(api.calendarFeed.myFeed, {}))?.token).toBe(token);
  });

  test("signed out, it is refused", async () => {
    const t = newTest();
    await setUp(t);
    await expect(t.action(api.calendarFeed.turnOn, { appOrigin: APP })).rejects.toMatchObject({
      data: { code: "UNAUTHENTICATED" },
    });
    expect(await feedRows(t)).toEqual([]);
  });

  test.each(["javascript:alert(1)", "ftp://x", "not a web address", `${APP}/${"x".repeat(3000)}`])(
    "refuses the app address %s and writes nothing",
    async (appOrigin) => {
      const t = newTest();
      await setUp(t);
      const vera = t.withIdentity(VERA);
      await expect(vera.action(api.calendarFeed.turnOn, { appOrigin })).rejects.toMatchObject({
        data: { code: "INVALID_ARGUMENT" },
      });
      expect(await feedRows(t)).toEqual([]);
      // Nor does it replace a feed already on.
      const { token } = await vera.action(api.calendarFeed.turnOn, { appOrigin: APP });
      await expect(vera.action(api.calendarFeed.turnOn, { appOrigin })).rejects.toMatchObject({
        data: { code: "INVALID_ARGUMENT" },
      });
      expect((await vera.query(api.calendarFeed.myFeed, {}))?.token).toBe(token);
      expect((await t.fetch(feedPath(token))).status).toBe(200);
    },
  );

  test("with APP_ORIGINS set, only those origins are accepted", async () => {
    const t = newTest();
    await setUp(t);
    vi.stubEnv("APP_ORIGINS", "https://app.test, https://www.app.test/");
    const vera = t.withIdentity(VERA);
    await expect(
      vera.action(api.calendarFeed.turnOn, { appOrigin: "https://evil.test" }),
    ).rejects.toMatchObject({ data: { code: "INVALID_ARGUMENT" } });
    expect(await feedRows(t)).toEqual([]);
    const { token } = await vera.action(api.calendarFeed.turnOn, { appOrigin: "https://www.app.test" });
    const body = await (await t.fetch(feedPath(token))).text();
    expect(body.replace(/\r\n /g, "")).toContain("URL:https://www.app.test/stream/");
  });
});

describe("the feed", () => {
  test("lists the person's saved shows still to come, linking to the app, and nothing about them", async () => {
    const t = newTest();
    const ids = await setUp(t);
    const { token } = await t
      .withIdentity(VERA)
      .action(api.calendarFeed.turnOn, { appOrigin: `${APP}/watch-list?x=1` });

    const response = await t.fetch(feedPath(token));
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
    expect(response.headers.get("Cache-Control")).toContain("private");
    const body = await response.text();
    const unfolded = body.replace(/\r\n /g, "");
    const lines = unfolded.split("\r\n");
    expect(lines[0]).toBe("BEGIN:VCALENDAR");
    expect(lines).toContain("X-WR-CALNAME:LiveLocal: saved shows");
    // Her saved scheduled and live shows, soonest first; not the ended one, Lee's, or one nobody saved.
    expect(lines.filter((line) => line.startsWith("SUMMARY:"))).toEqual([
      "SUMMARY:Live right now",
      "SUMMARY:Denim drop",
    ]);
    expect(lines.filter((line) => line.startsWith("UID:"))).toEqual([
      `UID:${ids.live}@livelocal`,
      `UID:${ids.scheduled}@livelocal`,
    ]);
    // Links at the app's origin (the path the browser sent is dropped).
    expect(lines).toContain(`URL:${APP}/stream/${ids.scheduled}`);
    expect(lines).toContain(`URL:${APP}/stream/${ids.live}`);
    expect(unfolded).not.toContain("watch-list");
    // Nothing about Vera herself.
    for (const secret of [VERA.email, VERA.name, "Vera", ids.veraId, ids.leeId]) {
      expect(unfolded).not.toContain(secret);
    }
  });

  test("follows the list: a show saved, unsaved, or gone from public view changes the next fetch", async () => {
    const t = newTest();
    const ids = await setUp(t);
    const vera = t.withIdentity(VERA);
    const { token } = await vera.action(api.calendarFeed.turnOn, { appOrigin: APP });
    const summaries = async () =>
      (await (await t.fetch(feedPath(token))).text())
        .split("\r\n")
        .filter((line) => line.startsWith("SUMMARY:"));

    await vera.mutation(api.watchList.setStreamSaved, { streamId: ids.notSaved, saved: true });
    await vera.mutation(api.watchList.setStreamSaved, { streamId: ids.live, saved: false });
    expect(await summaries()).toEqual(["SUMMARY:Denim drop", "SUMMARY:Never saved"]);

    await t.run(async (ctx) => await patchLiveShop(ctx, ids.liveShopId, { status: "suspended" }));
    expect(await summaries()).toEqual([]);
  });

  test("a show whose stored time JavaScript cannot show is left out; the feed and every page still answer", async () => {
    const t = newTest();
    const ids = await setUp(t);
    const vera = t.withIdentity(VERA);
    const sarah = t.withIdentity({ subject: "user_sarah", email: "sarah@livelocal.test" });
    const { token } = await vera.action(api.calendarFeed.turnOn, { appOrigin: APP });
    // Stored before times were bounded (lib/limits.ts TIME_RANGE); no mutation accepts these now.
    await t.run(async (ctx) => {
      await ctx.db.patch("streams", ids.scheduled, {
        streamStartUTC: Number.MAX_SAFE_INTEGER,
        streamStopUTC: Number.MAX_SAFE_INTEGER,
      });
      await ctx.db.patch("streams", ids.live, { streamStopUTC: 8.64e15 + 10 });
    });

    const response = await t.fetch(feedPath(token));
    expect(response.status).toBe(200);
    const lines = (await response.text()).replace(/\r\n /g, "").split("\r\n");
    expect(lines.filter((line) => line.startsWith("SUMMARY:"))).toEqual(["SUMMARY:Live right now"]);
    expect(lines.at(-2)).toBe("END:VCALENDAR");

    const watchList = await vera.query(api.watchList.myWatchList, {});
    expect(watchList?.upcoming.map((stream) => stream.streamStartUTC)).toContain(Number.MAX_SAFE_INTEGER);
    const shop = await t.query(api.liveShops.getPublicShop, { idOrSlug: "sarahs-vintage" });
    expect(shop?.streams.upcoming.map((stream) => stream._id)).toContain(ids.scheduled);
    expect(await t.query(api.streams.getPublicStream, { streamId: ids.scheduled })).toMatchObject({
      streamStartUTC: Number.MAX_SAFE_INTEGER,
    });
    const dashboard = await sarah.query(api.streams.listMyStreams, {});
    expect(dashboard[0]?.streams.map((stream) => stream._id)).toContain(ids.scheduled);
  });

  test.each([
    ["an unknown token", "A".repeat(43)],
    ["a malformed token", "abc"],
    ["a path", "..%2F..%2Fprivacy%2Fexport"],
    ["nothing", ""],
  ])("answers 404 for %s", async (_label, token) => {
    const t = newTest();
    await setUp(t);
    await t.withIdentity(VERA).action(api.calendarFeed.turnOn, { appOrigin: APP });
    const response = await t.fetch(feedPath(token));
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("no such calendar");
  });

  test("turning it on again replaces the address: the old one stops working", async () => {
    const t = newTest();
    await setUp(t);
    const vera = t.withIdentity(VERA);
    const first = await vera.action(api.calendarFeed.turnOn, { appOrigin: APP });
    const second = await vera.action(api.calendarFeed.turnOn, { appOrigin: APP });
    expect(second.token).not.toBe(first.token);
    expect((await t.fetch(feedPath(first.token))).status).toBe(404);
    expect((await t.fetch(feedPath(second.token))).status).toBe(200);
    expect(await feedRows(t)).toHaveLength(1);
    expect((await vera.query(api.calendarFeed.myFeed, {}))?.token).toBe(second.token);
  });

  test("turning it off stops the address at once, and touches nobody else's feed", async () => {
    const t = newTest();
    await setUp(t);
    const vera = t.withIdentity(VERA);
    const lee = t.withIdentity(LEE);
    const { token } = await vera.action(api.calendarFeed.turnOn, { appOrigin: APP });
    const lees = await lee.action(api.calendarFeed.turnOn, { appOrigin: APP });
    await vera.mutation(api.calendarFeed.turnOff, {});
    expect((await t.fetch(feedPath(token))).status).toBe(404);
    expect(await vera.query(api.calendarFeed.myFeed, {})).toEqual({ token: null, createdAt: null });
    // Turning off again is harmless; Lee's feed still works.
    await vera.mutation(api.calendarFeed.turnOff, {});
    const response = await t.fetch(feedPath(lees.token));
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("SUMMARY:Lee's pick");
  });

  test("a person's data export shows their feed without its token", async () => {
    const t = newTest();
    await setUp(t);
    const vera = t.withIdentity(VERA);
    const { token } = await vera.action(api.calendarFeed.turnOn, { appOrigin: APP });
    const requestId = await vera.mutation(api.privacy.requestPrivacy, { type: "access" });
    await t.withIdentity(ADA).mutation(api.privacy.decidePrivacyRequest, { requestId, decision: "approve" });
    await t.finishAllScheduledFunctions(() => vi.advanceTimersByTime(0));

    const response = await vera.fetch("/privacy/export");
    expect(response.status).toBe(200);
    const text = await response.text();
    const document = JSON.parse(text) as { tables: Record<string, { appOrigin?: string }[]> };
    expect(document.tables.calendarFeeds).toEqual([expect.objectContaining({ appOrigin: APP })]);
    expect(text).not.toContain(token);
  });

  test("a deleted account's feed stops working", async () => {
    const t = newTest();
    const { veraId } = await setUp(t);
    const { token } = await t.withIdentity(VERA).action(api.calendarFeed.turnOn, { appOrigin: APP });
    await t.run(async (ctx) => await deleteUserCascade(ctx, veraId));
    expect((await t.fetch(feedPath(token))).status).toBe(404);
  });
});
