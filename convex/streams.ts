import { zid } from "convex-helpers/server/zod4";
import { doc } from "convex-helpers/validators";
import { v } from "convex/values";
import { internal } from "./_generated/api";
import type { Doc, Id } from "./_generated/dataModel";
import { internalMutation, mutation, publicQuery, query, zMutation } from "./functions";
import type { StreamStatus } from "./lib/constants";
import schema, { platformTypeValidator, shopStatusValidator, streamCardValidator } from "./schema";
import {
  canSetReplayUrl,
  canViewStreamPage,
  checkStreamTransition,
  isStreamListedPublicly,
} from "./lib/lifecycle";
import {
  categoryLinksSchema,
  cbsaCodesSchema,
  platformLinksSchema,
  statusReasonSchema,
  streamFieldsSchema,
  streamSchema,
  streamStatusSchema,
} from "./lib/validation";
import { deleteStreamCascade } from "./model/cascade";
import { toStreamCard } from "./model/cards";
import { listStartingSoonCards } from "./model/home";
import { appError } from "./model/errors";
import { categoryLinkValidator } from "./model/links";
import { recordAdminAction } from "./model/adminLog";
import {
  actorFor,
  getManagedStream,
  getOwnedShopOrThrow,
  getOwnedStreamOrThrow,
  isModerating,
  moderationTarget,
  recordModeratorEdit,
} from "./model/ownership";
import { publicStreamValidator, readStreamLinks, type PublicStream } from "./model/publicPages";
import {
  duplicateStreamWithLinks,
  endOverdueStreams,
  getStreamOrThrow,
  insertStream,
  listStreamCategories,
  listStreamCbsaCodes,
  listStreamPlatforms,
  newStreamFromForm,
  patchStream,
  planStreamEdit,
  replaceStreamLinks,
} from "./model/streams";
import { isHiddenByOwner, publicShopStatus } from "./model/restriction";
import { limitRate } from "./model/rateLimits";

/** The most streams one live-now board shows; a metro filter narrows it further on explore pages. */
const LIVE_NOW_LIMIT = 48;

/**
 * Streams a live-now board reads at most per status: a shop the public may not see (suspended, hidden)
 * can have live shows, which are read and skipped; past this many the board shows fewer.
 */
const LIVE_NOW_SCAN = 4 * LIVE_NOW_LIMIT;

/** Streams live right now (LIVE, then PAUSED), earliest start first, from shops the public may see. */
export const listLiveNow = publicQuery({
  args: {},
  returns: v.array(streamCardValidator),
  handler: async (ctx) => {
    const cards = [];
    // Streams are read one by one until the board is full: live shows of hidden shops make room for
    // the next live ones, and paused shows are read only while live ones leave room. Each shop is
    // read once.
    const shops = new Map<Id<"liveShops">, Doc<"liveShops"> | null>();
    for (const status of ["LIVE", "PAUSED"] as const) {
      if (cards.length >= LIVE_NOW_LIMIT) break;
      let scanned = 0;
      for await (const stream of ctx.db
        .query("streams")
        .withIndex("by_streamStatus_and_streamStartUTC", (q) => q.eq("streamStatus", status))) {
        scanned += 1;
        if (!shops.has(stream.liveShopId))
          shops.set(stream.liveShopId, await ctx.db.get("liveShops", stream.liveShopId));
        const shop = shops.get(stream.liveShopId);
        if (shop && isStreamListedPublicly(stream.streamStatus, publicShopStatus(shop)))
          cards.push(toStreamCard(stream));
        // Stop before the next stream is read: one past a full board is a read the result never needs.
        if (cards.length >= LIVE_NOW_LIMIT || scanned >= LIVE_NOW_SCAN) break;
      }
    }
    return cards;
  },
});

/**
 * The home page's "starting soon": scheduled streams of public shops from `since` (the client's clock
 * rounded down to 5 minutes, so every viewer shares one subscription) over the next 48 hours, soonest
 * first, bounded.
 */
export const listStartingSoon = publicQuery({
  args: { since: v.number() },
  returns: v.array(streamCardValidator),
  handler: async (ctx, { since }) => await listStartingSoonCards(ctx, since),
});

/**
 * A stream's public page: null unless the page is public (every status but a draft, while the shop is
 * public; a cancelled stream keeps its page), or the caller owns the shop or is an admin.
 */
