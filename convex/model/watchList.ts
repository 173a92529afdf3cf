/**
 * A person's watch list (docs/product.md#watch-list): the streams they saved and the shops they follow,
 * read for `/watch-list` and kept within LIMITS. Only what a public page would show is listed; a saved
 * show or followed shop that left public view (a draft again, a suspended shop) is reported by id as
 * unavailable, so its owner can still remove it. Every read is indexed and bounded by the limits.
 */
import { v, type Infer } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { isShopPublic, isStreamPagePublic } from "../lib/lifecycle";
import { countInsight, countStreamInsight } from "./insights";
import { LIMITS } from "../lib/limits";
import { shownEnd, shownStart, type StreamTimeFields } from "../lib/shownTimes";
import { shopCardValidator, streamCardValidator } from "../schema";
import { toStreamCard } from "./cards";
import { appError } from "./errors";
import { shopCardOf } from "./exploreListings";
import { isHiddenByOwner, publicShopStatus } from "./restriction";
import { insertWithTimestamps } from "./timestamps";

/** Streams on now (live, then paused; decision 059) of one followed shop shown under "Live now". */
const LIVE_PER_FOLLOWED_SHOP = 3;

export const watchStreamValidator = v.object({
  ...streamCardValidator.fields,
  streamDescription: v.optional(v.string()),
  replayVideoUrl: v.optional(v.string()),
  /** On the person's list (false: listed because they follow its shop). */
  saved: v.boolean(),
});
export type WatchStream = Infer<typeof watchStreamValidator>;

export const followedShopValidator = v.object({
  shop: shopCardValidator,
  /** Live now (or paused), else the soonest scheduled show; null when none is planned. */
  nextStream: v.union(streamCardValidator, v.null()),
});

export const watchListValidator = v.object({
  /** Saved streams live or paused, then followed shops' live streams, each once. */
  live: v.array(watchStreamValidator),
  /** Saved scheduled shows, soonest first. */
  upcoming: v.array(watchStreamValidator),
  /** Saved shows that ended or were cancelled, most recent first. */
  ended: v.array(watchStreamValidator),
  /** Followed shops, by name. */
  shops: v.array(followedShopValidator),
  /** Saved or followed ids no longer public; they still count toward the limits. */
  unavailable: v.object({
    streamIds: v.array(v.id("streams")),
    liveShopIds: v.array(v.id("liveShops")),
    /**
     * Why, where it is the shop: each shop that left public view with what of the person's it took
     * (their follow, their saved shows); `closed` when its owner closed it, else it is off LiveLocal for
     * now (suspended, or hidden with its owner's account, which is not said).
     */
    shops: v.array(
      v.object({
        liveShopId: v.id("liveShops"),
        liveShopName: v.string(),
        closed: v.boolean(),
        followed: v.boolean(),
        savedShows: v.number(),
      }),
    ),
  }),
  counts: v.object({ savedStreams: v.number(), followedShops: v.number() }),
  limits: v.object({ savedStreams: v.number(), followedShops: v.number() }),
});
export type WatchList = Infer<typeof watchListValidator>;

export async function listSavedRows(ctx: QueryCtx, userId: Id<"users">): Promise<Doc<"savedStreams">[]> {
  return await ctx.db
    .query("savedStreams")
    .withIndex("by_userId_and_streamId", (q) => q.eq("userId", userId))
    .take(LIMITS.savedStreamsPerUser);
}

export async function listFollowRows(ctx: QueryCtx, userId: Id<"users">): Promise<Doc<"shopFollows">[]> {
  return await ctx.db
    .query("shopFollows")
    .withIndex("by_userId_and_liveShopId", (q) => q.eq("userId", userId))
    .take(LIMITS.followedShopsPerUser);
}

export async function findSavedRow(ctx: QueryCtx, userId: Id<"users">, streamId: Id<"streams">) {
  return await ctx.db
    .query("savedStreams")
    .withIndex("by_userId_and_streamId", (q) => q.eq("userId", userId).eq("streamId", streamId))
    .unique();
}

export async function findFollowRow(ctx: QueryCtx, userId: Id<"users">, liveShopId: Id<"liveShops">) {
  return await ctx.db
    .query("shopFollows")
    .withIndex("by_userId_and_liveShopId", (q) => q.eq("userId", userId).eq("liveShopId", liveShopId))
    .unique();
}

/** Shops already read in this call, by id: a list of 100 shows reads each of their few shops once. */
export type ShopCache = Map<Id<"liveShops">, Doc<"liveShops"> | null>;

async function getShop(ctx: QueryCtx, liveShopId: Id<"liveShops">, cache?: ShopCache) {
  if (cache?.has(liveShopId)) return cache.get(liveShopId) ?? null;
  const shop = await ctx.db.get("liveShops", liveShopId);
  cache?.set(liveShopId, shop);
  return shop;
}

