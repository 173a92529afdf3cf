/**
 * The weekly digest (model/weeklyDigest.ts, decision 036): the caller's digest settings, and the hourly
 * job that finds the people whose Monday 08:00 it is, zone by zone, in bounded batches.
 */
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalMutation, mutation, query } from "./functions";
import { DEFAULT_TIME_ZONE, DIGEST_AREAS_MAX } from "./lib/constants";
import { digestWeekAt } from "./lib/time";
import { appError } from "./model/errors";
import { deliverNotice } from "./model/notifications";
import { patchWithTimestamps } from "./model/timestamps";
import {
  composeDigest,
  digestEventKey,
  digestTimeZone,
  isKnownArea,
  wantsDigest,
} from "./model/weeklyDigest";

/** Distinct time zones one planning transaction looks at (one index read each). */
export const DIGEST_ZONES_PER_RUN = 50;
/** People one batch reads; each wanting the digest gets their own scheduled transaction. */
export const DIGEST_PEOPLE_PER_BATCH = 100;

/** The caller's time zone as the server knows it, the zone used for their digest, and their areas. */
export const myDigest = query({
  args: {},
  returns: v.union(
    v.object({
      timeZone: v.union(v.string(), v.null()),
      usedTimeZone: v.string(),
      areas: v.array(v.string()),
    }),
    v.null(),
  ),
  handler: async (ctx) => {
    if (!ctx.viewer) return null;
    return await Promise.resolve({
      timeZone: ctx.viewer.timeZone ?? null,
      usedTimeZone: digestTimeZone(ctx.viewer),
      areas: ctx.viewer.notificationPreferences.digestAreas ?? [],
    });
  },
});

/** Sets the metro areas (CBSA codes, at most DIGEST_AREAS_MAX) whose shows the caller's digest lists. */
export const setDigestAreas = mutation({
  args: { cbsaCodes: v.array(v.string()) },
  returns: v.null(),
  handler: async (ctx, { cbsaCodes }) => {
    const areas = [...new Set(cbsaCodes)];
    if (areas.length > DIGEST_AREAS_MAX) {
      throw appError("INVALID_ARGUMENT", `Choose at most ${DIGEST_AREAS_MAX} metro areas.`);
    }
    if (!areas.every(isKnownArea)) throw appError("INVALID_ARGUMENT", "Choose metro areas from the list.");
    const preferences = ctx.viewer.notificationPreferences;
    await patchWithTimestamps(ctx, "users", ctx.viewer._id, {
      notificationPreferences: { ...preferences, digestAreas: areas },
    });
    return null;
  },
});

/**
 * Hourly (crons.ts): walks the distinct zones people have (`by_timeZone`, one read per zone, no scan of
 * the people) and starts a batch for each zone where it is Monday 08:xx now, and for the people with no
 * zone yet when it is in New York. Continues itself after DIGEST_ZONES_PER_RUN zones, judged at the
 * same `now`.
 */
export const plan = internalMutation({
  args: { now: v.optional(v.number()), after: v.optional(v.string()) },
  returns: v.null(),
  handler: async (ctx, args) => {
    const now = args.now ?? Date.now();
    // Zones (null: people with no zone yet, judged in New York's) whose Monday 08:xx it is.
    const due: { timeZone: string | null; week: string }[] = [];
    const check = (timeZone: string | null) => {
      const week = digestWeekAt(now, timeZone ?? DEFAULT_TIME_ZONE);
      if (week) due.push({ timeZone, week });
    };
    if (args.after === undefined) check(null);
    let after = args.after ?? "";
    let done = false;
    for (let i = 0; i < DIGEST_ZONES_PER_RUN && !done; i++) {
      const next = await ctx.db
        .query("users")
        .withIndex("by_timeZone", (q) => q.gt("timeZone", after))
        .first();
      if (next?.timeZone === undefined) done = true;
      else {
        after = next.timeZone;
        check(after);
      }
    }
    for (const { timeZone, week } of due) {
      await ctx.scheduler.runAfter(0, internal.weeklyDigest.zoneBatch, { timeZone, week, now, cursor: null });
    }
    if (!done) await ctx.scheduler.runAfter(0, internal.weeklyDigest.plan, { now, after });
    return null;
  },
});

/** One page of the people of a zone (null: no zone yet): schedules each one's digest, then the next page. */
export const zoneBatch = internalMutation({
  args: {
    timeZone: v.union(v.string(), v.null()),
    week: v.string(),
    now: v.number(),
    cursor: v.union(v.string(), v.null()),
  },
  returns: v.null(),
  handler: async (ctx, { timeZone, week, now, cursor }) => {
    const page = await ctx.db
      .query("users")
      .withIndex("by_timeZone", (q) => q.eq("timeZone", timeZone ?? undefined))
      .paginate({ numItems: DIGEST_PEOPLE_PER_BATCH, cursor });
    for (const user of page.page) {
      if (wantsDigest(user)) {
        await ctx.scheduler.runAfter(0, internal.weeklyDigest.send, { userId: user._id, week, now });
      }
    }
    if (!page.isDone) {
      await ctx.scheduler.runAfter(0, internal.weeklyDigest.zoneBatch, {
        timeZone,
        week,
        now,
        cursor: page.continueCursor,
      });
    }
    return null;
  },
});

/** One person's digest for `week`: nothing when already sent, unwanted, or empty. */
export const send = internalMutation({
  args: { userId: v.id("users"), week: v.string(), now: v.number() },
  returns: v.null(),
  handler: async (ctx, { userId, week, now }) => {
    const user = await ctx.db.get("users", userId);
    if (!wantsDigest(user)) return null;
    const sentBefore = await ctx.db
      .query("notifications")
      .withIndex("by_userId_and_eventKey_and_channel", (q) =>
        q.eq("userId", userId).eq("eventKey", digestEventKey(userId, week)),
      )
      .first();
    if (sentBefore) return null;
    const notice = await composeDigest(ctx, user, week, now);
    if (notice) await deliverNotice(ctx, userId, notice);
    return null;
  },
});
