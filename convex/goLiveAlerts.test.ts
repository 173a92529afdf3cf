/**
 * Go-live alerts (issue 8, decision 021): a show going live through the seller's own button tells those
 * who saved it or follow its shop, once each, as their preferences ask; a tab's claim announces an alert
 * once; old alerts are pruned.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Doc, Id } from "./_generated/dataModel";
import { GO_LIVE_ALERT_FRESH_MS, GO_LIVE_ALERT_TTL_MS } from "./lib/constants";
import { FAN_OUT_BATCH_SIZE, PENDING_ALERTS_LIMIT, PRUNE_BATCH_SIZE } from "./model/goLiveAlerts";
import { insertLiveShop } from "./model/liveShops";
import { insertStream } from "./model/streams";
import { insertWithTimestamps } from "./model/timestamps";
import { getUserByClerkId, insertUser } from "./model/users";
import { newTest } from "./test.setup";

type Backend = ReturnType<typeof newTest>;
type Identity = { subject: string; email: string; name: string };

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 21, 18);
const SARAH = { subject: "user_sarah", email: "sarah@livelocal.test", name: "Sarah Seller" };
const person = (name: string): Identity => ({
  subject: `user_${name}`,
  email: `${name}@livelocal.test`,
  name,
});
/** Saved the show. */
const VERA = person("vera");
/** Follows the shop. */
const LEE = person("lee");
/** Saved the show and follows the shop. */
const KIM = person("kim");
/** Saved the show, but wants no alerts about saved shows. */
const PAT = person("pat");
/** Follows the shop, but wants no alerts about followed shops. */
const QUINN = person("quinn");
/** Neither saved nor follows. */
const NOEL = person("noel");

async function setUp(t: Backend) {
  return await t.run(async (ctx) => {
    const sarahId = await insertUser(ctx, {
      clerkId: SARAH.subject,
      email: SARAH.email,
      name: SARAH.name,
      role: "seller",
    });
    const liveShopId = await insertLiveShop(ctx, {
      userId: sarahId,
      liveShopName: "Sarah's Vintage",
      slug: "sarahs-vintage",
      status: "active",
    });
    const streamId = await insertStream(ctx, {
      liveShopId,
      streamTitle: "Denim drop",
      streamStatus: "SCHEDULED",
      streamStartUTC: Date.now() + HOUR,
      streamStopUTC: Date.now() + 2 * HOUR,
    });
    const ids: Record<string, Id<"users">> = {};
    for (const identity of [VERA, LEE, KIM, PAT, QUINN, NOEL]) {
      ids[identity.name] = await insertUser(ctx, {
        clerkId: identity.subject,
        email: identity.email,
        name: identity.name,
      });
    }
    const save = (userId: Id<"users">) => insertWithTimestamps(ctx, "savedStreams", { userId, streamId });
    const follow = (userId: Id<"users">) => insertWithTimestamps(ctx, "shopFollows", { userId, liveShopId });
    await save(ids.vera);
    await follow(ids.lee);
    await save(ids.kim);
    await follow(ids.kim);
    await save(ids.pat);
    await follow(ids.quinn);
    const preferences = (userId: Id<"users">, patch: Partial<Doc<"users">["notificationPreferences"]>) =>
      ctx.db.get("users", userId).then((user) =>
        ctx.db.patch("users", userId, {
          notificationPreferences: { ...user!.notificationPreferences, ...patch },
        }),
      );
    await preferences(ids.pat, { goLiveSavedStreams: false });
    await preferences(ids.quinn, { goLiveFollowedShops: false });
    return { sarahId, liveShopId, streamId, ids };
  });
}

async function setStatus(t: Backend, streamId: Id<"streams">, status: Doc<"streams">["streamStatus"]) {
  await t.withIdentity(SARAH).mutation(api.streams.setStreamStatus, { streamId, status });
  await t.finishAllScheduledFunctions(vi.runAllTimers);
}

async function alerts(t: Backend) {
  return await t.run(async (ctx) => await ctx.db.query("goLiveAlerts").collect());
}

