import type { Doc } from "../_generated/dataModel";
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
    timezone: stream.timezone,
    locationLabel: stream.locationLabel,
  };
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