export const getPublicStream = query({
  args: { streamId: v.string() },
  returns: v.union(publicStreamValidator, v.null()),
  handler: async (ctx, args): Promise<PublicStream | null> => {
    const streamId = ctx.db.normalizeId("streams", args.streamId);
    const stream = streamId ? await ctx.db.get("streams", streamId) : null;
    if (!stream) return null;
    const shop = await ctx.db.get("liveShops", stream.liveShopId);
    if (!shop || !canViewStreamPage(stream.streamStatus, publicShopStatus(shop), actorFor(ctx.viewer, shop)))
      return null;
    return {
      _id: stream._id,
      streamTitle: stream.streamTitle,
      streamDescription: stream.streamDescription,
      streamImageUrls: stream.streamImageUrls,
      streamVideoUrl: stream.streamVideoUrl,
      replayVideoUrl: stream.replayVideoUrl,
      streamTrailerUrl: stream.streamTrailerUrl,
      streamStartUTC: stream.streamStartUTC,
      streamStopUTC: stream.streamStopUTC,
      streamStartedUTC: stream.streamStartedUTC,
      streamEndedUTC: stream.streamEndedUTC,
      timezone: stream.timezone,
      streamStatus: stream.streamStatus,
      locationLabel: stream.locationLabel,
      products: stream.products,
      shop: {
        _id: shop._id,
        liveShopName: shop.liveShopName,
        slug: shop.slug,
        logoUrl: shop.logoUrl,
        status: shop.status,
        schemaType: shop.schemaType,
      },
      ...(await readStreamLinks(ctx, stream._id)),
    };
  },
});

/** The most streams listed per shop on the dashboard; older ones are reached from the shop's page. */
const DASHBOARD_STREAMS_PER_SHOP = 100;
const DASHBOARD_SHOPS = 20;

/** A stream on its owner's dashboard: its card, and why an admin ended or cancelled it. */
const myStreamValidator = v.object({ ...streamCardValidator.fields, statusReason: v.optional(v.string()) });

/**
 * The caller's shops with their streams, newest first; empty when signed out. `hiddenFromPublic`: the
 * shop is off public surfaces because of the owner's account (restricted, or a viewer).
 */
export const listMyStreams = query({
  args: {},
  returns: v.array(
    v.object({
      liveShopId: v.id("liveShops"),
      liveShopName: v.string(),
      status: shopStatusValidator,
      hiddenFromPublic: v.boolean(),
      streams: v.array(myStreamValidator),
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
          hiddenFromPublic: isHiddenByOwner(shop),
          streams: streams.map((stream) => ({ ...toStreamCard(stream), statusReason: stream.statusReason })),
        };
      }),
    );
  },
});

/** What an admin may do to someone else's stream, as the activity log names it. */
const MODERATION_ACTIONS: Partial<Record<StreamStatus, "end_stream" | "pause_stream" | "cancel_stream">> = {
  ENDED: "end_stream",
  PAUSED: "pause_stream",
  CANCELLED: "cancel_stream",
};

/**
 * Moves a stream along its lifecycle (docs/product.md#stream-lifecycle): the shop's owner, or an admin
 * where the table allows, under the table's conditions. An admin ending or cancelling someone else's
 * stream gives a reason (at most LIMITS.statusReason), kept on the stream for its owner; an admin's
 * move on someone else's stream is recorded in the activity log, with the reason.
 */
export const setStreamStatus = zMutation({
  args: { streamId: zid("streams"), status: streamStatusSchema, reason: statusReasonSchema },
  returns: v.null(),
  handler: async (ctx, { streamId, status, reason }) => {
    const access = await getOwnedStreamOrThrow(ctx, ctx.viewer, streamId, "ownerOrAdmin");
    const { stream, shop, actor } = access;
    const decision = checkStreamTransition({
      from: stream.streamStatus,
      to: status,
      actor,
      stream,
      shopStatus: shop.status,
      now: Date.now(),
      reason,
    });
    if (!decision.ok) throw appError(decision.code, decision.message);
    await patchStream(ctx, streamId, decision.patch);
    const action = MODERATION_ACTIONS[status];
    if (action && isModerating(actor)) {
      await recordAdminAction(ctx, ctx.viewer, {
        action,
        ...moderationTarget(access),
        reason: decision.patch.statusReason,
      });
    }
    return null;
  },
});

/** A stream with its categories, metro areas and platform links, for its edit form: null unless the caller owns its shop or is an admin. */
export const getMyStream = query({
  args: { streamId: v.id("streams") },
  returns: v.union(
    doc(schema, "streams").extend({
      categories: v.array(categoryLinkValidator),
      cbsaCodes: v.array(v.string()),
      platforms: v.array(
        v.object({
          platformType: platformTypeValidator,
          platformStreamUrl: v.optional(v.string()),
          platformActionUrl: v.optional(v.string()),
        }),
      ),
    }),
    v.null(),
  ),
  handler: async (ctx, { streamId }) => {
    const access = await getManagedStream(ctx, ctx.viewer, streamId);
    if (!access) return null;
    return {
      ...access.stream,
      categories: await listStreamCategories(ctx, streamId),
      cbsaCodes: await listStreamCbsaCodes(ctx, streamId),
      platforms: await listStreamPlatforms(ctx, streamId),
    };
  },
});

