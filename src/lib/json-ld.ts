// Relative imports: `npm start` (scripts/serve) runs this module in Node, without the app's aliases.
import type { PlatformType, StreamStatus } from "../../convex/lib/constants";
import { shownStreamTimes, type StreamTimeFields } from "../../convex/lib/shownTimes";
import { isoDateTime } from "../../convex/lib/time";
import { paths } from "../config/paths";
import { scriptJson } from "./script-json";

/** JSON for a `<script type="application/ld+json">`: a seller's `</script>` cannot end it (`scriptJson`). */
export function serializeJsonLd(data: unknown): string {
  return scriptJson(data);
}

/** A site-relative or absolute address as an absolute one on `origin`. */
export function absoluteUrl(url: string | undefined, origin: string): string | undefined {
  return url ? new URL(url, origin).href : undefined;
}

/** What a show's schema.org Event is made of: a stream page's data, or a shop page's stream card. */
export type EventStream = StreamTimeFields & {
  _id: string;
  streamTitle: string;
  streamDescription?: string;
  streamStatus: StreamStatus;
  imageUrl?: string;
  /** The show's own video address, when known: the platform streaming at it is the main one. */
  streamVideoUrl?: string;
  platforms: readonly { platformType: PlatformType; platformStreamUrl?: string }[];
};

/** Where a show streams: the platform at its video's address, else the first linked with an address. */
export function mainPlatform<P extends { platformStreamUrl?: string }>(stream: {
  streamVideoUrl?: string;
  platforms: readonly P[];
}): P | undefined {
  return (
    stream.platforms.find((platform) => platform.platformStreamUrl === stream.streamVideoUrl) ??
    stream.platforms.find((platform) => platform.platformStreamUrl) ??
    stream.platforms[0]
  );
}

export type EventOrganizer = { name: string; slug: string; schemaType: string };

/**
 * How a status reads in schema.org: scheduled, live and paused shows are `EventScheduled` (schema.org
 * has no "live": a live show is one taking place as scheduled), and so is an ended one, which took
 * place; cancelled ones are `EventCancelled`. A draft is no event yet.
 */
const EVENT_STATUS: Partial<Record<StreamStatus, string>> = {
  SCHEDULED: "https://schema.org/EventScheduled",
  LIVE: "https://schema.org/EventScheduled",
  PAUSED: "https://schema.org/EventScheduled",
  ENDED: "https://schema.org/EventScheduled",
  CANCELLED: "https://schema.org/EventCancelled",
};

/**
 * A show as a schema.org Event (issue 17 item 5): online, at the platform's address where it streams
 * (its page here when no platform is linked), organised by its shop, at its shown times (decision 058:
 * when it went live and ended, the plan for what is to come). Null for a draft, and for a show without a
 * start time a date can show.
 */
export function streamEventJsonLd(stream: EventStream, shop: EventOrganizer, origin: string) {
  const eventStatus = EVENT_STATUS[stream.streamStatus];
  const { start, stop } = shownStreamTimes(stream);
  const startDate = start === undefined ? undefined : isoDateTime(start);
  if (!eventStatus || startDate === undefined) return null;
  const endDate = stop === undefined ? undefined : isoDateTime(stop);
  const streamUrl = new URL(paths.stream.getHref(stream._id), origin).href;
  const platformUrl = mainPlatform(stream)?.platformStreamUrl;
  return {
    "@type": "Event",
    name: stream.streamTitle,
    ...(stream.streamDescription && { description: stream.streamDescription }),
    startDate,
    ...(endDate !== undefined && { endDate }),
    eventStatus,
    eventAttendanceMode: "https://schema.org/OnlineEventAttendanceMode",
    location: { "@type": "VirtualLocation", url: platformUrl ?? streamUrl },
    url: streamUrl,
    ...(stream.imageUrl && { image: absoluteUrl(stream.imageUrl, origin) }),
    organizer: {
      "@type": shop.schemaType,
      name: shop.name,
      url: new URL(paths.liveShop.getHref(shop.slug), origin).href,
    },
  };
}

/** What a shop's schema.org data is made of: its public page's data. */
export type JsonLdShop = {
  liveShopName: string;
  slug: string;
  schemaType: string;
  headline?: string;
  description?: string;
  logoUrl?: string;
  bannerImageUrl?: string;
  areas: readonly { msaLabel: string }[];
  streams: { live: readonly EventStream[]; upcoming: readonly EventStream[] };
};

/**
 * A shop's schema.org data: the shop as its `schemaType`, with its live and upcoming shows as online
 * Events (issue 17 item 5), each as its own stream page gives it.
 */
export function shopJsonLd(shop: JsonLdShop, origin: string) {
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

/** A stream page's schema.org data: its Event (none for a draft), as a document of its own. */
export function streamPageJsonLd(
  stream: Omit<EventStream, "imageUrl"> & {
    streamImageUrls: readonly string[];
    shop: { liveShopName: string; slug: string; schemaType: string };
  },
  origin: string,
) {
  const event = streamEventJsonLd(
    { ...stream, imageUrl: stream.streamImageUrls[0] },
    { name: stream.shop.liveShopName, slug: stream.shop.slug, schemaType: stream.shop.schemaType },
    origin,
  );
  return event && { "@context": "https://schema.org", ...event };
}
