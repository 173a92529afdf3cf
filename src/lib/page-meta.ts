/**
 * What a shop's and a stream's page say about themselves in the document head: title, description,
 * canonical address, and for link previews the Open Graph and Twitter card tags (decision 033). One
 * definition for the page in the browser (`useDocumentMeta`) and for `npm start`, which writes them
 * into the HTML it serves so a link pasted into a chat app previews without running JavaScript.
 * Pure: no DOM, no Node.
 */
// Relative imports: `npm start` (scripts/serve) runs this module in Node, without the app's aliases.
import { PLATFORMS } from "../../convex/lib/constants";
import { shownStreamTimes } from "../../convex/lib/shownTimes";
import { formatStreamTime, isFormattableTime } from "../../convex/lib/time";
import { paths } from "../config/paths";
import { mainPlatform, type EventStream } from "./json-ld";
import { SITE_NAME } from "./site-meta";

export { DEFAULT_DESCRIPTION, documentTitle, SITE_NAME } from "./site-meta";

/** The longest description written; previews cut around here anyway. */
const DESCRIPTION_LENGTH = 160;

export type PageMeta = {
  /** The page's own title; the tab reads "{title} · LiveLocal". */
  title: string;
  description: string;
  /** The canonical path, `/live-shop/{slug}` or `/stream/{id}`. */
  path: string;
  /** False for a page whose query is part of it (explore's filters): no canonical link is written. */
  canonical?: false;
  /** Site-relative or absolute. */
  image?: string;
  /**
   * The raster card `npm start` composes from the page and its picture for link previews (decision
   * 068); previews name it instead of `image`, which few chat apps can show when it is an SVG.
   */
  card?: { url: string; width: number; height: number; type: string };
  /** Label and value pairs some previews show under the description (Slack: "When", "Shop"). */
  facts: { label: string; value: string }[];
};

/** Whitespace folded and cut at a word near `length`, with an ellipsis when cut. */
export function shortText(text: string, length = DESCRIPTION_LENGTH): string {
  const folded = text.replace(/\s+/g, " ").trim();
  if (folded.length <= length) return folded;
  const cut = folded.slice(0, length - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > length * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,.;:!?-]+$/, "")}…`;
}

export type ShopForMeta = {
  liveShopName: string;
  slug: string;
  headline?: string;
  description?: string;
  bannerImageUrl?: string;
  logoUrl?: string;
  status: string;
};

export function shopPageMeta(shop: ShopForMeta): PageMeta {
  const description = shortText(shop.headline ?? shop.description ?? `${shop.liveShopName} on ${SITE_NAME}`);
  return {
    title: shop.liveShopName,
    description,
    path: paths.liveShop.getHref(shop.slug),
    image: shop.bannerImageUrl ?? shop.logoUrl,
    facts: shop.status === "maintenance" ? [{ label: "Shop", value: "Temporarily closed" }] : [],
  };
}

/** A stream page's data, as its schema.org Event takes it, with its pictures, zone and shop. */
export type StreamForMeta = Omit<EventStream, "imageUrl"> & {
  streamImageUrls: readonly string[];
  timezone: string;
  shop: { liveShopName: string };
};

/**
 * When a show is, for a preview: a server cannot know the reader's zone, so times are the shop's, with
 * their zone's name ("Sat, Nov 21, 7:30 PM CST").
 */
function streamWhen(stream: StreamForMeta): string | null {
  // What happened, else the plan (decision 058): a show that went live early started then.
  const shown = shownStreamTimes(stream).start;
  const start =
    shown !== undefined && isFormattableTime(shown) ? formatStreamTime(shown, stream.timezone) : null;
  switch (stream.streamStatus) {
    case "LIVE":
      return "Live now";
    case "PAUSED":
      return "Live now (on a short break)";
    case "CANCELLED":
      return "Cancelled";
    case "ENDED":
      return start ? `Ended · it started ${start}` : "Ended";
    default:
      return start;
  }
}

export function streamPageMeta(stream: StreamForMeta): PageMeta {
  const when = streamWhen(stream);
  const platform = mainPlatform(stream);
  const facts = [
    ...(when ? [{ label: "When", value: when }] : []),
    {
      label: "Shop",
      value: platform
        ? `${stream.shop.liveShopName} on ${PLATFORMS[platform.platformType].label}`
        : stream.shop.liveShopName,
    },
  ];
  const about = stream.streamDescription ?? `A live show by ${stream.shop.liveShopName}.`;
  return {
    title: stream.streamTitle,
    description: shortText(when ? `${when} · ${about}` : about),
    path: paths.stream.getHref(stream._id),
    image: stream.streamImageUrls[0],
    facts,
  };
}

/** A tag of the document head: `<meta name|property content>` or the canonical `<link>`. */
export type HeadTag =
  | { tag: "meta"; attribute: "name" | "property"; key: string; content: string }
  | { tag: "link"; rel: "canonical"; href: string };

/**
 * The head tags a page's link preview reads, on `origin` (the site's public address): canonical,
 * Open Graph (title, description with the show's time, URL, picture, site name) and the Twitter card
 * with its "When" and "Shop" labels. The title and description elements are written separately (they
 * exist in index.html).
 */
export function previewTags(meta: PageMeta, origin: string): HeadTag[] {
  const url = new URL(meta.path, origin).href;
  const picture = meta.card?.url ?? meta.image;
  const image = picture ? new URL(picture, origin).href : undefined;
  const og = (key: string, content: string | undefined): HeadTag[] =>
    content === undefined ? [] : [{ tag: "meta", attribute: "property", key, content }];
  const twitter = (key: string, content: string | undefined): HeadTag[] =>
    content === undefined ? [] : [{ tag: "meta", attribute: "name", key, content }];
  return [
    ...(meta.canonical === false ? [] : [{ tag: "link", rel: "canonical", href: url } as const]),
    ...og("og:site_name", SITE_NAME),
    ...og("og:type", "website"),
    ...og("og:title", meta.title),
    ...og("og:description", meta.description),
    ...og("og:url", url),
    ...og("og:image", image),
    ...og("og:image:type", meta.card?.type),
    ...og("og:image:width", meta.card && String(meta.card.width)),
    ...og("og:image:height", meta.card && String(meta.card.height)),
    ...og("og:image:alt", meta.card && meta.title),
    ...twitter("twitter:card", image ? "summary_large_image" : "summary"),
    ...twitter("twitter:title", meta.title),
    ...twitter("twitter:description", meta.description),
    ...twitter("twitter:image", image),
    ...twitter("twitter:image:alt", meta.card && meta.title),
    ...meta.facts
      .slice(0, 2)
      .flatMap((fact, index) => [
        ...twitter(`twitter:label${index + 1}`, fact.label),
        ...twitter(`twitter:data${index + 1}`, fact.value),
      ]),
  ];
}
