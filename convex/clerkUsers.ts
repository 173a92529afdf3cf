/** Internal mutations the Clerk webhook (`convex/http.ts`) calls, one delivery each (decision 009). */
import { v } from "convex/values";
import { internalMutation } from "./functions";
import {
  applyClerkUserDeletion,
  applyClerkUserUpsert,
  recordWebhookDelivery,
  WEBHOOK_OUTCOMES,
  type WebhookOutcome,
} from "./model/clerkUsers";

const outcomeValidator = v.union(...WEBHOOK_OUTCOMES.map((outcome) => v.literal(outcome)));

/** `user.created` and `user.updated`: create or refresh the user row, never its role. */
export const upsertFromClerk = internalMutation({
  args: {
    svixId: v.string(),
    type: v.union(v.literal("user.created"), v.literal("user.updated")),
    clerkId: v.string(),
    email: v.optional(v.string()),
    name: v.optional(v.string()),
    avatar: v.optional(v.string()),
    clerkUpdatedAt: v.number(),
  },
  returns: outcomeValidator,
  handler: async (ctx, { svixId, ...event }): Promise<WebhookOutcome> => {
    if (!(await recordWebhookDelivery(ctx, svixId, event.type))) return "duplicate delivery";
    return await applyClerkUserUpsert(ctx, event);
  },
});

/** `user.deleted`: tombstone the Clerk id and delete the user with everything they own. */
export const deleteFromClerk = internalMutation({
  args: { svixId: v.string(), clerkId: v.string(), deletedAt: v.number() },
  returns: outcomeValidator,
  handler: async (ctx, { svixId, clerkId, deletedAt }): Promise<WebhookOutcome> => {
    if (!(await recordWebhookDelivery(ctx, svixId, "user.deleted"))) return "duplicate delivery";
    return await applyClerkUserDeletion(ctx, { type: "user.deleted", clerkId, deletedAt });
  },
});
