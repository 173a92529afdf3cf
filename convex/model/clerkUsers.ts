/**
 * Keeping user rows in step with Clerk's webhook (decision 009): each delivery applied once, older
 * events never overwrite newer ones, a deleted Clerk user never comes back, and the role is never
 * taken from Clerk.
 */
import type { MutationCtx } from "../_generated/server";
import { deleteUserCascade } from "./cascade";
import type { ClerkUserDeletion, ClerkUserUpsert } from "./clerkWebhook";
import { insertWithTimestamps } from "./timestamps";
import {
  getDeletedClerkUser,
  getUserByClerkId,
  insertUserWithInitialRole,
  normalizeEmail,
  patchUser,
  recordClerkUserDeleted,
  signInChanges,
} from "./users";

/** What a delivery did; the HTTP response names it, so Clerk's dashboard shows it. */
export const WEBHOOK_OUTCOMES = [
  "created",
  "updated",
  "deleted",
  "duplicate delivery",
  "older than stored",
  "user was deleted",
  "no email address",
] as const;
export type WebhookOutcome = (typeof WEBHOOK_OUTCOMES)[number];

/** Long past Svix's last automatic retry, about 28 hours after the first attempt. */
export const WEBHOOK_DELIVERY_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
const PRUNED_PER_DELIVERY = 20;

/**
 * Records a delivery by its `svix-id`; false when it was recorded before. Also forgets a few
 * deliveries past the retention, so the table stays small without a cron.
 */
export async function recordWebhookDelivery(
  ctx: MutationCtx,
  svixId: string,
  eventType: string,
  now = Date.now(),
): Promise<boolean> {
  const seen = await ctx.db
    .query("webhookDeliveries")
    .withIndex("by_svixId", (q) => q.eq("svixId", svixId))
    .first();
  if (seen) return false;
  const expired = await ctx.db
    .query("webhookDeliveries")
    .withIndex("by_creation_time", (q) => q.lt("_creationTime", now - WEBHOOK_DELIVERY_RETENTION_MS))
    .take(PRUNED_PER_DELIVERY);
  for (const delivery of expired) await ctx.db.delete("webhookDeliveries", delivery._id);
  await insertWithTimestamps(ctx, "webhookDeliveries", { svixId, eventType }, now);
  return true;
}

/**
 * Creates or refreshes the user from a `user.created` or `user.updated` event. Email, name and avatar
 * follow Clerk (name and email when Clerk's change, `signInChanges`); the role stays LiveLocal's. An event not newer than the last one applied is ignored.
 */
export async function applyClerkUserUpsert(
  ctx: MutationCtx,
  event: ClerkUserUpsert,
  now = Date.now(),
): Promise<WebhookOutcome> {
  const existing = await getUserByClerkId(ctx, event.clerkId);
  if (existing) {
    if (existing.clerkUpdatedAt !== undefined && event.clerkUpdatedAt <= existing.clerkUpdatedAt) {
      return "older than stored";
    }
    await patchUser(
      ctx,
      existing._id,
      {
        // Name and email follow Clerk when Clerk says something new (an admin's correction stands).
        ...signInChanges(existing, { name: event.name, email: event.email }, { absentNameClears: true }),
        avatar: event.avatar,
        clerkUpdatedAt: event.clerkUpdatedAt,
      },
      now,
    );
    return "updated";
  }
  if (await getDeletedClerkUser(ctx, event.clerkId)) return "user was deleted";
  // Sign-in refuses an account without an email too; the row is created once Clerk has one.
  if (event.email === undefined) return "no email address";
  await insertUserWithInitialRole(
    ctx,
    {
      clerkId: event.clerkId,
      email: event.email,
      name: event.name,
      avatar: event.avatar,
      clerkUpdatedAt: event.clerkUpdatedAt,
      signInClaims: { name: event.name, email: normalizeEmail(event.email) },
    },
    now,
  );
  return "created";
}

/** Leaves a tombstone for the Clerk id and deletes the user with everything they own. */
export async function applyClerkUserDeletion(
  ctx: MutationCtx,
  event: ClerkUserDeletion,
  now = Date.now(),
): Promise<WebhookOutcome> {
  await recordClerkUserDeleted(ctx, event.clerkId, event.deletedAt, now);
  const user = await getUserByClerkId(ctx, event.clerkId);
  if (user) await deleteUserCascade(ctx, user._id);
  return "deleted";
}
