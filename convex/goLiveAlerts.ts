/**
 * Go-live alerts in the app (model/goLiveAlerts.ts): a tab lists the caller's waiting alerts and claims
 * each; only the winning claim is announced. The fan-out and the pruning are internal.
 */
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalMutation, mutation, query } from "./functions";
import {
  PENDING_ALERTS_LIMIT,
  announcementValidator,
  claimAlert,
  fanOutGoLiveBatch,
  fanOutPhaseValidator,
  pruneAlertsBatch,
} from "./model/goLiveAlerts";

/** The caller's alerts no tab has claimed yet, oldest first (ids only: a claim reveals the rest). */
export const myPendingAlerts = query({
  args: {},
  returns: v.array(v.object({ _id: v.id("goLiveAlerts"), createdAt: v.number() })),
  handler: async (ctx) => {
    if (!ctx.viewer) return [];
    const viewerId = ctx.viewer._id;
    const pending = await ctx.db
      .query("goLiveAlerts")
      .withIndex("by_userId_and_claimedAt", (q) => q.eq("userId", viewerId).eq("claimedAt", undefined))
      .take(PENDING_ALERTS_LIMIT);
    return pending.map(({ _id, createdAt }) => ({ _id, createdAt }));
  },
});

/** Claims one of the caller's alerts for this tab: what to announce, or null when not this tab's to. */
export const claim = mutation({
  args: { alertId: v.id("goLiveAlerts") },
  returns: v.union(announcementValidator, v.null()),
  handler: async (ctx, { alertId }) => await claimAlert(ctx, ctx.viewer, alertId, Date.now()),
});

/** One batch of a stream's fan-out; scheduled by the streams trigger (model/triggers.ts). */
export const fanOut = internalMutation({
  args: { streamId: v.id("streams"), phase: fanOutPhaseValidator, cursor: v.union(v.string(), v.null()) },
  returns: v.null(),
  handler: async (ctx, { streamId, phase, cursor }) => {
    await fanOutGoLiveBatch(ctx, streamId, phase, cursor);
    return null;
  },
});

/** Hourly: deletes alerts past their day; runs again at once while a full batch was deleted. */
export const prune = internalMutation({
  args: {},
  returns: v.null(),
  handler: async (ctx) => {
    if (await pruneAlertsBatch(ctx, Date.now())) {
      await ctx.scheduler.runAfter(0, internal.goLiveAlerts.prune, {});
    }
    return null;
  },
});
