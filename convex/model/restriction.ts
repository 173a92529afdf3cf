/**
 * Why a shop can be off every public surface (shop and stream pages, home, live now, explore, search,
 * watch lists) because of its owner rather than its own status:
 *
 * - Restriction of processing (GDPR article 18): while `users.restrictedAt` is set, until an admin lifts
 *   it. The owner still sees and manages the shops in the dashboard.
 * - The owner is a viewer (an admin made them one; decision 025): only sellers run shops, so the shops
 *   stay as they are, hidden and unchangeable by their owner, until the owner is a seller again.
 *
 * Each of the user's shops carries `ownerRestricted` and `ownerIsViewer`, kept in step with the user
 * by `syncShopsWithOwner`, so the visibility rules and explore's listing triggers, which look at the
 * shop alone, handle both: public surfaces judge a shop by `publicShopStatus`.
 */
import { internal } from "../_generated/api";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import type { ShopStatus } from "../lib/constants";
import { mayRunShops } from "../lib/lifecycle";
import { patchWithTimestamps } from "./timestamps";

type OwnerFlags = Pick<Doc<"liveShops">, "ownerRestricted" | "ownerIsViewer">;

/**
 * The status public surfaces judge a shop by: its own, except that a shop whose owner's processing is
 * restricted, or whose owner is a viewer, counts as suspended (not public, its streams off every list,
 * their pages closed).
 */
export function publicShopStatus(shop: Pick<Doc<"liveShops">, "status"> & OwnerFlags): ShopStatus {
  return isHiddenByOwner(shop) ? "suspended" : shop.status;
}

/** Whether the shop is off public surfaces because of its owner (restricted, or a viewer), whatever its status. */
export function isHiddenByOwner(shop: OwnerFlags): boolean {
  return shop.ownerRestricted === true || shop.ownerIsViewer === true;
}

/** The flags every shop of this owner should carry; absent rather than false, as on a new shop. */
function ownerFlags(owner: Doc<"users"> | null): OwnerFlags {
  return {
    ownerRestricted: owner?.restrictedAt !== undefined ? true : undefined,
    ownerIsViewer: owner && !mayRunShops(owner.role) ? true : undefined,
  };
}

function flagsDiffer(shop: Doc<"liveShops">, flags: OwnerFlags): boolean {
  return (
    (shop.ownerRestricted ?? false) !== (flags.ownerRestricted ?? false) ||
    (shop.ownerIsViewer ?? false) !== (flags.ownerIsViewer ?? false)
  );
}

/**
 * More than one person's shops (LIMITS.shopsPerUser, 20): admins may create beyond it, and a restriction
 * must still reach every shop, so the job reads this many at a time and runs again while any is left.
 */
const SHOPS_READ_PER_RUN = 100;

/**
 * Brings one of the user's shops whose owner flags differ from the user (restricted, role) in step,
 * and schedules itself again while another differs. One shop per transaction: each change re-syncs up
 * to 100 of its streams' explore listings inline (model/exploreListings.ts). Safe to run twice; a
 * deleted user leaves nothing to do.
 */
export async function syncShopsWithOwner(ctx: MutationCtx, userId: Id<"users">): Promise<void> {
  const user = await ctx.db.get("users", userId);
  if (!user) return;
  const flags = ownerFlags(user);
  const shops = await ctx.db
    .query("liveShops")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .take(SHOPS_READ_PER_RUN);
  const differing = shops.filter((shop) => flagsDiffer(shop, flags));
  const [first] = differing;
  if (!first) return;
  await patchWithTimestamps(ctx, "liveShops", first._id, flags);
  if (differing.length > 1 || shops.length === SHOPS_READ_PER_RUN) {
    await ctx.scheduler.runAfter(0, internal.users.syncShopsWithOwner, { userId });
  }
}

/** Restricts the user's processing from `now` and starts taking their shops off public surfaces. */
export async function restrictUser(ctx: MutationCtx, user: Doc<"users">, now = Date.now()): Promise<void> {
  if (user.restrictedAt === undefined) {
    await patchWithTimestamps(ctx, "users", user._id, { restrictedAt: now }, now);
  }
  await syncShopsWithOwner(ctx, user._id);
}

/** Lifts the restriction and starts putting the user's shops back where their status allows. */
export async function liftUserRestriction(
  ctx: MutationCtx,
  user: Doc<"users">,
  now = Date.now(),
): Promise<void> {
  await patchWithTimestamps(ctx, "users", user._id, { restrictedAt: undefined }, now);
  await syncShopsWithOwner(ctx, user._id);
}

/** What a new shop of this owner starts with: hidden when the owner is restricted or a viewer. */
export async function ownerFlagsFor(ctx: MutationCtx, userId: Id<"users">): Promise<OwnerFlags> {
  const flags = ownerFlags(await ctx.db.get("users", userId));
  return Object.fromEntries(Object.entries(flags).filter(([, value]) => value !== undefined));
}
