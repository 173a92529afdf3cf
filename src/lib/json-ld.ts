import { paths } from "@/config/paths";
import type { PlatformType, StreamStatus } from "@convex/lib/constants";
import { isoDateTime } from "@convex/lib/time";

/**
 * JSON for a `<script type="application/ld+json">`: `<`, `>` and `&` are written as \u escapes so a
 * seller's text containing `</script>` or `<!--` cannot end the script element; U+2028 and U+2029 too,
 * for older parsers. The result is still the same JSON.
 */
export function serializeJsonLd(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** A site-relative or absolute address as an absolute one on `origin`. */
export function absoluteUrl(url: string | undefined, origin: string): string | undefined {
  return url ? new URL(url, origin).href : undefined;
}

/** What a show's schema.org Event is made of: a stream page's data, or a shop page's stream card. */
export type EventStream = {
  _id: string;
  streamTitle: string;
  streamDescription?: string;
  streamStatus: StreamStatus;
  streamStartUTC?: number;
  streamStopUTC?: number;
  imageUrl?: string;
  platforms: readonly { platformType: PlatformType; platformStreamUrl?: string }[];
};

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
 * (its page here when no platform is linked), organised by its shop. Null for a draft, and for a show
 * without a start time a date can show.
 */
export function streamEventJsonLd(stream: EventStream, shop: EventOrganizer, origin: string) {
  const eventStatus = EVENT_STATUS[stream.streamStatus];
  const startDate = stream.streamStartUTC === undefined ? undefined : isoDateTime(stream.streamStartUTC);
  if (!eventStatus || startDate === undefined) return null;
  const endDate = stream.streamStopUTC === undefined ? undefined : isoDateTime(stream.streamStopUTC);
  const streamUrl = new URL(paths.stream.getHref(stream._id), origin).href;
  const platformUrl = stream.platforms.find((platform) => platform.platformStreamUrl)?.platformStreamUrl;
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
