/** The daily data-retention job (convex/crons.ts) and its per-user follow-ups: model/retention.ts. */
import { v } from "convex/values";
import { internalMutation } from "./functions";
import { applyRetention as startRetention, applyUserRetention as applyOneUser } from "./model/retention";

export const applyRetention = internalMutation({
  args: {},
  returns: v.number(),
  handler: async (ctx) => await startRetention(ctx),
});

export const applyUserRetention = internalMutation({
  args: { userId: v.id("users") },
  returns: v.null(),
  handler: async (ctx, { userId }) => {
    await applyOneUser(ctx, userId);
    return null;
  },
});
