/**
 * Deleting a user, a shop or a stream with everything that points at it (docs/product.md#visibility:
 * deleting a user deletes their shops, the shops' streams and every link row).
 *
 * A big account holds more rows than one Convex transaction may write, so the work runs in batches of
 * at most `CASCADE_BATCH_SIZE` documents and index reads; an unfinished batch schedules the next one.
 * The row asked for goes first, so it disappears at once; what hangs below it is found again by index
 * on its id in every batch, and nested rows (a user's shops, a shop's streams) go only after their own
 * links, so an interrupted batch never strands a row (decision 009).
 */
import { internal } from "../_generated/api";
import type { Doc, Id, TableNames } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import type { Role } from "../lib/constants";
import { deleteDataExport } from "./dataExport";
import { deleteImageUpload, deleteUnclaimedUpload, syncShopImages, syncStreamImages } from "./images";
import { patchWithTimestamps } from "./timestamps";
import { insightCounter } from "./insights";

/** Documents deleted or changed, plus index ranges read, per transaction: far below Convex's limits. */
export const CASCADE_BATCH_SIZE = 500;

/** What one transaction may still spend. */
class Budget {
  constructor(private remaining: number) {}

  get left(): number {
    return this.remaining;
  }

  spend(amount: number): void {
    this.remaining -= amount;
  }
}

/**
 * Applies `apply` to the rows `next(limit)` returns, `pageSize` at a time, until none are left (true)
 * or the budget is spent or `apply` could not finish a row (false). `apply` must take its row out of
 * the range `next` reads (delete it, or clear its key).
 */
async function drain<Row>(
  budget: Budget,
  next: (limit: number) => Promise<Row[]>,
  apply: (row: Row) => Promise<boolean>,
  pageSize = Number.POSITIVE_INFINITY,
): Promise<boolean> {
  for (;;) {
    budget.spend(1);
    const limit = Math.min(budget.left, pageSize);
    if (limit <= 0) return false;
    const rows = await next(limit);
    for (const row of rows) if (!(await apply(row))) return false;
    budget.spend(rows.length);
    if (rows.length < limit) return true;
  }
}

function deleteRow<T extends TableNames>(ctx: MutationCtx, table: T) {
  return async (row: Doc<T>): Promise<boolean> => {
    await ctx.db.delete(table, row._id);
    return true;
  };
}

/** What an anonymised admin-log entry names instead of a deleted account's rows. */
export const DELETED_TARGET_ID = "deleted";
/**
 * Who an entry a deleted person took names instead of them: an action on someone else's rows is an
 * admin's; one on their own account (their first shop) names them by the role they had (decision 065).
 */
export const DELETED_ACTOR_NAMES: Record<Role, string> = {
  admin: "A deleted admin",
  seller: "A deleted seller",
  viewer: "A deleted user",
};
const DELETED_TARGET_LABELS = {
  users: "A deleted account",
  liveShops: "A deleted account's shop",
  streams: "A deleted account's stream",
} as const;

/**
 * Which reason an entry about a deleted account keeps: a correction's, which names the fields and never
 * their values; any other may name the person (an admin's free text, or older entries' shop names).
 */
function reasonKeptAfterDeletion(entry: Doc<"adminActions">): { reason?: string } {
  return entry.action === "correct_personal_data" ? {} : { reason: undefined };
}

/**
 * Anonymises the admin-log entries about a deleted account's row (the account, one of its shops or
 * streams): the entry keeps what was done, not whom it was done to nor words that could name them.
 */
async function anonymiseLogTargets(
  ctx: MutationCtx,
  budget: Budget,
  targetTable: keyof typeof DELETED_TARGET_LABELS,
  targetId: string,
): Promise<boolean> {
  return await drain(
    budget,
    (n) =>
      ctx.db
        .query("adminActions")
        .withIndex("by_targetId", (q) => q.eq("targetId", targetId))
        .take(n),
    async (entry) => {
      await patchWithTimestamps(ctx, "adminActions", entry._id, {
        targetId: DELETED_TARGET_ID,
        targetLabel: DELETED_TARGET_LABELS[targetTable],
        ...reasonKeptAfterDeletion(entry),
      });
      return true;
    },
  );
}

/** How an anonymised log entry names a privacy request's type. */
const PRIVACY_REQUEST_LABELS: Record<Doc<"privacyRequests">["type"], string> = {
  none: "A",
  access: "A data export",
  deletion: "An account deletion",
  correction: "A correction",
  restriction: "A restriction",
};

