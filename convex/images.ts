/**
 * Pictures by upload (model/images.ts, decisions 028 and 054): the file is posted to the upload HTTP
 * action (convex/http.ts), which records who uploaded it; the uploader then claims it for whoever the
 * picture is for, checked like every id passed in.
 */
import { v } from "convex/values";
import { internalMutation, mutation } from "./functions";
import { appError } from "./model/errors";
import {
  claimImageUpload,
  deleteIfUnclaimed as deleteIfUnclaimedUpload,
  deleteIfUnused as deleteIfUnusedUpload,
  recordUpload as recordUploadOf,
} from "./model/images";
import { getOwnedShopOrThrow, getOwnedStreamOrThrow } from "./model/ownership";
import { describeWait, takeRate } from "./model/rateLimits";
import { getUserByClerkId } from "./model/users";

/**
 * Whether the signed-in person `clerkId` may upload a picture now: takes one from their upload
 * allowance. Answers the uploader's id, or the HTTP status and the sentence to refuse with.
 */
export const beginUpload = internalMutation({
  args: { clerkId: v.string() },
  returns: v.union(
    v.object({ ok: v.literal(true), uploaderId: v.id("users") }),
    v.object({ ok: v.literal(false), status: v.number(), message: v.string() }),
  ),
  handler: async (ctx, { clerkId }) => {
    const user = await getUserByClerkId(ctx, clerkId);
    if (!user) {
      return {
        ok: false as const,
        status: 401,
        message: "Your account is still being set up. Try again in a moment.",
      };
    }
    const rate = await takeRate(ctx, "pictureUpload", user._id);
    if (!rate.ok) {
      return {
        ok: false as const,
        status: 429,
        message: `That was a lot of pictures in a short time. Please try again ${describeWait(rate.retryAfterMs)}.`,
      };
    }
    return { ok: true as const, uploaderId: user._id };
  },
});

/** Records a file the upload HTTP action just stored as `uploaderId`'s, theirs alone to claim. */
export const recordUpload = internalMutation({
  args: { storageId: v.id("_storage"), uploaderId: v.id("users"), contentType: v.string() },
  returns: v.null(),
  handler: async (ctx, upload) => {
    await recordUploadOf(ctx, upload);
    return null;
  },
});

/**
 * Whose picture an upload is: the caller's own (their profile picture, or a shop they are opening), a
 * shop's or a stream's (its owner, or an admin moderating), or, for an admin, the person of an open
 * correction request.
 */
const targetValidator = v.union(
  v.object({ kind: v.literal("me") }),
  v.object({ kind: v.literal("shop"), liveShopId: v.id("liveShops") }),
  v.object({ kind: v.literal("stream"), streamId: v.id("streams") }),
  v.object({ kind: v.literal("correction"), requestId: v.id("privacyRequests") }),
);

/**
 * Claims a file the caller uploaded as a picture for `target`: it must be a PNG, JPEG, WebP, GIF or
 * AVIF of at most 5 MB (checked on the stored file; otherwise it is deleted and the answer says why).
 * Any other storage id is "not found" and left alone. Answers the address to put in an image field;
 * saving the form puts it to use.
 */
export const claimUpload = mutation({
  args: { storageId: v.id("_storage"), target: targetValidator },
  returns: v.union(
    v.object({ ok: v.literal(true), url: v.string() }),
    v.object({ ok: v.literal(false), message: v.string() }),
  ),
  handler: async (ctx, { storageId, target }) => {
    let ownerId = ctx.viewer._id;
    switch (target.kind) {
      case "me":
        break;
      case "shop":
        ownerId = (await getOwnedShopOrThrow(ctx, ctx.viewer, target.liveShopId, "ownerOrAdmin")).shop.userId;
        break;
      case "stream":
        ownerId = (await getOwnedStreamOrThrow(ctx, ctx.viewer, target.streamId, "ownerOrAdmin")).shop.userId;
        break;
      case "correction": {
        if (ctx.viewer.role !== "admin") throw appError("FORBIDDEN", "Only an admin can do this.");
        const request = await ctx.db.get("privacyRequests", target.requestId);
        if (request?.type !== "correction" || request.status !== "pending_review" || !request.userId) {
          throw appError("CONFLICT", "Pictures are uploaded for an open correction request only.");
        }
        ownerId = request.userId;
        break;
      }
    }
    return await claimImageUpload(ctx, storageId, ownerId, ctx.viewer._id);
  },
});

/** Run a day after a claim: deletes the picture if no field has used it. */
export const deleteIfUnused = internalMutation({
  args: { storageId: v.id("_storage") },
  returns: v.null(),
  handler: async (ctx, { storageId }) => {
    await deleteIfUnusedUpload(ctx, storageId);
    return null;
  },
});

/** Run an hour after an upload: deletes it, with its file, if its uploader never claimed it. */
export const deleteIfUnclaimed = internalMutation({
  args: { storageId: v.id("_storage") },
  returns: v.null(),
  handler: async (ctx, { storageId }) => {
    await deleteIfUnclaimedUpload(ctx, storageId);
    return null;
  },
});