/** Each person's alerts as "name: reason". */
async function alertsByName(t: Backend, ids: Record<string, Id<"users">>) {
  const names = new Map(Object.entries(ids).map(([name, id]) => [id as string, name]));
  return (await alerts(t)).map((alert) => `${names.get(alert.userId)}: ${alert.reason}`).sort();
}

async function pendingOf(t: Backend, identity: Identity) {
  return await t.withIdentity(identity).query(api.goLiveAlerts.myPendingAlerts, {});
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});
afterEach(() => {
  vi.useRealTimers();
});

describe("going live", () => {
  test("tells everyone who saved the show or follows the shop once, as their preferences ask", async () => {
    const t = newTest();
    const { streamId, liveShopId, ids } = await setUp(t);
    expect(await alerts(t)).toEqual([]);

    await setStatus(t, streamId, "LIVE");

    // Kim saved and follows: one alert, as a saver. Pat and Quinn turned that kind off; Noel has no link.
    expect(await alertsByName(t, ids)).toEqual(["kim: saved", "lee: followed", "vera: saved"]);
    for (const alert of await alerts(t)) {
      expect(alert).toMatchObject({ streamId, liveShopId, createdAt: NOW });
      expect(alert.claimedAt).toBeUndefined();
    }
    for (const identity of [VERA, LEE, KIM]) expect(await pendingOf(t, identity)).toHaveLength(1);
    for (const identity of [PAT, QUINN, NOEL]) expect(await pendingOf(t, identity)).toEqual([]);
  });

  test("someone who saved the show but only wants alerts about followed shops is told as a follower", async () => {
    const t = newTest();
    const { streamId, ids } = await setUp(t);
    await t.run(async (ctx) => {
      await insertWithTimestamps(ctx, "shopFollows", {
        userId: ids.pat,
        liveShopId: (await ctx.db.get("streams", streamId))!.liveShopId,
      });
    });
    await setStatus(t, streamId, "LIVE");
    expect(await alertsByName(t, ids)).toContain("pat: followed");
    expect((await alerts(t)).filter((alert) => alert.userId === ids.pat)).toHaveLength(1);
  });

  test("a draft going straight live tells the shop's followers", async () => {
    const t = newTest();
    const { liveShopId, ids } = await setUp(t);
    const draft = await t.run(
      async (ctx) => await insertStream(ctx, { liveShopId, streamTitle: "Pop-up", streamStatus: "CREATED" }),
    );
    await setStatus(t, draft, "LIVE");
    expect(await alertsByName(t, ids)).toEqual(["kim: followed", "lee: followed"]);
  });

  test("resuming after a pause is not news: nobody is told again, nor told for the first time", async () => {
    const t = newTest();
    const { streamId } = await setUp(t);
    await setStatus(t, streamId, "LIVE");
    const before = await alerts(t);
    expect(before).toHaveLength(3);
    // Noel saves it while it is live; he missed the start, and a resume does not announce it.
    await t.withIdentity(NOEL).mutation(api.watchList.setStreamSaved, { streamId, saved: true });

    await setStatus(t, streamId, "PAUSED");
    await setStatus(t, streamId, "LIVE");

    expect(await alerts(t)).toEqual(before);
    expect(await pendingOf(t, NOEL)).toEqual([]);
  });

  test("a show that ends before the fan-out runs tells nobody", async () => {
    const t = newTest();
    const { streamId } = await setUp(t);
    const sarah = t.withIdentity(SARAH);
    await sarah.mutation(api.streams.setStreamStatus, { streamId, status: "LIVE" });
    await sarah.mutation(api.streams.setStreamStatus, { streamId, status: "ENDED" });
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    expect(await alerts(t)).toEqual([]);
  });

  test(`reaches every follower and saver of a big shop, in batches of ${FAN_OUT_BATCH_SIZE}`, async () => {
    const t = newTest();
    const { streamId, liveShopId } = await setUp(t);
    const FANS = FAN_OUT_BATCH_SIZE + 50;
    const SAVERS = FAN_OUT_BATCH_SIZE + 10;
    // 150 fans follow the shop; the first 110 of them also saved the show.
    await t.run(async (ctx) => {
      for (let i = 0; i < FANS; i++) {
        const userId = await insertUser(ctx, { clerkId: `user_fan_${i}`, email: `fan-${i}@livelocal.test` });
        await insertWithTimestamps(ctx, "shopFollows", { userId, liveShopId });
        if (i < SAVERS) await insertWithTimestamps(ctx, "savedStreams", { userId, streamId });
      }
    });

    await setStatus(t, streamId, "LIVE");

    const fans = await t.run(async (ctx) => {
      const rows = await ctx.db.query("goLiveAlerts").collect();
      const byUser: Record<string, string[]> = {};
      for (const row of rows) {
        const { clerkId } = (await ctx.db.get("users", row.userId))!;
        byUser[clerkId] = [...(byUser[clerkId] ?? []), row.reason];
      }
      return byUser;
    });
    for (let i = 0; i < FANS; i++) {
      expect(fans[`user_fan_${i}`], `fan ${i}`).toEqual([i < SAVERS ? "saved" : "followed"]);
    }
    // The fixture's people too: Vera, Lee and Kim.
    expect(Object.keys(fans)).toHaveLength(FANS + 3);
    const runs = await t.run(async (ctx) => await ctx.db.system.query("_scheduled_functions").collect());
    const fanOuts = runs.filter((run) => run.name.includes("fanOut"));
    expect(fanOuts.length).toBeGreaterThanOrEqual(4);
    expect(fanOuts.every((run) => run.state.kind === "success")).toBe(true);
  });
});

