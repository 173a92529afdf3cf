/**
 * Notifications outside the open tab (model/notifications.ts, decision 036): the person's switches and
 * in-app list, the one-click unsubscribe, and the internal fan-outs the triggers and crons schedule.
 */
import { vOnEmailEventArgs } from "@convex-dev/resend";
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalMutation, mutation, query } from "./functions";
import { NOTIFICATION_KINDS } from "./lib/constants";
import { getUserByEmail } from "./model/users";
import { reminderNotice } from "./model/noticeEvents";
import { channelsFor } from "./lib/notificationChannels";
import {
  deliverNotice,
  pruneNotificationsBatch,
  stopsEmail,
  unsubscribeTokenValid,
} from "./model/notifications";
import { patchWithTimestamps } from "./model/timestamps";
import { channelSwitchesValidator, notificationChannelValidator, notificationKindValidator } from "./schema";

export const noticeValidator = v.object({
  kind: notificationKindValidator,
  eventKey: v.string(),
  title: v.string(),
  body: v.string(),
  path: v.string(),
});

/** Savers told per transaction: each costs a handful of reads and up to four writes. */
export const STREAM_NOTICE_BATCH_SIZE = 100;
/** In-app notices the settings page lists. */
export const RECENT_NOTICES_LIMIT = 10;
/** Streams whose reminders one cron run sends. */
const REMINDER_STREAMS_PER_RUN = 50;

/** Every kind's switches for the caller, defaults filled in. */
export const myChannels = query({
  args: {},
  returns: v.array(v.object({ kind: notificationKindValidator, channels: channelSwitchesValidator })),
  handler: async (ctx) => {
    if (!ctx.viewer) return [];
    const preferences = ctx.viewer.notificationPreferences;
    return await Promise.resolve(
      NOTIFICATION_KINDS.map((kind) => ({ kind, channels: channelsFor(preferences, kind) })),
    );
  },
});

/** Turns one kind's channel on or off for the caller; `appOrigin` is where e-mail links will point. */
export const setChannel = mutation({
  args: {
    kind: notificationKindValidator,
    channel: notificationChannelValidator,
    on: v.boolean(),
    appOrigin: v.optional(v.string()),
  },
  returns: v.null(),
  handler: async (ctx, { kind, channel, on, appOrigin }) => {
    const preferences = ctx.viewer.notificationPreferences;
    const channels = {
      ...preferences.channels,
      [kind]: { ...channelsFor(preferences, kind), [channel]: on },
    };
    const origin = appOrigin && /^https?:\/\/[^/]+$/.test(appOrigin) ? appOrigin : preferences.appOrigin;
    await patchWithTimestamps(ctx, "users", ctx.viewer._id, {
      notificationPreferences: { ...preferences, channels, appOrigin: origin },
    });
    return null;
  },
});

/** The caller's latest in-app notices, newest first. */
export const myNotices = query({
  args: {},
  returns: v.array(
    v.object({
      _id: v.id("notifications"),
      kind: notificationKindValidator,
      title: v.string(),
      body: v.string(),
      path: v.string(),
      createdAt: v.number(),
    }),
  ),
  handler: async (ctx) => {
    if (!ctx.viewer) return [];
    const viewerId = ctx.viewer._id;
    const rows = await ctx.db
      .query("notifications")
      .withIndex("by_userId_and_channel_and_createdAt", (q) =>
        q.eq("userId", viewerId).eq("channel", "inApp"),
      )
      .order("desc")
      .take(RECENT_NOTICES_LIMIT);
    return rows.map(({ _id, kind, title, body, path, createdAt }) => ({
      _id,
      kind,
      title,
      body,
      path,
      createdAt,
    }));
  },
});

/**
 * One-click unsubscribe (RFC 8058), from the link or the List-Unsubscribe-Post of an e-mail: turns the
 * kind's e-mail off when the token is this person's. False for a bad token or a person gone.
 */
export const unsubscribe = internalMutation({
  args: { userId: v.string(), kind: v.string(), token: v.string() },
  returns: v.boolean(),
  handler: async (ctx, { userId, kind, token }) => {
    const id = ctx.db.normalizeId("users", userId);
    const known = NOTIFICATION_KINDS.find((k) => k === kind);
    if (!id || !known || !(await unsubscribeTokenValid(id, known, token))) return false;
    const user = await ctx.db.get("users", id);
    if (!user) return false;
    const preferences = user.notificationPreferences;
    const channels = {
      ...preferences.channels,
      [known]: { ...channelsFor(preferences, known), email: false },
    };
    await patchWithTimestamps(ctx, "users", id, { notificationPreferences: { ...preferences, channels } });
    return true;
  },
});

/**
 * Resend's report on an e-mail (its webhook, convex/http.ts): after a complaint or a hard bounce the
 * person's e-mail is switched off for every kind, as an unsubscribe would; they can turn it on again.
 */
