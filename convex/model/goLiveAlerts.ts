/**
 * Go-live alerts (issue 8, decision 021): when a stream goes live, everyone who saved it or follows its
 * shop, and whose notification preferences ask for it, gets one alert row. The fan-out runs in
 * scheduled batches, so a shop with many followers never slows the seller's "Go live". Each open tab
 * of the person sees the pending row; the first tab to claim it announces it, every other claim gets
 * nothing, so an event is announced once, in one tab.
 */
import type { PaginationResult } from "convex/server";
import { v, type Infer } from "convex/values";
import { internal } from "../_generated/api";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { GO_LIVE_ALERT_FRESH_MS, GO_LIVE_ALERT_TTL_MS, type GoLiveAlertReason } from "../lib/constants";
import { isStreamListedPublicly } from "../lib/lifecycle";
import { goLiveAlertReasonValidator } from "../schema";
import { appError } from "./errors";
import { goLiveNotice } from "./noticeEvents";
import { channelsFor } from "../lib/notificationChannels";
import { countInsight } from "./insights";
import { deliverNotice, reachable } from "./notifications";
import { publicShopStatus } from "./restriction";
import { insertWithTimestamps, patchWithTimestamps } from "./timestamps";

/** People told per fan-out transaction: a few reads and one write each. */
export const FAN_OUT_BATCH_SIZE = 100;
/** Old alerts deleted per pruning transaction. */
export const PRUNE_BATCH_SIZE = 500;
/** Waiting alerts one tab is shown at a time. */
export const PENDING_ALERTS_LIMIT = 5;

/** A show going live for the first time: from draft or scheduled. Resuming after a pause is not news. */
export function startsGoLive(before: Doc<"streams"> | null, after: Doc<"streams"> | null): boolean {
  return (
    before !== null &&
    after !== null &&
    after.streamStatus === "LIVE" &&
    (before.streamStatus === "CREATED" || before.streamStatus === "SCHEDULED")
  );
}

/** Whether the person asked to hear about this kind of go-live (`users.notificationPreferences`). */
export function wantsAlert(user: Doc<"users">, reason: GoLiveAlertReason): boolean {
  return reason === "saved"
    ? user.notificationPreferences.goLiveSavedStreams
    : user.notificationPreferences.goLiveFollowedShops;
}

/** A live stream of a shop the public can see, or null: nobody is told about anything else. */
async function liveListedStream(ctx: MutationCtx, streamId: Id<"streams">) {
  const stream = await ctx.db.get("streams", streamId);
  if (!stream) return null;
  const shop = await ctx.db.get("liveShops", stream.liveShopId);
  if (!shop || !isStreamListedPublicly(stream.streamStatus, publicShopStatus(shop))) return null;
  return stream.streamStatus === "LIVE" ? { stream, shop } : null;
}

export const fanOutPhaseValidator = goLiveAlertReasonValidator;

/**
 * One batch of a stream's go-live fan-out: first the people who saved it, then its shop's followers.
 * Someone in both gets one alert (as a saver, when they want those). Schedules the next batch; stops
 * once the stream is no longer live.
 */
export async function fanOutGoLiveBatch(
  ctx: MutationCtx,
  streamId: Id<"streams">,
  phase: GoLiveAlertReason,
  cursor: string | null,
): Promise<void> {
  const found = await liveListedStream(ctx, streamId);
  if (!found) return;
  const { stream } = found;
  const paginationOpts = { numItems: FAN_OUT_BATCH_SIZE, cursor };
  const page: PaginationResult<{ userId: Id<"users"> }> =
    phase === "saved"
      ? await ctx.db
          .query("savedStreams")
          .withIndex("by_streamId", (q) => q.eq("streamId", streamId))
          .paginate(paginationOpts)
      : await ctx.db
          .query("shopFollows")
          .withIndex("by_liveShopId", (q) => q.eq("liveShopId", stream.liveShopId))
          .paginate(paginationOpts);
  const notice = goLiveNotice(stream);
  for (const { userId } of page.page) {
    const user = await ctx.db.get("users", userId);
    if (!reachable(user) || !wantsAlert(user, phase)) continue;
    // E-mail and push (decision 036); the in-app notice is this alert.
    const sent = await deliverNotice(ctx, userId, notice, { skipInApp: true });
    const already =
      !channelsFor(user.notificationPreferences, "goLive").inApp ||
      (await ctx.db
        .query("goLiveAlerts")
        .withIndex("by_userId_and_streamId", (q) => q.eq("userId", userId).eq("streamId", streamId))
        .first()) !== null;
    // Counted once per person told, by whichever of the two phases tells them first (decision 089).
    if (sent.length > 0 || !already) {
      await countInsight(ctx, { liveShopId: stream.liveShopId, streamId, metric: "goLive" });
    }
    if (already) continue;
    await insertWithTimestamps(ctx, "goLiveAlerts", {
      userId,
      streamId,
      liveShopId: stream.liveShopId,
      reason: phase,
    });
  }
  if (!page.isDone) {
    await ctx.scheduler.runAfter(0, internal.goLiveAlerts.fanOut, {
      streamId,
      phase,
      cursor: page.continueCursor,
    });
  } else if (phase === "saved") {
    await ctx.scheduler.runAfter(0, internal.goLiveAlerts.fanOut, {
      streamId,
      phase: "followed",
      cursor: null,
    });
  }
}

export const announcementValidator = v.object({
  streamId: v.id("streams"),
  streamTitle: v.string(),
  liveShopName: v.string(),
  reason: goLiveAlertReasonValidator,
});
export type Announcement = Infer<typeof announcementValidator>;

/**
 * Claims one of the caller's waiting alerts for the calling tab. The first claim wins and returns what
 * to announce; later claims (other tabs, other devices) return null. An alert is filed without a
 * notice when it is stale (GO_LIVE_ALERT_FRESH_MS), the show is no longer live and public, or the
 * person has since turned that kind of alert off.
 */
export async function claimAlert(
  ctx: MutationCtx,
  viewer: Doc<"users">,
  alertId: Id<"goLiveAlerts">,
  now: number,
): Promise<Announcement | null> {
  const alert = await ctx.db.get("goLiveAlerts", alertId);
  if (!alert || alert.userId !== viewer._id)
    throw appError("NOT_FOUND", "This alert is not on your account.");
  if (alert.claimedAt !== undefined) return null;
  const found = await liveListedStream(ctx, alert.streamId);
  const announce =
    found !== null && now - alert.createdAt <= GO_LIVE_ALERT_FRESH_MS && wantsAlert(viewer, alert.reason);
  await patchWithTimestamps(ctx, "goLiveAlerts", alertId, { claimedAt: now, announced: announce }, now);
  if (!announce) return null;
  return {
    streamId: found.stream._id,
    streamTitle: found.stream.streamTitle,
    liveShopName: found.stream.liveShopName,
    reason: alert.reason,
  };
}

/** Deletes alerts older than GO_LIVE_ALERT_TTL_MS; true when a full batch suggests more are left. */
export async function pruneAlertsBatch(ctx: MutationCtx, now: number): Promise<boolean> {
  const old = await ctx.db
    .query("goLiveAlerts")
    .withIndex("by_createdAt", (q) => q.lt("createdAt", now - GO_LIVE_ALERT_TTL_MS))
    .take(PRUNE_BATCH_SIZE);
  for (const alert of old) await ctx.db.delete("goLiveAlerts", alert._id);
  return old.length === PRUNE_BATCH_SIZE;
}
