import type { Doc } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import { isStreamListedPublicly } from "../lib/lifecycle";
import type { ShopCard, StreamCard } from "../schema";
import { toStreamCard } from "./cards";
import { shopCardOf } from "./exploreListings";
import { publicShopStatus } from "./restriction";

/** The home page's "starting soon": at most this many cards. */
export const STARTING_SOON_LIMIT = 6;
/** How far ahead "soon" reaches. */
export const STARTING_SOON_HORIZON_MS = 48 * 60 * 60 * 1000;
/** The home page's featured shops: at most this many, chosen among this many active shops. */
export const FEATURED_SHOPS_LIMIT = 6;
export const FEATURED_CANDIDATES = 30;
const STREAM_COUNT_CAP = 10;

/**
 * Scheduled streams of public shops starting from `since` to `since` + the horizon, soonest first.
 * `since` comes from the client rounded down to 5 minutes (queries may not read the clock), so the
 * client hides the few whose start has just passed.
 */
export async function listStartingSoonCards(ctx: QueryCtx, since: number): Promise<StreamCard[]> {
  const streams = await ctx.db
    .query("streams")
    .withIndex("by_streamStatus_and_streamStartUTC", (q) =>
      q
        .eq("streamStatus", "SCHEDULED")
        .gte("streamStartUTC", since)
        .lt("streamStartUTC", since + STARTING_SOON_HORIZON_MS),
    )
    // Room for streams of non-public shops, which are skipped.
    .take(STARTING_SOON_LIMIT * 2);
  const cards: StreamCard[] = [];
  for (const stream of streams) {
    if (cards.length >= STARTING_SOON_LIMIT) break;
    const shop = await ctx.db.get("liveShops", stream.liveShopId);
    if (shop && isStreamListedPublicly(stream.streamStatus, publicShopStatus(shop)))
      cards.push(toStreamCard(stream));
  }
  return cards;
}

async function countStreams(ctx: QueryCtx, shop: Doc<"liveShops">, status: "LIVE" | "PAUSED" | "SCHEDULED") {
  const rows = await ctx.db
    // The shop-to-stream link rows carry the stream's status, so counting needs no stream reads.
    .query("liveShopStreams")
    .withIndex("by_liveShopId_and_streamStatus", (q) =>
      q.eq("liveShopId", shop._id).eq("streamStatus", status),
    )
    .take(STREAM_COUNT_CAP);
  return rows.length;
}

/**
 * Active shops with the most shows on now (live or paused: decision 059), then upcoming, streams; ties
 * by name. Candidates are the FEATURED_CANDIDATES most recently updated active shops.
 */
export async function listFeaturedShopCards(ctx: QueryCtx): Promise<ShopCard[]> {
  const shops = await ctx.db
    .query("liveShops")
    .withIndex("by_status_and_updatedAt", (q) => q.eq("status", "active"))
    .order("desc")
    .take(FEATURED_CANDIDATES);
  const ranked = [];
  for (const shop of shops) {
    if (publicShopStatus(shop) !== "active") continue;
    ranked.push({
      shop,
      live: (await countStreams(ctx, shop, "LIVE")) + (await countStreams(ctx, shop, "PAUSED")),
      upcoming: await countStreams(ctx, shop, "SCHEDULED"),
    });
  }
  ranked.sort(
    (a, b) =>
      b.live - a.live || b.upcoming - a.upcoming || a.shop.liveShopName.localeCompare(b.shop.liveShopName),
  );
  const cards: ShopCard[] = [];
  for (const { shop } of ranked.slice(0, FEATURED_SHOPS_LIMIT)) {
    cards.push(await shopCardOf(ctx, shop));
  }
  return cards;
}
