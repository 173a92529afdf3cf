import type { Doc, Id } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import type { ExploreFacets } from "../lib/explore";
import type { ShopCard, StreamCard } from "../schema";

/** The one mapper from a stream to its card, wherever streams are listed. */
export function toStreamCard(stream: Doc<"streams">): StreamCard {
  return {
    _id: stream._id,
    streamTitle: stream.streamTitle,
    streamStatus: stream.streamStatus,
    liveShopName: stream.liveShopName,
    liveShopSlug: stream.liveShopSlug,
    imageUrl: stream.streamImageUrls[0],
    streamStartUTC: stream.streamStartUTC,
    streamStopUTC: stream.streamStopUTC,
    streamStartedUTC: stream.streamStartedUTC,
    streamEndedUTC: stream.streamEndedUTC,
    timezone: stream.timezone,
    locationLabel: stream.locationLabel,
  };
}

/**
 * The cards of the streams explore lists, read with the page (decision 046: listing rows order streams,
 * the streams themselves say what their cards show). A stream gone since its rows were read is left out.
 */
export async function streamCardsOf(
  ctx: QueryCtx,
  streamIds: readonly Id<"streams">[],
): Promise<StreamCard[]> {
  const streams = await Promise.all(streamIds.map((streamId) => ctx.db.get("streams", streamId)));
  return streams.flatMap((stream) => (stream ? [toStreamCard(stream)] : []));
}

/** A shop's explore card: its categories and metro areas from its facets, primary first. */
export function toShopCard(shop: Doc<"liveShops">, facets: ExploreFacets): ShopCard {
  return {
    _id: shop._id,
    liveShopName: shop.liveShopName,
    slug: shop.slug,
    headline: shop.headline,
    logoUrl: shop.logoUrl,
    bannerImageUrl: shop.bannerImageUrl,
    status: shop.status,
    categories: facets.categories,
    areas: facets.msas,
  };
}