/**
 * The stream form's link sets, saved with its fields in one mutation: absent, a new stream has none and
 * an existing one keeps its own (decision 060).
 */
const streamFormLinks = {
  categories: categoryLinksSchema.optional(),
  cbsaCodes: cbsaCodesSchema.optional(),
  platforms: platformLinksSchema.optional(),
};

/**
 * A new draft stream in one of the caller's own shops, with its categories, metro areas and platform
 * links. Times are epoch ms, converted from the shop's zone by the browser.
 */
export const createStream = zMutation({
  args: { liveShopId: zid("liveShops"), stream: streamSchema, ...streamFormLinks },
  returns: v.id("streams"),
  handler: async (ctx, { liveShopId, stream, categories, cbsaCodes, platforms }) => {
    await getOwnedShopOrThrow(ctx, ctx.viewer, liveShopId, "ownerOnly");
    await limitRate(ctx, "newStream", ctx.viewer._id);
    const streamId = await insertStream(ctx, newStreamFromForm(liveShopId, stream));
    await replaceStreamLinks(ctx, await getStreamOrThrow(ctx, streamId), {
      categories,
      cbsaCodes,
      platforms,
    });
    return streamId;
  },
});

/**
 * Saves the stream form, all or nothing (every field, blank ones cleared; the link sets given): the
 * owner, or an admin moderating. Drafts, scheduled, live and paused streams; an ended one takes only a
 * new replay link, and no links.
 */
export const updateStream = zMutation({
  args: { streamId: zid("streams"), stream: streamSchema, ...streamFormLinks },
  returns: v.null(),
  handler: async (ctx, { streamId, stream, categories, cbsaCodes, platforms }) => {
    const access = await getOwnedStreamOrThrow(ctx, ctx.viewer, streamId, "ownerOrAdmin");
    await patchStream(ctx, streamId, planStreamEdit(access.stream, stream));
    await replaceStreamLinks(ctx, access.stream, { categories, cbsaCodes, platforms });
    await recordModeratorEdit(ctx, ctx.viewer, access);
    return null;
  },
});

/** Adds, changes or (with "") removes the replay link of an ended stream. */
export const setReplayUrl = zMutation({
  args: { streamId: zid("streams"), replayVideoUrl: streamFieldsSchema.shape.replayVideoUrl },
  returns: v.null(),
  handler: async (ctx, { streamId, replayVideoUrl }) => {
    const access = await getOwnedStreamOrThrow(ctx, ctx.viewer, streamId, "ownerOrAdmin");
    if (!canSetReplayUrl(access.stream.streamStatus))
      throw appError("NOT_EDITABLE", "A replay link can be added once the stream has ended.");
    await patchStream(ctx, streamId, { replayVideoUrl });
    await recordModeratorEdit(ctx, ctx.viewer, access);
    return null;
  },
});

/** A new draft copying the stream's content and links, without times: the owner's "run it again". */
export const duplicateStream = mutation({
  args: { streamId: v.id("streams") },
  returns: v.id("streams"),
  handler: async (ctx, { streamId }) => {
    const { stream } = await getOwnedStreamOrThrow(ctx, ctx.viewer, streamId, "ownerOnly");
    await limitRate(ctx, "newStream", ctx.viewer._id);
    return await duplicateStreamWithLinks(ctx, stream);
  },
});

/** Deletes a draft with its link rows, platform links and watch-list entries; other statuses are cancelled instead. */
export const deleteStream = mutation({
  args: { streamId: v.id("streams") },
  returns: v.null(),
  handler: async (ctx, { streamId }) => {
    const access = await getOwnedStreamOrThrow(ctx, ctx.viewer, streamId, "ownerOrAdmin");
    if (access.stream.streamStatus !== "CREATED") {
      throw appError(
        "NOT_EDITABLE",
        "Only a draft can be deleted. Cancel a stream that was scheduled or shown.",
      );
    }
    await deleteStreamCascade(ctx, streamId);
    if (isModerating(access.actor))
      await recordAdminAction(ctx, ctx.viewer, { action: "delete_stream", ...moderationTarget(access) });
    return null;
  },
});

/**
 * Run by the cron in crons.ts: ends LIVE and PAUSED streams whose stop time passed more than two hours
 * ago, a batch at a time, and runs again at once while a batch comes back full.
 */
export const endOverdue = internalMutation({
  args: {},
  returns: v.object({ ended: v.number() }),
  handler: async (ctx) => {
    const { ended, more } = await endOverdueStreams(ctx, Date.now());
    if (more) await ctx.scheduler.runAfter(0, internal.streams.endOverdue, {});
    return { ended };
  },
});