type GoneShop = WatchList["unavailable"]["shops"][number];

/** Notes that `shop`, no longer public, took a follow or a saved show of the person's with it. */
function noteGoneShop(gone: Map<Id<"liveShops">, GoneShop>, shop: Doc<"liveShops">, what: "follow" | "save") {
  const entry = gone.get(shop._id) ?? {
    liveShopId: shop._id,
    liveShopName: shop.liveShopName,
    closed: shop.status === "inactive" && !isHiddenByOwner(shop),
    followed: false,
    savedShows: 0,
  };
  if (what === "follow") entry.followed = true;
  else entry.savedShows += 1;
  gone.set(shop._id, entry);
}

/** A stream and its shop, when anyone may open the stream's page. */
export async function getPublicStreamWithShop(
  ctx: QueryCtx,
  streamId: Id<"streams">,
  cache?: ShopCache,
): Promise<{ stream: Doc<"streams">; shop: Doc<"liveShops"> } | null> {
  const stream = await ctx.db.get("streams", streamId);
  if (!stream) return null;
  const shop = await getShop(ctx, stream.liveShopId, cache);
  if (!shop || !isStreamPagePublic(stream.streamStatus, publicShopStatus(shop))) return null;
  return { stream, shop };
}

export async function getPublicShop(
  ctx: QueryCtx,
  liveShopId: Id<"liveShops">,
  cache?: ShopCache,
): Promise<Doc<"liveShops"> | null> {
  const shop = await getShop(ctx, liveShopId, cache);
  return shop && isShopPublic(publicShopStatus(shop)) ? shop : null;
}

/** Saves a public stream to the person's list; saving it again changes nothing. */
export async function saveStream(ctx: MutationCtx, user: Doc<"users">, streamId: Id<"streams">) {
  if (await findSavedRow(ctx, user._id, streamId)) return;
  if (!(await getPublicStreamWithShop(ctx, streamId))) {
    throw appError("NOT_FOUND", "This show is not available any more.");
  }
  const saved = await listSavedRows(ctx, user._id);
  if (saved.length >= LIMITS.savedStreamsPerUser) {
    throw appError(
      "LIMIT_EXCEEDED",
      `Your watch list is full: it keeps up to ${LIMITS.savedStreamsPerUser} shows. Remove one you no longer need to save this one.`,
    );
  }
  await insertWithTimestamps(ctx, "savedStreams", { userId: user._id, streamId });
  if (user.privacyPreferences.analytics) await countStreamInsight(ctx, streamId, "save");
}

/** Follows a public shop; following it again changes nothing. */
export async function followShop(ctx: MutationCtx, user: Doc<"users">, liveShopId: Id<"liveShops">) {
  if (await findFollowRow(ctx, user._id, liveShopId)) return;
  if (!(await getPublicShop(ctx, liveShopId))) {
    throw appError("NOT_FOUND", "This shop is not available any more.");
  }
  const follows = await listFollowRows(ctx, user._id);
  if (follows.length >= LIMITS.followedShopsPerUser) {
    throw appError(
      "LIMIT_EXCEEDED",
      `You follow ${LIMITS.followedShopsPerUser} shops, the most you can. Unfollow one to follow this shop.`,
    );
  }
  await insertWithTimestamps(ctx, "shopFollows", { userId: user._id, liveShopId });
  if (user.privacyPreferences.analytics) await countInsight(ctx, { liveShopId, metric: "follow" });
}

/** Takes a stream off the person's list, if it is there (even one no longer public). */
export async function unsaveStream(ctx: MutationCtx, userId: Id<"users">, streamId: Id<"streams">) {
  const row = await findSavedRow(ctx, userId, streamId);
  if (row) await ctx.db.delete("savedStreams", row._id);
}

/** Stops following a shop, if the person follows it (even one no longer public). */
export async function unfollowShop(ctx: MutationCtx, userId: Id<"users">, liveShopId: Id<"liveShops">) {
  const row = await findFollowRow(ctx, userId, liveShopId);
  if (row) await ctx.db.delete("shopFollows", row._id);
}

function toWatchStream(stream: Doc<"streams">, saved: boolean): WatchStream {
  return {
    ...toStreamCard(stream),
    streamDescription: stream.streamDescription,
    replayVideoUrl: stream.replayVideoUrl,
    saved,
  };
}

const byStart = (a: StreamTimeFields, b: StreamTimeFields) => shownStart(a) - shownStart(b);
const byLatestEnd = (a: StreamTimeFields, b: StreamTimeFields) => shownEnd(b) - shownEnd(a);

