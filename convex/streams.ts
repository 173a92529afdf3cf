import { v } from "convex/values";
import type { Doc } from "./_generated/dataModel";
import { mutation, query } from "./functions";
import { shopStatusValidator, streamStatusValidator, timeZoneValidator } from "./schema";
import { checkStreamTransition, isStreamListedPublicly } from "./lib/lifecycle";
import { appError } from "./model/errors";
import { getLiveShopOrThrow } from "./model/liveShops";
import { getStreamOrThrow, patchStream } from "./model/streams";

/** What a stream card shows. */
const streamCardValidator = v.object({
  _id: v.id("streams"),
  streamTitle: v.string(),
  streamStatus: streamStatusValidator,
  liveShopName: v.string(),
  liveShopSlug: v.string(),
  imageUrl: v.optional(v.string()),
  streamStartUTC: v.optional(v.number()),
  streamStopUTC: v.optional(v.number()),
  timezone: timeZoneValidator,
  locationLabel: v.optional(v.string()),
});

function toStreamCard(stream: Doc<"streams">) {
  return {
    _id: stream._id,
    streamTitle: stream.streamTitle,
    streamStatus: stream.streamStatus,
    liveShopName: stream.liveShopName,
    liveShopSlug: stream.liveShopSlug,
    imageUrl: stream.streamImageUrls[0],
    streamStartUTC: stream.streamStartUTC,
    streamStopUTC: stream.streamStopUTC,
    timezone: stream.timezone,
    locationLabel: stream.locationLabel,
  };
}

/** The most streams one live-now board shows; a metro filter narrows it further on explore pages. */
const LIVE_NOW_LIMIT = 48;

/** Streams live right now (LIVE, then PAUSED), earliest start first, from shops the public may see. */
export const listLiveNow = query({
  args: {},
  returns: v.array(streamCardValidator),
  handler: async (ctx) => {
    const cards = [];
    for (const status of ["LIVE", "PAUSED"] as const) {
      const streams = await ctx.db
        .query("streams")
        .withIndex("by_streamStatus_and_streamStartUTC", (q) => q.eq("streamStatus", status))
        .take(LIVE_NOW_LIMIT);
      for (const stream of streams) {
        const shop = await ctx.db.get("liveShops", stream.liveShopId);
        if (shop && isStreamListedPublicly(stream.streamStatus, shop.status))
          cards.push(toStreamCard(stream));
      }
    }
    return cards.slice(0, LIVE_NOW_LIMIT);
  },
});

/** The most streams listed per shop on the dashboard; older ones are reached from the shop's page. */
const DASHBOARD_STREAMS_PER_SHOP = 100;
const DASHBOARD_SHOPS = 20;

/** The caller's shops with their streams, newest first; empty when signed out. */
export const listMyStreams = query({
  args: {},
  returns: v.array(
    v.object({
      liveShopId: v.id("liveShops"),
      liveShopName: v.string(),
      status: shopStatusValidator,
      streams: v.array(streamCardValidator),
    }),
  ),
  handler: async (ctx) => {
    if (!ctx.viewer) return [];
    const viewerId = ctx.viewer._id;
    const shops = await ctx.db
      .query("liveShops")
      .withIndex("by_userId", (q) => q.eq("userId", viewerId))
      .take(DASHBOARD_SHOPS);
    return await Promise.all(
      shops.map(async (shop) => {
        const streams = await ctx.db
          .query("streams")
          .withIndex("by_liveShopId", (q) => q.eq("liveShopId", shop._id))
          .order("desc")
          .take(DASHBOARD_STREAMS_PER_SHOP);
        return {
          liveShopId: shop._id,
          liveShopName: shop.liveShopName,
          status: shop.status,
          streams: streams.map(toStreamCard),
        };
      }),
    );
  },
});

/**
 * Moves a stream along its lifecycle (PRODUCT.md "Stream lifecycle"): the shop's owner, or an admin
 * where the table allows, under the table's conditions.
 */
export const setStreamStatus = mutation({
  args: { streamId: v.id("streams"), status: streamStatusValidator },
  returns: v.null(),
  handler: async (ctx, { streamId, status }) => {
    const stream = await getStreamOrThrow(ctx, streamId);
    const shop = await getLiveShopOrThrow(ctx, stream.liveShopId);
    const actor = { isOwner: shop.userId === ctx.viewer._id, isAdmin: ctx.viewer.role === "admin" };
    if (!actor.isOwner && !actor.isAdmin)
      throw appError("FORBIDDEN", "Only the shop's owner can change this stream.");
    const decision = checkStreamTransition({
      from: stream.streamStatus,
      to: status,
      actor,
      stream,
      shopStatus: shop.status,
      now: Date.now(),
    });
    if (!decision.ok) throw appError(decision.code, decision.message);
    await patchStream(ctx, streamId, decision.patch);
    return null;
  },
});
