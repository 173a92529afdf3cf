/**
 * Data retention (issue 7, item 4): a user's `dataRetentionPolicy` (DATA_RETENTION_POLICIES) takes
 * effect once their `dataRetentionEndDate` has passed, applied by the daily job in convex/retention.ts:
 *
 * - "delete_account": the account and everything it owns are deleted, as an approved deletion request
 *   deletes them (model/privacy.ts `deleteAccount`);
 * - "anonymize_activity": the watch list, follows, data exports, analytics counters and the free text
 *   of past privacy requests are removed; the account, its shops and streams stay;
 * - "none" (or no policy, or one this version does not know): nothing is removed.
 *
 * Once applied, the end date and policy are cleared, so the user leaves the job's range. Each user is
 * handled in their own transactions, in bounded batches. Expired data exports are swept as well, in
 * case their scheduled deletion was missed.
 */
import { internal } from "../_generated/api";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { DATA_RETENTION_POLICIES, type DataRetentionPolicy } from "../lib/constants";
import { deleteDataExport, sweepExpiredExports } from "./dataExport";
import { deleteAccount } from "./privacy";
import { patchWithTimestamps } from "./timestamps";

/** Users whose retention ends, started per run of the job; more schedule another run. */
export const RETENTION_USERS_PER_RUN = 50;
/** Expired exports swept per run. */
export const EXPORTS_SWEPT_PER_RUN = 100;
/** Rows removed per table per transaction while anonymising a user's activity. */
export const ANONYMISED_PER_BATCH = 200;

export function retentionPolicyOf(user: Pick<Doc<"users">, "dataRetentionPolicy">): DataRetentionPolicy {
  const policy = user.dataRetentionPolicy;
  return (DATA_RETENTION_POLICIES as readonly string[]).includes(policy ?? "")
    ? (policy as DataRetentionPolicy)
    : "none";
}

/**
 * One run of the daily job: sweeps expired exports and starts the retention of each user whose end date
 * has passed (one scheduled transaction per user). Returns how many users it started.
 */
export async function applyRetention(ctx: MutationCtx, now = Date.now()): Promise<number> {
  const swept = await sweepExpiredExports(ctx, EXPORTS_SWEPT_PER_RUN, now);
  const due = await ctx.db
    .query("users")
    .withIndex("by_dataRetentionEndDate", (q) =>
      q.gte("dataRetentionEndDate", 0).lte("dataRetentionEndDate", now),
    )
    .take(RETENTION_USERS_PER_RUN);
  for (const user of due) {
    await ctx.scheduler.runAfter(0, internal.retention.applyUserRetention, { userId: user._id });
  }
  // A full batch or sweep may leave more: the next run follows once these are done.
  if (due.length === RETENTION_USERS_PER_RUN || swept === EXPORTS_SWEPT_PER_RUN) {
    await ctx.scheduler.runAfter(60_000, internal.retention.applyRetention, {});
  }
  return due.length;
}

/** Applies one user's policy if their end date has passed; reschedules itself until done. */
export async function applyUserRetention(
  ctx: MutationCtx,
  userId: Id<"users">,
  now = Date.now(),
): Promise<void> {
  const user = await ctx.db.get("users", userId);
  if (!user || user.dataRetentionEndDate === undefined || user.dataRetentionEndDate > now) return;
  switch (retentionPolicyOf(user)) {
    case "delete_account":
      await deleteAccount(ctx, user, now);
      return;
    case "anonymize_activity":
      if (!(await anonymiseActivity(ctx, user, now))) {
        await ctx.scheduler.runAfter(0, internal.retention.applyUserRetention, { userId });
        return;
      }
      break;
    case "none":
      break;
  }
  await patchWithTimestamps(
    ctx,
    "users",
    userId,
    { dataRetentionEndDate: undefined, dataRetentionPolicy: undefined },
    now,
  );
}

/** One batch of "anonymize_activity"; true when nothing is left. */
async function anonymiseActivity(ctx: MutationCtx, user: Doc<"users">, now: number): Promise<boolean> {
  const userId = user._id;
  const saved = await ctx.db
    .query("savedStreams")
    .withIndex("by_userId_and_streamId", (q) => q.eq("userId", userId))
    .take(ANONYMISED_PER_BATCH);
  for (const row of saved) await ctx.db.delete("savedStreams", row._id);
  const follows = await ctx.db
    .query("shopFollows")
    .withIndex("by_userId_and_liveShopId", (q) => q.eq("userId", userId))
    .take(ANONYMISED_PER_BATCH);
  for (const row of follows) await ctx.db.delete("shopFollows", row._id);
  const alerts = await ctx.db
    .query("goLiveAlerts")
    .withIndex("by_userId_and_claimedAt", (q) => q.eq("userId", userId))
    .take(ANONYMISED_PER_BATCH);
  for (const row of alerts) await ctx.db.delete("goLiveAlerts", row._id);
  const feeds = await ctx.db
    .query("calendarFeeds")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .take(ANONYMISED_PER_BATCH);
  for (const row of feeds) await ctx.db.delete("calendarFeeds", row._id);
  const exports = await ctx.db
    .query("dataExports")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .take(ANONYMISED_PER_BATCH);
  for (const row of exports) await deleteDataExport(ctx, row);
  // Past requests keep what was asked and decided, not the words; an open one keeps its reason.
  // A person has few requests (one open at a time), so the filter scans little; patched rows leave it.
  const requests = await ctx.db
    .query("privacyRequests")
    .withIndex("by_userId_and_requestedAt", (q) => q.eq("userId", userId))
    // eslint-disable-next-line @convex-dev/no-filter-in-query -- bounded by one person's requests; see above
    .filter((q) =>
      q.and(
        q.neq(q.field("status"), "pending_export"),
        q.neq(q.field("status"), "pending_deletion"),
        q.neq(q.field("status"), "pending_review"),
        q.or(
          q.neq(q.field("reason"), undefined),
          q.neq(q.field("details"), undefined),
          q.neq(q.field("decisionReason"), undefined),
        ),
      ),
    )
    .take(ANONYMISED_PER_BATCH);
  for (const request of requests) {
    await patchWithTimestamps(
      ctx,
      "privacyRequests",
      request._id,
      { reason: undefined, details: undefined, decisionReason: undefined, corrections: undefined },
      now,
    );
  }
  if (user.analytics !== undefined)
    await patchWithTimestamps(ctx, "users", userId, { analytics: undefined }, now);
  return (
    saved.length < ANONYMISED_PER_BATCH &&
    follows.length < ANONYMISED_PER_BATCH &&
    alerts.length < ANONYMISED_PER_BATCH &&
    feeds.length < ANONYMISED_PER_BATCH &&
    exports.length < ANONYMISED_PER_BATCH &&
    requests.length < ANONYMISED_PER_BATCH
  );
}