/** A followed shop's shows on now: live ones, then paused ones while there is room. */
async function liveStreamsOf(ctx: QueryCtx, liveShopId: Id<"liveShops">): Promise<Doc<"streams">[]> {
  const onNow: Doc<"streams">[] = [];
  for (const status of ["LIVE", "PAUSED"] as const) {
    if (onNow.length >= LIVE_PER_FOLLOWED_SHOP) break;
    onNow.push(
      ...(await ctx.db
        .query("streams")
        .withIndex("by_liveShopId_and_streamStatus_and_streamStartUTC", (q) =>
          q.eq("liveShopId", liveShopId).eq("streamStatus", status),
        )
        .take(LIVE_PER_FOLLOWED_SHOP - onNow.length)),
    );
  }
  return onNow;
}

/** A shop's soonest scheduled stream. */
async function firstStreamOf(
  ctx: QueryCtx,
  liveShopId: Id<"liveShops">,
  status: "SCHEDULED",
): Promise<Doc<"streams"> | null> {
  return await ctx.db
    .query("streams")
    .withIndex("by_liveShopId_and_streamStatus_and_streamStartUTC", (q) =>
      q.eq("liveShopId", liveShopId).eq("streamStatus", status),
    )
    .first();
}

/** Everything `/watch-list` shows, for one person. */
export async function readWatchList(ctx: QueryCtx, userId: Id<"users">): Promise<WatchList> {
  const savedRows = await listSavedRows(ctx, userId);
  const followRows = await listFollowRows(ctx, userId);
  const live: WatchStream[] = [];
  const upcoming: WatchStream[] = [];
  const ended: WatchStream[] = [];
  const unavailable: WatchList["unavailable"] = { streamIds: [], liveShopIds: [], shops: [] };
  const goneShops = new Map<Id<"liveShops">, GoneShop>();
  const savedIds = new Set<Id<"streams">>();
  const shopCache: ShopCache = new Map();

  for (const row of savedRows) {
    savedIds.add(row.streamId);
    const stream = await ctx.db.get("streams", row.streamId);
    const shop = stream && (await getShop(ctx, stream.liveShopId, shopCache));
    if (!stream || !shop || !isStreamPagePublic(stream.streamStatus, publicShopStatus(shop))) {
      unavailable.streamIds.push(row.streamId);
      // Gone with its shop: the notice says which shop and why.
      if (shop && !isShopPublic(publicShopStatus(shop))) noteGoneShop(goneShops, shop, "save");
      continue;
    }
    const item = toWatchStream(stream, true);
    const status = stream.streamStatus;
    if (status === "LIVE" || status === "PAUSED") live.push(item);
    else if (status === "SCHEDULED") upcoming.push(item);
    else ended.push(item);
  }

  const shops: Infer<typeof followedShopValidator>[] = [];
  const followedLive: WatchStream[] = [];
  for (const row of followRows) {
    const shop = await getPublicShop(ctx, row.liveShopId, shopCache);
    if (!shop) {
      unavailable.liveShopIds.push(row.liveShopId);
      const gone = await getShop(ctx, row.liveShopId, shopCache);
      if (gone) noteGoneShop(goneShops, gone, "follow");
      continue;
    }
    const liveNow = await liveStreamsOf(ctx, shop._id);
    for (const stream of liveNow)
      if (!savedIds.has(stream._id)) followedLive.push(toWatchStream(stream, false));
    // Live, else paused (as explore's shop cards badge it), else the soonest scheduled show.
    const next = liveNow[0] ?? (await firstStreamOf(ctx, shop._id, "SCHEDULED"));
    const card = await shopCardOf(ctx, shop);
    const liveStatus =
      liveNow[0]?.streamStatus === "LIVE" || liveNow[0]?.streamStatus === "PAUSED"
        ? liveNow[0].streamStatus
        : undefined;
    shops.push({
      shop: { ...card, liveStatus },
      nextStream: next ? toStreamCard(next) : null,
    });
  }

  // Live before paused, then the earliest start first.
  const liveOrder = (a: WatchStream, b: WatchStream) =>
    Number(a.streamStatus === "PAUSED") - Number(b.streamStatus === "PAUSED") || byStart(a, b);
  return {
    live: [...live.sort(liveOrder), ...followedLive.sort(liveOrder)],
    upcoming: upcoming.sort(byStart),
    ended: ended.sort(byLatestEnd),
    shops: shops.sort((a, b) => a.shop.liveShopName.localeCompare(b.shop.liveShopName)),
    unavailable: {
      ...unavailable,
      shops: [...goneShops.values()].sort((a, b) => a.liveShopName.localeCompare(b.liveShopName)),
    },
    counts: { savedStreams: savedRows.length, followedShops: followRows.length },
    limits: { savedStreams: LIMITS.savedStreamsPerUser, followedShops: LIMITS.followedShopsPerUser },
  };
}