/** Log entries about one privacy request: each request has a handful (its decision). */
const LOG_ENTRIES_PER_REQUEST = 20;

/** A stream's uploaded pictures leave with it (model/images.ts deletes those nothing else uses). */
async function releaseStreamImages(ctx: MutationCtx, budget: Budget, stream: Doc<"streams">): Promise<true> {
  budget.spend(stream.streamImageUrls.length);
  await syncStreamImages(ctx, stream, stream.streamImageUrls, []);
  return true;
}

async function deleteStreamLinks(
  ctx: MutationCtx,
  budget: Budget,
  streamId: Id<"streams">,
): Promise<boolean> {
  return (
    (await drain(
      budget,
      (n) =>
        ctx.db
          .query("liveShopStreams")
          .withIndex("by_streamId", (q) => q.eq("streamId", streamId))
          .take(n),
      deleteRow(ctx, "liveShopStreams"),
    )) &&
    (await drain(
      budget,
      (n) =>
        ctx.db
          .query("streamPlatforms")
          .withIndex("by_streamId_and_platformType", (q) => q.eq("streamId", streamId))
          .take(n),
      deleteRow(ctx, "streamPlatforms"),
    )) &&
    (await drain(
      budget,
      (n) =>
        ctx.db
          .query("streamCategories")
          .withIndex("by_streamId_and_categoryId", (q) => q.eq("streamId", streamId))
          .take(n),
      deleteRow(ctx, "streamCategories"),
    )) &&
    (await drain(
      budget,
      (n) =>
        ctx.db
          .query("streamMsas")
          .withIndex("by_streamId_and_msaId", (q) => q.eq("streamId", streamId))
          .take(n),
      deleteRow(ctx, "streamMsas"),
    )) &&
    (await drain(
      budget,
      (n) =>
        ctx.db
          .query("savedStreams")
          .withIndex("by_streamId", (q) => q.eq("streamId", streamId))
          .take(n),
      deleteRow(ctx, "savedStreams"),
    )) &&
    (await drain(
      budget,
      (n) =>
        ctx.db
          .query("goLiveAlerts")
          .withIndex("by_streamId", (q) => q.eq("streamId", streamId))
          .take(n),
      deleteRow(ctx, "goLiveAlerts"),
    ))
  );
}

/**
 * A shop's streams, each after its links, then the shop's own link rows. `forDeletedAccount`: the
 * shop goes with its owner's account, so admin-log entries about it and its streams are anonymised too.
 */
async function deleteShopContent(
  ctx: MutationCtx,
  budget: Budget,
  liveShopId: Id<"liveShops">,
  forDeletedAccount = false,
): Promise<boolean> {
  return (
    (!forDeletedAccount || (await anonymiseLogTargets(ctx, budget, "liveShops", liveShopId))) &&
    (await drain(
      budget,
      (n) =>
        ctx.db
          .query("streams")
          .withIndex("by_liveShopId", (q) => q.eq("liveShopId", liveShopId))
          .take(n),
      // A stream goes only once its links are gone; otherwise the next batch finds it again. Its
      // uploaded pictures go with it (an account's all go with the account).
      async (stream) =>
        (!forDeletedAccount || (await anonymiseLogTargets(ctx, budget, "streams", stream._id))) &&
        (await deleteStreamLinks(ctx, budget, stream._id)) &&
        budget.left > 0 &&
        (forDeletedAccount || (await releaseStreamImages(ctx, budget, stream))) &&
        (await deleteRow(ctx, "streams")(stream)),
      1,
    )) &&
    (await drain(
      budget,
      (n) =>
        ctx.db
          .query("liveShopStreams")
          .withIndex("by_liveShopId_and_streamId", (q) => q.eq("liveShopId", liveShopId))
          .take(n),
      deleteRow(ctx, "liveShopStreams"),
    )) &&
    (await drain(
      budget,
      (n) =>
        ctx.db
          .query("liveShopCategories")
          .withIndex("by_liveShopId_and_categoryId", (q) => q.eq("liveShopId", liveShopId))
          .take(n),
      deleteRow(ctx, "liveShopCategories"),
    )) &&
    (await drain(
      budget,
      (n) =>
        ctx.db
          .query("liveShopMsas")
          .withIndex("by_liveShopId_and_msaId", (q) => q.eq("liveShopId", liveShopId))
          .take(n),
      deleteRow(ctx, "liveShopMsas"),
    )) &&
    (await drain(
      budget,
      (n) =>
        ctx.db
          .query("shopFollows")
          .withIndex("by_liveShopId", (q) => q.eq("liveShopId", liveShopId))
          .take(n),
      deleteRow(ctx, "shopFollows"),
    )) &&
    (await drain(
      budget,
      (n) =>
        ctx.db
          .query("insightHours")
          .withIndex("by_liveShopId_and_hourStart", (q) => q.eq("liveShopId", liveShopId))
          .take(n),
      async (row) => {
        if (!row.settled) await insightCounter.reset(ctx, row._id);
        return await deleteRow(ctx, "insightHours")(row);
      },
    ))
  );
}

