import type { FunctionReturnType } from "convex/server";
import { paths } from "@/config/paths";
import type { api } from "@convex/_generated/api";
import { isoDateTime } from "@convex/lib/time";

export type PublicShop = NonNullable<FunctionReturnType<typeof api.liveShops.getPublicShop>>;

function absolute(url: string | undefined, origin: string): string | undefined {
  return url ? new URL(url, origin).href : undefined;
}

/** schema.org data: the shop as its `schemaType`, each upcoming stream an online Event at its page. */
export function buildShopJsonLd(shop: PublicShop, origin: string) {
  const shopUrl = new URL(paths.liveShop.getHref(shop.slug), origin).href;
  // A stream without a start, or with one no date can show (stored before times were bounded), is no event.
  const events = shop.streams.upcoming.flatMap((stream) => {
    const startDate = stream.streamStartUTC === undefined ? undefined : isoDateTime(stream.streamStartUTC);
    if (startDate === undefined) return [];
    const endDate = stream.streamStopUTC === undefined ? undefined : isoDateTime(stream.streamStopUTC);
    const streamUrl = new URL(paths.stream.getHref(stream._id), origin).href;
    return [
      {
        "@type": "Event",
        name: stream.streamTitle,
        startDate,
        ...(endDate !== undefined && { endDate }),
        eventStatus: "https://schema.org/EventScheduled",
        eventAttendanceMode: "https://schema.org/OnlineEventAttendanceMode",
        location: { "@type": "VirtualLocation", url: streamUrl },
        url: streamUrl,
        ...(stream.imageUrl && { image: absolute(stream.imageUrl, origin) }),
        organizer: { "@type": shop.schemaType, name: shop.liveShopName, url: shopUrl },
      },
    ];
  });
  return {
    "@context": "https://schema.org",
    "@type": shop.schemaType,
    name: shop.liveShopName,
    url: shopUrl,
    ...(shop.headline && { slogan: shop.headline }),
    ...(shop.description && { description: shop.description }),
    ...(shop.logoUrl && { logo: absolute(shop.logoUrl, origin) }),
    ...(shop.bannerImageUrl && { image: absolute(shop.bannerImageUrl, origin) }),
    ...(shop.areas.length > 0 && {
      areaServed: shop.areas.map((area) => ({ "@type": "Place", name: area.msaLabel })),
    }),
    ...(events.length > 0 && { event: events }),
  };
}
