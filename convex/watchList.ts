/**
 * The watch list (docs/product.md#watch-list): save and unsave streams, follow and unfollow shops, and
 * read the list. Every function acts for the signed-in caller only; nobody reads or changes another
 * person's list. Signed out, the queries return null and the mutations refuse.
 */
import { v } from "convex/values";
import { mutation, query } from "./functions";
import {
  followShop,
  listFollowRows,
  listSavedRows,
  readWatchList,
  saveStream,
  unfollowShop,
  unsaveStream,
  watchListValidator,
} from "./model/watchList";
import { limitRate } from "./model/rateLimits";

/** The ids the caller saved and follows, for every card's save and follow buttons. */
export const mySaved = query({
  args: {},
  returns: v.union(
    v.object({ streamIds: v.array(v.id("streams")), liveShopIds: v.array(v.id("liveShops")) }),
    v.null(),
  ),
  handler: async (ctx) => {
    if (!ctx.viewer) return null;
    const saved = await listSavedRows(ctx, ctx.viewer._id);
    const follows = await listFollowRows(ctx, ctx.viewer._id);
    return {
      streamIds: saved.map((row) => row.streamId),
      liveShopIds: follows.map((row) => row.liveShopId),
    };
  },
});

/** `/watch-list`: live now, upcoming, ended with replays, followed shops with their next show. */
export const myWatchList = query({
  args: {},
  returns: v.union(watchListValidator, v.null()),
  handler: async (ctx) => (ctx.viewer ? await readWatchList(ctx, ctx.viewer._id) : null),
});

/**
 * Saves (`saved: true`) or removes a stream. Saving needs a stream anyone may open and room on the
 * list (LIMITS.savedStreamsPerUser); removing works for any stream on the caller's list, even one no
 * longer public. Both are idempotent.
 */
export const setStreamSaved = mutation({
  args: { streamId: v.id("streams"), saved: v.boolean() },
  returns: v.null(),
  handler: async (ctx, { streamId, saved }) => {
    if (saved) {
      await limitRate(ctx, "saveStream", ctx.viewer._id);
      await saveStream(ctx, ctx.viewer, streamId);
    } else {
      await unsaveStream(ctx, ctx.viewer._id, streamId);
    }
    return null;
  },
});

/** Follows or unfollows a shop, as `setStreamSaved` does for streams (LIMITS.followedShopsPerUser). */
export const setShopFollowed = mutation({
  args: { liveShopId: v.id("liveShops"), followed: v.boolean() },
  returns: v.null(),
  handler: async (ctx, { liveShopId, followed }) => {
    if (followed) {
      await limitRate(ctx, "followShop", ctx.viewer._id);
      await followShop(ctx, ctx.viewer, liveShopId);
    } else {
      await unfollowShop(ctx, ctx.viewer._id, liveShopId);
    }
    return null;
  },
});