describe("claiming an alert", () => {
  async function liveWithAlerts(t: Backend) {
    const fixture = await setUp(t);
    await setStatus(t, fixture.streamId, "LIVE");
    const [alert] = await pendingOf(t, VERA);
    return { ...fixture, alertId: alert._id };
  }

  test("the first claim announces the show; every later one, from any tab, gets nothing", async () => {
    const t = newTest();
    const { streamId, alertId } = await liveWithAlerts(t);
    const vera = t.withIdentity(VERA);
    vi.setSystemTime(NOW + 5_000);
    expect(await vera.mutation(api.goLiveAlerts.claim, { alertId })).toEqual({
      streamId,
      streamTitle: "Denim drop",
      liveShopName: "Sarah's Vintage",
      reason: "saved",
    });
    expect(await vera.mutation(api.goLiveAlerts.claim, { alertId })).toBeNull();
    expect(await vera.mutation(api.goLiveAlerts.claim, { alertId })).toBeNull();
    expect(await pendingOf(t, VERA)).toEqual([]);
    const row = await t.run(async (ctx) => await ctx.db.get("goLiveAlerts", alertId));
    expect(row).toMatchObject({ claimedAt: NOW + 5_000, announced: true });
  });

  test("a follower's announcement says why", async () => {
    const t = newTest();
    const { streamId } = await liveWithAlerts(t);
    const [alert] = await pendingOf(t, LEE);
    expect(await t.withIdentity(LEE).mutation(api.goLiveAlerts.claim, { alertId: alert._id })).toMatchObject({
      streamId,
      reason: "followed",
    });
  });

  test("an alert claimed too late is filed without a notice", async () => {
    const t = newTest();
    const { alertId } = await liveWithAlerts(t);
    const [kims] = await pendingOf(t, KIM);
    // Just fresh enough for Kim, just too late for Vera.
    vi.setSystemTime(NOW + GO_LIVE_ALERT_FRESH_MS);
    expect(await t.withIdentity(KIM).mutation(api.goLiveAlerts.claim, { alertId: kims._id })).not.toBeNull();
    vi.setSystemTime(NOW + GO_LIVE_ALERT_FRESH_MS + 1);
    expect(await t.withIdentity(VERA).mutation(api.goLiveAlerts.claim, { alertId })).toBeNull();
    expect(await t.run(async (ctx) => await ctx.db.get("goLiveAlerts", alertId))).toMatchObject({
      claimedAt: NOW + GO_LIVE_ALERT_FRESH_MS + 1,
      announced: false,
    });
    expect(await pendingOf(t, VERA)).toEqual([]);
  });

  test("a show that ended before the claim is not announced", async () => {
    const t = newTest();
    const { streamId, alertId } = await liveWithAlerts(t);
    await setStatus(t, streamId, "ENDED");
    expect(await t.withIdentity(VERA).mutation(api.goLiveAlerts.claim, { alertId })).toBeNull();
  });

  test("a show whose shop was suspended before the claim is not announced", async () => {
    const t = newTest();
    const { liveShopId, alertId } = await liveWithAlerts(t);
    await t.run(async (ctx) => await ctx.db.patch("liveShops", liveShopId, { status: "suspended" }));
    expect(await t.withIdentity(VERA).mutation(api.goLiveAlerts.claim, { alertId })).toBeNull();
  });

  test("turning the preference off after the alert was made stops its announcement", async () => {
    const t = newTest();
    const { alertId } = await liveWithAlerts(t);
    const [lees] = await pendingOf(t, LEE);
    const vera = t.withIdentity(VERA);
    const lee = t.withIdentity(LEE);
    await vera.mutation(api.settings.setNotificationPreferences, {
      preferences: { goLiveSavedStreams: false },
    });
    await lee.mutation(api.settings.setNotificationPreferences, {
      preferences: { goLiveSavedStreams: false },
    });
    expect(await vera.mutation(api.goLiveAlerts.claim, { alertId })).toBeNull();
    // Lee's is about a followed shop, which he still wants.
    expect(await lee.mutation(api.goLiveAlerts.claim, { alertId: lees._id })).not.toBeNull();
  });

  test("nobody claims, or sees, another person's alert", async () => {
    const t = newTest();
    const { alertId } = await liveWithAlerts(t);
    await expect(t.withIdentity(LEE).mutation(api.goLiveAlerts.claim, { alertId })).rejects.toMatchObject({
      data: { code: "NOT_FOUND" },
    });
    expect((await pendingOf(t, LEE)).map((alert) => alert._id)).not.toContain(alertId);
    // Still Vera's to announce.
    expect(await t.withIdentity(VERA).mutation(api.goLiveAlerts.claim, { alertId })).not.toBeNull();
  });

  test(`a tab is shown at most ${PENDING_ALERTS_LIMIT} waiting alerts, oldest first`, async () => {
    const t = newTest();
    const { liveShopId, streamId } = await setUp(t);
    const created = await t.run(async (ctx) => {
      const vera = (await getUserByClerkId(ctx, VERA.subject))!;
      const ids: Id<"goLiveAlerts">[] = [];
      for (let i = 0; i < PENDING_ALERTS_LIMIT + 2; i++) {
        ids.push(
          await insertWithTimestamps(
            ctx,
            "goLiveAlerts",
            { userId: vera._id, streamId, liveShopId, reason: "saved" },
            NOW + i,
          ),
        );
      }
      return ids;
    });
    const pending = await pendingOf(t, VERA);
    expect(pending.map((alert) => alert._id)).toEqual(created.slice(0, PENDING_ALERTS_LIMIT));
    expect(pending[0]).toEqual({ _id: created[0], createdAt: NOW });
  });
});

describe("pruning", () => {
  test("deletes alerts older than a day, in batches, and keeps newer ones", async () => {
    const t = newTest();
    const { liveShopId, streamId, ids } = await setUp(t);
    const OLD = PRUNE_BATCH_SIZE + 5;
    const kept = await t.run(async (ctx) => {
      const row = (createdAt: number) =>
        insertWithTimestamps(
          ctx,
          "goLiveAlerts",
          { userId: ids.vera, streamId, liveShopId, reason: "saved" },
          createdAt,
        );
      for (let i = 0; i < OLD; i++) await row(NOW - GO_LIVE_ALERT_TTL_MS - 1 - i);
      return [await row(NOW - GO_LIVE_ALERT_TTL_MS + 1_000), await row(NOW - HOUR)];
    });
    await t.mutation(internal.goLiveAlerts.prune, {});
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    expect((await alerts(t)).map((alert) => alert._id).sort()).toEqual([...kept].sort());
  });
});
