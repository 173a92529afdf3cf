/**
 * Who may manage a shop or a stream (docs/product.md#roles: sellers their own shops only, admins any for
 * moderation). Every id a function receives goes through one of these before anything is read for the
 * caller or written. An owner whose role is viewer may still read their shops here but change nothing
 * (decision 025).
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { mayRunShops, type Actor } from "../lib/lifecycle";
import { recordAdminAction, type AdminActionEntry } from "./adminLog";
import { appError } from "./errors";
import { getLiveShopOrThrow } from "./liveShops";
import { getStreamOrThrow } from "./streams";
import { patchWithTimestamps } from "./timestamps";

export type ShopAccess = { shop: Doc<"liveShops">; actor: Actor };
export type StreamAccess = ShopAccess & { stream: Doc<"streams"> };

/** Whether an admin's moderation is enough, or only the owner will do (creating content in the shop). */
export type Managers = "ownerOnly" | "ownerOrAdmin";

function ownsShop(viewer: Doc<"users"> | null, shop: Doc<"liveShops">): viewer is Doc<"users"> {
  return viewer !== null && shop.userId === viewer._id;
}

/** The caller relative to the shop: acting as its owner only while their role lets them run shops. */
export function actorFor(viewer: Doc<"users"> | null, shop: Doc<"liveShops">): Actor {
  return {
    isOwner: ownsShop(viewer, shop) && mayRunShops(viewer.role),
    isAdmin: viewer?.role === "admin",
  };
}

function mayManage(actor: Actor, managers: Managers): boolean {
  return actor.isOwner || (managers === "ownerOrAdmin" && actor.isAdmin);
}

/**
 * For queries: the shop if the viewer owns it (whatever their role: it is theirs to see) or is an admin,
 * else null (a missing shop too). `actor` says whether they may change it.
 */
export async function getManagedShop(
  ctx: QueryCtx,
  viewer: Doc<"users"> | null,
  liveShopId: Id<"liveShops">,
): Promise<ShopAccess | null> {
  const shop = await ctx.db.get("liveShops", liveShopId);
  if (!shop) return null;
  const actor = actorFor(viewer, shop);
  return ownsShop(viewer, shop) || actor.isAdmin ? { shop, actor } : null;
}

/** Refuses an owner who may not run shops any more, in words that say why and what lifts it. */
function assertOwnerMayRunShops(viewer: Doc<"users">, shop: Doc<"liveShops">): void {
  if (ownsShop(viewer, shop) && !mayRunShops(viewer.role)) {
    throw appError(
      "FORBIDDEN",
      "An admin made your account a viewer, so you cannot change your shops or streams. Ask an admin to make you a seller again.",
    );
  }
}

/** For queries: the stream and its shop if the viewer owns the shop or is an admin, else null. */
export async function getManagedStream(
  ctx: QueryCtx,
  viewer: Doc<"users"> | null,
  streamId: Id<"streams">,
): Promise<StreamAccess | null> {
  const stream = await ctx.db.get("streams", streamId);
  if (!stream) return null;
  const access = await getManagedShop(ctx, viewer, stream.liveShopId);
  return access && { ...access, stream };
}

export async function getOwnedShopOrThrow(
  ctx: QueryCtx,
  viewer: Doc<"users">,
  liveShopId: Id<"liveShops">,
  managers: Managers,
): Promise<ShopAccess> {
  const shop = await getLiveShopOrThrow(ctx, liveShopId);
  assertOwnerMayRunShops(viewer, shop);
  const actor = actorFor(viewer, shop);
  if (!mayManage(actor, managers)) throw appError("FORBIDDEN", "Only the shop's owner can change this shop.");
  return { shop, actor };
}

export async function getOwnedStreamOrThrow(
  ctx: QueryCtx,
  viewer: Doc<"users">,
  streamId: Id<"streams">,
  managers: Managers,
): Promise<StreamAccess> {
  const stream = await getStreamOrThrow(ctx, streamId);
  const shop = await getLiveShopOrThrow(ctx, stream.liveShopId);
  assertOwnerMayRunShops(viewer, shop);
  const actor = actorFor(viewer, shop);
  if (!mayManage(actor, managers)) {
    throw appError("FORBIDDEN", "Only the shop's owner can change this stream.");
  }
  return { shop, stream, actor };
}

// ---------------------------------------------------------------------------------------------------
// Moderation: what the admin console's activity log records (model/adminLog.ts)

/** An admin acting on a shop (or its stream) they do not own; an admin's own shop is theirs to run. */
export function isModerating(actor: Actor): boolean {
  return actor.isAdmin && !actor.isOwner;
}

/** The log's target for a shop or, when the access has one, its stream. */
export function moderationTarget(access: ShopAccess | StreamAccess): Omit<AdminActionEntry, "action"> {
  return "stream" in access
    ? { targetTable: "streams", targetId: access.stream._id, targetLabel: access.stream.streamTitle }
    : { targetTable: "liveShops", targetId: access.shop._id, targetLabel: access.shop.liveShopName };
}

/**
 * How long one admin's further edits of the same shop or stream extend the same log entry: a
 * correction is often several saves of the form in a row.
 */
export const EDIT_ENTRY_WINDOW_MS = 5 * 60 * 1000;

/**
 * Records an admin's edit of someone else's shop or stream (`edit_shop` / `edit_stream`) in the
 * caller's transaction; the owner's own edits are not logged.
 */
export async function recordModeratorEdit(
  ctx: MutationCtx,
  viewer: Doc<"users">,
  access: ShopAccess | StreamAccess,
  now = Date.now(),
): Promise<void> {
  if (!isModerating(access.actor)) return;
  const entry: AdminActionEntry = {
    action: "stream" in access ? "edit_stream" : "edit_shop",
    ...moderationTarget(access),
  };
  const latest = await ctx.db
    .query("adminActions")
    .withIndex("by_targetId", (q) => q.eq("targetId", entry.targetId))
    .order("desc")
    .first();
  if (
    latest &&
    latest.adminId === viewer._id &&
    latest.action === entry.action &&
    now - latest.updatedAt < EDIT_ENTRY_WINDOW_MS
  ) {
    await patchWithTimestamps(ctx, "adminActions", latest._id, {}, now);
    return;
  }
  await recordAdminAction(ctx, viewer, entry, now);
}