/**
 * What a deleted user leaves: their uploaded pictures (files and rows, claimed or not), their saved streams, follows, go-live alerts and calendar feed, their data exports (file and row), their
 * privacy-request history (kept without the user's id or their own words, and the admin log's entries
 * about it without their name), the admin log without them (entries they took keep the action but not
 * who; entries about them, their shops and streams keep the action but not whom), decisions they took
 * on others' requests without their id, and their shops, each after its content.
 */
async function deleteUserContent(
  ctx: MutationCtx,
  budget: Budget,
  userId: Id<"users">,
  role: Role,
): Promise<boolean> {
  return (
    (await drain(
      budget,
      (n) =>
        ctx.db
          .query("imageUploads")
          .withIndex("by_userId", (q) => q.eq("userId", userId))
          .take(n),
      async (upload) => {
        await deleteImageUpload(ctx, upload);
        return true;
      },
    )) &&
    (await drain(
      budget,
      (n) =>
        ctx.db
          .query("unclaimedUploads")
          .withIndex("by_uploaderId", (q) => q.eq("uploaderId", userId))
          .take(n),
      async (upload) => {
        await deleteUnclaimedUpload(ctx, upload);
        return true;
      },
    )) &&
    (await drain(
      budget,
      (n) =>
        ctx.db
          .query("dataExports")
          .withIndex("by_userId", (q) => q.eq("userId", userId))
          .take(n),
      async (row) => {
        await deleteDataExport(ctx, row);
        return true;
      },
    )) &&
    (await drain(
      budget,
      (n) =>
        ctx.db
          .query("adminActions")
          .withIndex("by_adminId", (q) => q.eq("adminId", userId))
          .take(n),
      async (entry) => {
        await patchWithTimestamps(ctx, "adminActions", entry._id, {
          adminId: undefined,
          adminName: DELETED_ACTOR_NAMES[entry.targetId === userId ? role : "admin"],
        });
        return true;
      },
    )) &&
    (await anonymiseLogTargets(ctx, budget, "users", userId)) &&
    (await drain(
      budget,
      (n) =>
        ctx.db
          .query("privacyRequests")
          .withIndex("by_decidedBy", (q) => q.eq("decidedBy", userId))
          .take(n),
      async (request) => {
        await patchWithTimestamps(ctx, "privacyRequests", request._id, { decidedBy: undefined });
        return true;
      },
    )) &&
    (await drain(
      budget,
      (n) =>
        ctx.db
          .query("savedStreams")
          .withIndex("by_userId_and_streamId", (q) => q.eq("userId", userId))
          .take(n),
      deleteRow(ctx, "savedStreams"),
    )) &&
    (await drain(
      budget,
      (n) =>
        ctx.db
          .query("shopFollows")
          .withIndex("by_userId_and_liveShopId", (q) => q.eq("userId", userId))
          .take(n),
      deleteRow(ctx, "shopFollows"),
    )) &&
    (await drain(
      budget,
      (n) =>
        ctx.db
          .query("goLiveAlerts")
          .withIndex("by_userId_and_claimedAt", (q) => q.eq("userId", userId))
          .take(n),
      deleteRow(ctx, "goLiveAlerts"),
    )) &&
    (await drain(
      budget,
      (n) =>
        ctx.db
          .query("calendarFeeds")
          .withIndex("by_userId", (q) => q.eq("userId", userId))
          .take(n),
      deleteRow(ctx, "calendarFeeds"),
    )) &&
    (await drain(
      budget,
      (n) =>
        ctx.db
          .query("notifications")
          .withIndex("by_userId_and_eventKey_and_channel", (q) => q.eq("userId", userId))
          .take(n),
      deleteRow(ctx, "notifications"),
    )) &&
    (await drain(
      budget,
      (n) =>
        ctx.db
          .query("pushSubscriptions")
          .withIndex("by_userId", (q) => q.eq("userId", userId))
          .take(n),
      deleteRow(ctx, "pushSubscriptions"),
    )) &&
    (await drain(
      budget,
      (n) =>
        ctx.db
          .query("localInbox")
          .withIndex("by_userId_and_createdAt", (q) => q.eq("userId", userId))
          .take(n),
      deleteRow(ctx, "localInbox"),
    )) &&
    (await drain(
      budget,
      (n) =>
        ctx.db
          .query("privacyRequests")
          .withIndex("by_userId_and_requestedAt", (q) => q.eq("userId", userId))
          .take(n),
      async (request) => {
        // The log's entries about the request named the person: they now name the request's type only.
        const entries = await ctx.db
          .query("adminActions")
          .withIndex("by_targetId", (q) => q.eq("targetId", request._id))
          .take(LOG_ENTRIES_PER_REQUEST);
        budget.spend(entries.length + 1);
        for (const entry of entries) {
          await patchWithTimestamps(ctx, "adminActions", entry._id, {
            targetLabel: `${PRIVACY_REQUEST_LABELS[request.type]} request of a deleted account`,
            ...reasonKeptAfterDeletion(entry),
          });
        }
        await patchWithTimestamps(ctx, "privacyRequests", request._id, {
          userId: undefined,
          reason: undefined,
          details: undefined,
          decisionReason: undefined,
          corrections: undefined,
        });
        return true;
      },
    )) &&
    (await drain(
      budget,
      (n) =>
        ctx.db
          .query("liveShops")
          .withIndex("by_userId", (q) => q.eq("userId", userId))
          .take(n),
      async (shop) =>
        (await deleteShopContent(ctx, budget, shop._id, true)) &&
        budget.left > 0 &&
        (await deleteRow(ctx, "liveShops")(shop)),
      1,
    ))
  );
}

