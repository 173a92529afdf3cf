/**
 * Restriction of processing (GDPR article 18): while `users.restrictedAt` is set, the user's shops and
 * their streams leave every public surface (shop and stream pages, home, live now, explore, search)
 * until an admin lifts it. The owner still sees and manages them in the dashboard.
 *
 * Each of the user's shops carries `ownerRestricted`, kept in step with the user by
 * `syncOwnerRestriction`, so the visibility rules and explore's listing triggers, which look at the
 * shop alone, handle it: public surfaces judge a shop by `publicShopStatus`.
 */
import { internal } from "../_generated/api";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import type { ShopStatus } from "../lib/constants";
import { patchWithTimestamps } from "./timestamps";

/**
 * The status public surfaces judge a shop by: its own, except that a shop whose owner's processing is
 * restricted counts as suspended (not public, its streams off every list, their pages closed).
 */
export function publicShopStatus(shop: Pick<Doc<"liveShops">, "status" | "ownerRestricted">): ShopStatus {
  return shop.ownerRestricted ? "suspended" : shop.status;
}

/**
 * More than one person's shops (LIMITS.shopsPerUser, 20): admins may create beyond it, and a restriction
 * must still reach every shop, so the job reads this many at a time and runs again while any is left.
 */
const SHOPS_READ_PER_RUN = 100;

/**
 * Sets or clears `ownerRestricted` on one of the user's shops whose flag differs from the user's
 * `restrictedAt`, and schedules itself again while another differs. One shop per transaction: each
 * change re-syncs up to 100 of its streams' explore listings inline (model/exploreListings.ts).
 * Safe to run twice; a deleted user leaves nothing to do.
 */
export async function syncOwnerRestriction(ctx: MutationCtx, userId: Id<"users">): Promise<void> {
  const user = await ctx.db.get("users", userId);
  if (!user) return;
  const restricted = user.restrictedAt !== undefined;
  const shops = await ctx.db
    .query("liveShops")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .take(SHOPS_READ_PER_RUN);
  const differing = shops.filter((shop) => (shop.ownerRestricted ?? false) !== restricted);
  const [first] = differing;
  if (!first) return;
  await patchWithTimestamps(ctx, "liveShops", first._id, { ownerRestricted: restricted ? true : undefined });
  if (differing.length > 1 || shops.length === SHOPS_READ_PER_RUN) {
    await ctx.scheduler.runAfter(0, internal.privacy.syncOwnerRestriction, { userId });
  }
}

/** Restricts the user's processing from `now` and starts taking their shops off public surfaces. */
export async function restrictUser(ctx: MutationCtx, user: Doc<"users">, now = Date.now()): Promise<void> {
  if (user.restrictedAt === undefined) {
    await patchWithTimestamps(ctx, "users", user._id, { restrictedAt: now }, now);
  }
  await syncOwnerRestriction(ctx, user._id);
}

/** Lifts the restriction and starts putting the user's shops back where their status allows. */
export async function liftUserRestriction(
  ctx: MutationCtx,
  user: Doc<"users">,
  now = Date.now(),
): Promise<void> {
  await patchWithTimestamps(ctx, "users", user._id, { restrictedAt: undefined }, now);
  await syncOwnerRestriction(ctx, user._id);
}

/** What a new shop of this owner starts with: hidden when the owner is restricted. */
export async function ownerRestrictedFor(
  ctx: MutationCtx,
  userId: Id<"users">,
): Promise<Pick<Doc<"liveShops">, "ownerRestricted">> {
  const owner = await ctx.db.get("users", userId);
  return owner?.restrictedAt !== undefined ? { ownerRestricted: true } : {};
}
