/**
 * The next batch of a deletion started by `convex/model/cascade.ts`, run by the scheduler until
 * nothing is left.
 */
import { v } from "convex/values";
import { internalMutation } from "./functions";
import { roleValidator } from "./schema";
import { continueShopCascade, continueStreamCascade, continueUserCascade } from "./model/cascade";

export const continueUserDeletion = internalMutation({
  // `role` absent: a batch scheduled before it was carried (its entries name "a deleted user").
  args: { userId: v.id("users"), role: v.optional(roleValidator) },
  returns: v.null(),
  handler: async (ctx, { userId, role }) => {
    await continueUserCascade(ctx, userId, role ?? "viewer");
    return null;
  },
});

export const continueShopDeletion = internalMutation({
  args: { liveShopId: v.id("liveShops") },
  returns: v.null(),
  handler: async (ctx, { liveShopId }) => {
    await continueShopCascade(ctx, liveShopId);
    return null;
  },
});

export const continueStreamDeletion = internalMutation({
  args: { streamId: v.id("streams") },
  returns: v.null(),
  handler: async (ctx, { streamId }) => {
    await continueStreamCascade(ctx, streamId);
    return null;
  },
});
