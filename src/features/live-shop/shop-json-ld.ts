import type { FunctionReturnType } from "convex/server";
import { paths } from "@/config/paths";
import { absoluteUrl, streamEventJsonLd } from "@/lib/json-ld";
import type { api } from "@convex/_generated/api";

export type PublicShop = NonNullable<FunctionReturnType<typeof api.liveShops.getPublicShop>>;

/**
 * schema.org data: the shop as its `schemaType`, with its live and upcoming shows as online Events
 * (issue 17 item 5; `streamEventJsonLd`, the stream page's own).
 */
export function buildShopJsonLd(shop: PublicShop, origin: string) {
  const shopUrl = new URL(paths.liveShop.getHref(shop.slug), origin).href;
  const organizer = { name: shop.liveShopName, slug: shop.slug, schemaType: shop.schemaType };
  const events = [...shop.streams.live, ...shop.streams.upcoming].flatMap((stream) => {
    const event = streamEventJsonLd(stream, organizer, origin);
    return event ? [event] : [];
  });
  return {
    "@context": "https://schema.org",
    "@type": shop.schemaType,
    name: shop.liveShopName,
    url: shopUrl,
    ...(shop.headline && { slogan: shop.headline }),
    ...(shop.description && { description: shop.description }),
    ...(shop.logoUrl && { logo: absoluteUrl(shop.logoUrl, origin) }),
    ...(shop.bannerImageUrl && { image: absoluteUrl(shop.bannerImageUrl, origin) }),
    ...(shop.areas.length > 0 && {
      areaServed: shop.areas.map((area) => ({ "@type": "Place", name: area.msaLabel })),
    }),
    ...(events.length > 0 && { event: events }),
  };
}