export const onEmailEvent = internalMutation({
  args: vOnEmailEventArgs,
  returns: v.null(),
  handler: async (ctx, { event }) => {
    if (!stopsEmail(event)) return null;
    const addresses = Array.isArray(event.data.to) ? event.data.to : [event.data.to];
    for (const address of addresses) {
      const user = await getUserByEmail(ctx, address.replace(/^.*<([^>]+)>$/, "$1"));
      if (!user) continue;
      const preferences = user.notificationPreferences;
      const channels = Object.fromEntries(
        NOTIFICATION_KINDS.map((kind) => [kind, { ...channelsFor(preferences, kind), email: false }]),
      );
      await patchWithTimestamps(ctx, "users", user._id, {
        notificationPreferences: { ...preferences, channels },
      });
    }
    return null;
  },
});

/** One notice for one person; scheduled by the triggers (shop and stream decisions, privacy requests). */
export const notifyPerson = internalMutation({
  args: { userId: v.id("users"), notice: noticeValidator },
  returns: v.null(),
  handler: async (ctx, { userId, notice }) => {
    await deliverNotice(ctx, userId, notice);
    return null;
  },
});

/** One batch of a notice to everyone who saved a stream; schedules the next batch. */
export const notifySavers = internalMutation({
  args: { streamId: v.id("streams"), notice: noticeValidator, cursor: v.union(v.string(), v.null()) },
  returns: v.null(),
  handler: async (ctx, { streamId, notice, cursor }) => {
    const page = await ctx.db
      .query("savedStreams")
      .withIndex("by_streamId", (q) => q.eq("streamId", streamId))
      .paginate({ numItems: STREAM_NOTICE_BATCH_SIZE, cursor });
    for (const { userId } of page.page) await deliverNotice(ctx, userId, notice);
    if (!page.isDone) {
      await ctx.scheduler.runAfter(0, internal.notifications.notifySavers, {
        streamId,
        notice,
        cursor: page.continueCursor,
      });
    }
    return null;
  },
});

/** A shop's streams whose savers one run of notifyShopAudience hands to notifySavers. */
const SHOP_STREAMS_PER_RUN = 100;

/**
 * A notice to everyone who follows a shop (in batches), then to the savers of each of its shows (one
 * notifySavers fan-out per show). One event key for all: someone who follows the shop and saved three
 * of its shows is told once.
 */
export const notifyShopAudience = internalMutation({
  args: {
    liveShopId: v.id("liveShops"),
    notice: noticeValidator,
    phase: v.union(v.literal("followers"), v.literal("streams")),
    cursor: v.union(v.string(), v.null()),
  },
  returns: v.null(),
  handler: async (ctx, { liveShopId, notice, phase, cursor }) => {
    if (phase === "followers") {
      const page = await ctx.db
        .query("shopFollows")
        .withIndex("by_liveShopId", (q) => q.eq("liveShopId", liveShopId))
        .paginate({ numItems: STREAM_NOTICE_BATCH_SIZE, cursor });
      for (const { userId } of page.page) await deliverNotice(ctx, userId, notice);
      await ctx.scheduler.runAfter(0, internal.notifications.notifyShopAudience, {
        liveShopId,
        notice,
        phase: page.isDone ? "streams" : "followers",
        cursor: page.isDone ? null : page.continueCursor,
      });
      return null;
    }
    const page = await ctx.db
      .query("streams")
      .withIndex("by_liveShopId", (q) => q.eq("liveShopId", liveShopId))
      .paginate({ numItems: SHOP_STREAMS_PER_RUN, cursor });
    for (const stream of page.page) {
      await ctx.scheduler.runAfter(0, internal.notifications.notifySavers, {
        streamId: stream._id,
        notice,
        cursor: null,
      });
    }
    if (!page.isDone) {
      await ctx.scheduler.runAfter(0, internal.notifications.notifyShopAudience, {
        liveShopId,
        notice,
        phase: "streams",
        cursor: page.continueCursor,
      });
    }
    return null;
  },
});

/**
 * Every five minutes: reminders for scheduled shows starting within the hour (one hour ahead) and
 * within ten minutes. A show is reminded once per kind and start time whichever run sees it first.
 */
export const sendReminders = internalMutation({
  args: {},
  returns: v.null(),
  handler: async (ctx) => {
    const now = Date.now();
    const soon = await ctx.db
      .query("streams")
      .withIndex("by_streamStatus_and_streamStartUTC", (q) =>
        q
          .eq("streamStatus", "SCHEDULED")
          .gt("streamStartUTC", now)
          .lte("streamStartUTC", now + 60 * 60 * 1000),
      )
      .take(REMINDER_STREAMS_PER_RUN);
    for (const stream of soon) {
      const start = stream.streamStartUTC ?? now;
      const kind = start - now <= 10 * 60 * 1000 ? "reminder10m" : "reminder1h";
      await ctx.scheduler.runAfter(0, internal.notifications.notifySavers, {
        streamId: stream._id,
        notice: reminderNotice(stream, kind, now),
        cursor: null,
      });
    }
    return null;
  },
});

/** Hourly: deletes notices past their month; runs again at once while a full batch was deleted. */
export const prune = internalMutation({
  args: {},
  returns: v.null(),
  handler: async (ctx) => {
    if (await pruneNotificationsBatch(ctx, Date.now())) {
      await ctx.scheduler.runAfter(0, internal.notifications.prune, {});
    }
    return null;
  },
});
