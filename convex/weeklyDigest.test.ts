/**
 * The weekly digest (decision 036): who gets it (followed shops' and chosen metro areas' shows, on the
 * channels they chose), when (Monday 08:xx in their own zone), not twice, not empty, not to anyone who
 * opted out or is restricted, and in bounded batches.
 */
import { describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { digestWeekAt } from "./lib/time";
import { DIGEST_PEOPLE_PER_BATCH, DIGEST_ZONES_PER_RUN } from "./weeklyDigest";
import { insertStream, linkStreamMsa } from "./model/streams";
import { insertWithTimestamps } from "./model/timestamps";
import { insertUser } from "./model/users";
import { createSellerWithShop, newTest, withNotificationTestEnv, writeWithTriggers } from "./test.setup";

type Backend = ReturnType<typeof newTest>;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Monday 23 November 2026, 07:01 UTC: 08:01 in Berlin (CET), still Sunday night in Los Angeles. */
const BERLIN_MONDAY_8 = Date.UTC(2026, 10, 23, 7, 1);
/** The same Monday 16:01 UTC: 08:01 in Los Angeles (PST). */
const LOS_ANGELES_MONDAY_8 = Date.UTC(2026, 10, 23, 16, 1);
/** The same Monday 13:01 UTC: 08:01 in New York (EST), the zone of people whose browser has not said. */
const NEW_YORK_MONDAY_8 = Date.UTC(2026, 10, 23, 13, 1);
const AUSTIN = "12420";

const BERTA = { subject: "user_berta", email: "berta@livelocal.test", name: "Berta" };
const LEE = { subject: "user_lee", email: "lee@livelocal.test", name: "Lee" };

/** Sarah's active shop with a show in two days; people who follow it, each in their zone. */
async function setUp(t: Backend, now = BERLIN_MONDAY_8) {
  return await writeWithTriggers(t, async (ctx) => {
    const { liveShopId } = await createSellerWithShop(ctx, { status: "active" });
    const streamId = await insertStream(ctx, {
      liveShopId,
      streamTitle: "Denim drop",
      streamStatus: "SCHEDULED",
      streamStartUTC: now + 2 * DAY,
      streamStopUTC: now + 2 * DAY + HOUR,
    });
    // Beyond the week: never listed.
    await insertStream(ctx, {
      liveShopId,
      streamTitle: "Far away",
      streamStatus: "SCHEDULED",
      streamStartUTC: now + 9 * DAY,
      streamStopUTC: now + 9 * DAY + HOUR,
    });
    const follower = async (who: typeof BERTA, timeZone?: string) => {
      const userId = await insertUser(ctx, { clerkId: who.subject, email: who.email, name: who.name });
      if (timeZone) await ctx.db.patch("users", userId, { timeZone });
      await insertWithTimestamps(ctx, "shopFollows", { userId, liveShopId });
      return userId;
    };
    const berta = await follower(BERTA, "Europe/Berlin");
    const lee = await follower(LEE, "America/Los_Angeles");
    return { liveShopId, streamId, berta, lee };
  });
}

async function digestOn(t: Backend, who: typeof BERTA, channels: ("email" | "push" | "inApp")[]) {
  for (const channel of channels) {
    await t
      .withIdentity(who)
      .mutation(api.notifications.setChannel, { kind: "weeklyDigest", channel, on: true });
  }
}

/** Runs the hourly job at `now` and everything it schedules. */
async function runHour(t: Backend, now: number) {
  vi.setSystemTime(now);
  await t.mutation(internal.weeklyDigest.plan, {});
  await t.finishAllScheduledFunctions(vi.runAllTimers);
}

async function inbox(t: Backend) {
  return await t.run(async (ctx) => await ctx.db.query("localInbox").collect());
}

async function digestRows(t: Backend, userId: Id<"users">) {
  return (await t.run(async (ctx) => await ctx.db.query("notifications").collect()))
    .filter((row) => row.userId === userId && row.kind === "weeklyDigest")
    .map((row) => `${row.eventKey}/${row.channel}/${row.status}`)
    .sort();
}

withNotificationTestEnv(BERLIN_MONDAY_8 - HOUR);

describe("the hour", () => {
  test("Monday 08:xx in the zone, and no other hour; the ISO week names it", () => {
    expect(digestWeekAt(BERLIN_MONDAY_8, "Europe/Berlin")).toBe("2026-W48");
    expect(digestWeekAt(BERLIN_MONDAY_8, "America/Los_Angeles")).toBeNull();
    expect(digestWeekAt(LOS_ANGELES_MONDAY_8, "America/Los_Angeles")).toBe("2026-W48");
    expect(digestWeekAt(LOS_ANGELES_MONDAY_8 - HOUR, "America/Los_Angeles")).toBeNull();
    // Half-hour zones reach 08:xx at a whole UTC hour too: 02:01 UTC is 07:31 in Kolkata, 03:01 is 08:31.
    expect(digestWeekAt(Date.UTC(2026, 10, 23, 3, 1), "Asia/Kolkata")).toBe("2026-W48");
    // The ISO week of a Monday at the turn of the year: 4 January 2027 is in 2027-W01.
    expect(digestWeekAt(Date.UTC(2027, 0, 4, 13, 1), "America/New_York")).toBe("2027-W01");
  });
});

describe("who gets the digest, when", () => {
  test("Berlin's Monday 08:00 sends Berta's; Los Angeles' sends Lee's eight hours later; once each", async () => {
    const t = newTest();
    const { streamId, berta, lee } = await setUp(t);
    await digestOn(t, BERTA, ["email", "inApp"]);
    await digestOn(t, LEE, ["email"]);

    await runHour(t, BERLIN_MONDAY_8);
    let mail = await inbox(t);
    expect(mail.map((email) => email.to)).toEqual([BERTA.email]);
    expect(mail[0].subject).toBe("Your week on LiveLocal: 1 show coming up");
    expect(mail[0].html).toContain(`http://127.0.0.1:5173/stream/${streamId}`);
    expect(mail[0].text).toContain("Denim drop (Sarah's Vintage)");
    expect(mail[0].text).not.toContain("Far away");
    // Berta reads the show's time in her own zone.
    expect(mail[0].text).toContain("Wed, Nov 25, 8:01 AM GMT+1");
    const headers = Object.fromEntries(mail[0].headers.map(({ name, value }) => [name, value]));
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(headers["List-Unsubscribe"]).toMatch(/unsubscribe\?u=.+&k=weeklyDigest&t=[\w-]+>$/);
    expect(await digestRows(t, berta)).toEqual([
      `digest:${berta}:2026-W48/email/sent`,
      `digest:${berta}:2026-W48/inApp/sent`,
    ]);

    await runHour(t, LOS_ANGELES_MONDAY_8 - HOUR);
    expect(await inbox(t)).toHaveLength(1);
    await runHour(t, LOS_ANGELES_MONDAY_8);
    // The same hour's job running twice sends nothing more.
    await runHour(t, LOS_ANGELES_MONDAY_8 + 30 * 60_000);
    mail = await inbox(t);
    expect(mail.map((email) => email.to)).toEqual([BERTA.email, LEE.email]);
    expect(mail[1].text).toContain("Tue, Nov 24, 11:01 PM PST");
    expect(await digestRows(t, lee)).toEqual([`digest:${lee}:2026-W48/email/sent`]);
    expect(await digestRows(t, berta)).toHaveLength(2);

    // A person sent again directly (a retry) gets nothing more.
    await t.mutation(internal.weeklyDigest.send, {
      userId: lee,
      week: "2026-W48",
      now: LOS_ANGELES_MONDAY_8,
    });
    expect(await inbox(t)).toHaveLength(2);

    // The next Monday is another week, with the show that was too far off last week.
    await runHour(t, BERLIN_MONDAY_8 + 7 * DAY);
    expect((await digestRows(t, berta)).filter((row) => row.includes("2026-W49"))).toHaveLength(2);
    expect((await inbox(t)).at(-1)?.text).toContain("Far away");
  });

  test("people whose zone is unknown get it at 08:00 New York time; the old e-mail digest switch counts", async () => {
    const t = newTest();
    await setUp(t);
    const nadia = await t.run(async (ctx) => {
      const userId = await insertUser(ctx, { clerkId: "user_nadia", email: "nadia@livelocal.test" });
      const user = await ctx.db.get("users", userId);
      await ctx.db.patch("users", userId, {
        notificationPreferences: { ...user!.notificationPreferences, emailDigest: true },
      });
      const shop = await ctx.db.query("liveShops").first();
      await insertWithTimestamps(ctx, "shopFollows", { userId, liveShopId: shop!._id });
      return userId;
    });
    await runHour(t, BERLIN_MONDAY_8);
    await runHour(t, LOS_ANGELES_MONDAY_8);
    expect(await inbox(t)).toEqual([]);
    await runHour(t, NEW_YORK_MONDAY_8);
    expect((await inbox(t)).map((email) => email.to)).toEqual(["nadia@livelocal.test"]);
    expect(await digestRows(t, nadia)).toEqual([`digest:${nadia}:2026-W48/email/sent`]);
  });

  test("the shows of the metro areas the person chose, besides their followed shops", async () => {
    const t = newTest();
    await setUp(t);
    await writeWithTriggers(t, async (ctx) => {
      const austin = await insertWithTimestamps(ctx, "msas", {
        cbsaCode: AUSTIN,
        msaLabel: "Austin-Round Rock-San Marcos, TX",
        states: ["TX"],
        coordinatesLat: 30.27,
        coordinatesLng: -97.74,
      });
      const other = await createSellerWithShop(ctx, {
        clerkId: "user_omar",
        email: "omar@livelocal.test",
        slug: "omars",
        liveShopName: "Omar's",
        status: "active",
      });
      const streamId = await insertStream(ctx, {
        liveShopId: other.liveShopId,
        streamTitle: "Austin boots",
        streamStatus: "SCHEDULED",
        streamStartUTC: BERLIN_MONDAY_8 + DAY,
        streamStopUTC: BERLIN_MONDAY_8 + DAY + HOUR,
      });
      await linkStreamMsa(ctx, streamId, austin);
    });
    await digestOn(t, BERTA, ["email"]);
    await t.withIdentity(BERTA).mutation(api.weeklyDigest.setDigestAreas, { cbsaCodes: [AUSTIN] });

    await runHour(t, BERLIN_MONDAY_8);
    const [mail] = await inbox(t);
    expect(mail.subject).toBe("Your week on LiveLocal: 2 shows coming up");
    expect(mail.text).toContain("from shops you follow and Austin-Round Rock-San Marcos, TX");
    // Soonest first: Austin's tomorrow, then Sarah's in two days.
    expect(mail.text.indexOf("Austin boots")).toBeLessThan(mail.text.indexOf("Denim drop"));
  });
});

describe("who does not", () => {
  test("nobody who left it off, turned it off, is restricted, or has nothing coming up", async () => {
    const t = newTest();
    const { berta, lee } = await setUp(t);
    // Lee keeps the defaults: off.
    await digestOn(t, BERTA, ["email", "push", "inApp"]);
    await t.run(async (ctx) => await ctx.db.patch("users", berta, { restrictedAt: Date.now() }));
    await runHour(t, BERLIN_MONDAY_8);
    await runHour(t, LOS_ANGELES_MONDAY_8);
    expect(await inbox(t)).toEqual([]);
    expect(await digestRows(t, berta)).toEqual([]);
    expect(await digestRows(t, lee)).toEqual([]);

    // Lifted, Berta still gets nothing in a week with no shows (both are cancelled).
    await t.run(async (ctx) => {
      await ctx.db.patch("users", berta, { restrictedAt: undefined });
      for (const stream of await ctx.db.query("streams").collect()) {
        await ctx.db.patch("streams", stream._id, { streamStatus: "CANCELLED" });
      }
    });
    await runHour(t, BERLIN_MONDAY_8 + 7 * DAY);
    expect(await digestRows(t, berta)).toEqual([]);
  });

  test("the e-mail's unsubscribe turns the digest's e-mail off", async () => {
    const t = newTest();
    const { berta } = await setUp(t);
    await digestOn(t, BERTA, ["email"]);
    await t.withIdentity(BERTA).mutation(api.notifications.setChannel, {
      kind: "weeklyDigest",
      channel: "email",
      on: false,
    });
    await runHour(t, BERLIN_MONDAY_8);
    expect(await inbox(t)).toEqual([]);
    expect(await digestRows(t, berta)).toEqual([]);
  });
});

describe("bounded work", () => {
  test("a zone's people are read a page at a time; each digest is its own transaction", async () => {
    const t = newTest();
    const people = DIGEST_PEOPLE_PER_BATCH + 50;
    await t.run(async (ctx) => {
      for (let i = 0; i < people; i++) {
        const userId = await insertUser(ctx, { clerkId: `user_${i}`, email: `p${i}@livelocal.test` });
        const user = await ctx.db.get("users", userId);
        await ctx.db.patch("users", userId, {
          timeZone: "Europe/Berlin",
          notificationPreferences: { ...user!.notificationPreferences, emailDigest: true },
        });
      }
    });
    vi.setSystemTime(BERLIN_MONDAY_8);
    await t.mutation(internal.weeklyDigest.zoneBatch, {
      timeZone: "Europe/Berlin",
      week: "2026-W48",
      now: BERLIN_MONDAY_8,
      cursor: null,
    });
    const scheduled = await t.run(async (ctx) => await ctx.db.system.query("_scheduled_functions").collect());
    const names = scheduled.map((job) => job.name);
    expect(names.filter((name) => name.includes("send"))).toHaveLength(DIGEST_PEOPLE_PER_BATCH);
    expect(names.filter((name) => name.includes("zoneBatch"))).toHaveLength(1);
    // Nobody follows anything: every digest is empty, so nothing is sent.
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    expect(await inbox(t)).toEqual([]);
  });
});

describe("bounded planning", () => {
  test("the zones are walked a run at a time, and only Monday-08:xx zones start a batch", async () => {
    const t = newTest();
    const zones = Intl.supportedValuesOf("timeZone").slice(0, DIGEST_ZONES_PER_RUN + 20);
    await t.run(async (ctx) => {
      for (const [i, timeZone] of zones.entries()) {
        const userId = await insertUser(ctx, { clerkId: `user_${i}`, email: `p${i}@livelocal.test` });
        await ctx.db.patch("users", userId, { timeZone });
      }
    });
    vi.setSystemTime(BERLIN_MONDAY_8);
    await t.mutation(internal.weeklyDigest.plan, {});
    const jobs = async () =>
      (await t.run(async (ctx) => await ctx.db.system.query("_scheduled_functions").collect())).map(
        (job) => ({ name: job.name, args: job.args[0] as { timeZone?: string | null } }),
      );
    // One run looked at DIGEST_ZONES_PER_RUN zones and scheduled the rest.
    expect((await jobs()).filter((job) => job.name.includes("plan"))).toHaveLength(1);
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    const started = (await jobs())
      .filter((job) => job.name.includes("zoneBatch"))
      .map((job) => job.args.timeZone)
      .sort();
    const due = zones.filter((zone) => digestWeekAt(BERLIN_MONDAY_8, zone) !== null);
    expect(due.length).toBeGreaterThan(0);
    expect(started).toEqual(due.sort());
  });
});

describe("the person's settings", () => {
  test("the browser's zone is kept at sign-in (its canonical name); anything else is ignored", async () => {
    const t = newTest();
    const { lee } = await setUp(t);
    const zoneOf = async () => (await t.run(async (ctx) => await ctx.db.get("users", lee)))?.timeZone;
    await t.withIdentity(LEE).mutation(api.users.ensureUser, { timeZone: "US/Pacific" });
    expect(await zoneOf()).toBe("America/Los_Angeles");
    await t.withIdentity(LEE).mutation(api.users.ensureUser, { timeZone: "Mars/Olympus_Mons" });
    expect(await zoneOf()).toBe("America/Los_Angeles");
    await t.withIdentity(LEE).mutation(api.users.ensureUser, { timeZone: "Europe/Berlin" });
    expect(await t.withIdentity(LEE).query(api.weeklyDigest.myDigest, {})).toEqual({
      timeZone: "Europe/Berlin",
      usedTimeZone: "Europe/Berlin",
      areas: [],
    });
  });

  test("metro areas: known ones, at most three", async () => {
    const t = newTest();
    await setUp(t);
    const set = (cbsaCodes: string[]) =>
      t.withIdentity(LEE).mutation(api.weeklyDigest.setDigestAreas, { cbsaCodes });
    await expect(set(["00000"])).rejects.toThrow(/from the list/);
    await expect(set(["12420", "19740", "31080", "41860"])).rejects.toThrow(/at most 3/);
    await set(["12420", "12420", "19740"]);
    expect((await t.withIdentity(LEE).query(api.weeklyDigest.myDigest, {}))?.areas).toEqual([
      "12420",
      "19740",
    ]);
    await expect(t.mutation(api.weeklyDigest.setDigestAreas, { cbsaCodes: ["12420"] })).rejects.toThrow();
  });
});
