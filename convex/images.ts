/**
 * Pictures by upload (model/images.ts, decision 028): an upload URL for a signed-in person, then the
 * claim of the uploaded file for whoever the picture is for, checked like every id passed in.
 */
import { v } from "convex/values";
import { internalMutation, mutation } from "./functions";
import { appError } from "./model/errors";
import { claimImageUpload, deleteIfUnused as deleteIfUnusedUpload } from "./model/images";
import { getOwnedShopOrThrow, getOwnedStreamOrThrow } from "./model/ownership";

/** A one-time address to post one file to (Convex file storage), for a signed-in person. */
export const generateUploadUrl = mutation({
  args: {},
  returns: v.string(),
  handler: async (ctx) => await ctx.storage.generateUploadUrl(),
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
 * Claims an uploaded file as a picture for `target`: it must be a PNG, JPEG, WebP, GIF or AVIF of at
 * most 5 MB (checked on the stored file; otherwise it is deleted and the answer says why) that nobody
 * else claimed. Answers the address to put in an image field; saving the form puts it to use.
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
    return await claimImageUpload(ctx, storageId, ownerId);
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