/** One batch of a user's deletion; schedules the next while anything is left. */
/** `role`: the one the account had, carried from batch to batch since its row is gone after the first. */
export async function continueUserCascade(ctx: MutationCtx, userId: Id<"users">, role: Role): Promise<void> {
  if (!(await deleteUserContent(ctx, new Budget(CASCADE_BATCH_SIZE), userId, role))) {
    await ctx.scheduler.runAfter(0, internal.cascade.continueUserDeletion, { userId, role });
  }
}

export async function continueShopCascade(ctx: MutationCtx, liveShopId: Id<"liveShops">): Promise<void> {
  if (!(await deleteShopContent(ctx, new Budget(CASCADE_BATCH_SIZE), liveShopId))) {
    await ctx.scheduler.runAfter(0, internal.cascade.continueShopDeletion, { liveShopId });
  }
}

export async function continueStreamCascade(ctx: MutationCtx, streamId: Id<"streams">): Promise<void> {
  if (!(await deleteStreamLinks(ctx, new Budget(CASCADE_BATCH_SIZE), streamId))) {
    await ctx.scheduler.runAfter(0, internal.cascade.continueStreamDeletion, { streamId });
  }
}

/**
 * Deletes a user at once and everything they own in batches: their shops with the shops' streams and
 * every link row pointing at those, their saved streams and follows. Their privacy-request history
 * stays, without their id or personal text. Safe to call again for the same user.
 */
export async function deleteUserCascade(ctx: MutationCtx, userId: Id<"users">): Promise<void> {
  const user = await ctx.db.get("users", userId);
  if (user) await ctx.db.delete("users", userId);
  await continueUserCascade(ctx, userId, user?.role ?? "viewer");
}

/** Deletes a shop at once, then its streams, their links and the shop's links in batches. */
export async function deleteShopCascade(ctx: MutationCtx, liveShopId: Id<"liveShops">): Promise<void> {
  const shop = await ctx.db.get("liveShops", liveShopId);
  if (shop) {
    await syncShopImages(ctx, shop, shop, {
      logoUrl: undefined,
      bannerImageUrl: undefined,
      coverImageUrl: undefined,
    });
    await ctx.db.delete("liveShops", liveShopId);
  }
  await continueShopCascade(ctx, liveShopId);
}

/** Deletes a stream (and its uploaded pictures) at once, then every link row pointing at it in batches. */
export async function deleteStreamCascade(ctx: MutationCtx, streamId: Id<"streams">): Promise<void> {
  const stream = await ctx.db.get("streams", streamId);
  if (stream) {
    await syncStreamImages(ctx, stream, stream.streamImageUrls, []);
    await ctx.db.delete("streams", streamId);
  }
  await continueStreamCascade(ctx, streamId);
}
