/**
 * What a link preview's picture says (decision 068): a 1200×630 card with the page's picture, its
 * title and a line or two (the shop, when the show is), drawn by preview-images.ts. Chat apps, X,
 * Facebook and LinkedIn show a PNG or a JPEG, not the SVG art or whatever a seller linked.
 *
 * A card's address carries a version, a hash of everything drawn on it (and of the build, which holds
 * the layout and the demo art): an edit gives a new address, so the old one can be cached for good.
 */
import { createHash } from "node:crypto";
import { formatStreamTime, isFormattableTime } from "../../convex/lib/time.ts";
import { shortText, type PageMeta } from "../../src/lib/page-meta.ts";

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;
export const CARD_TYPE = "image/png";

/** Everything a card draws; nothing else may change its pixels but the build. */
export type PreviewCard = {
  /** The page it previews: `/`, `/live-shop/{slug}`, `/stream/{id}`. */
  path: string;
  title: string;
  /** Under the title, one line each. */
  lines: string[];
  /** The page's picture (site-relative or absolute), drawn when it can be read safely. */
  picture?: string;
  /** A show on now, or a shop with one: the card says "Live now". */
  live: boolean;
};

/** The card of the home and explore pages: the site's own, with no picture (the app's art). */
export const SITE_CARD: PreviewCard = {
  path: "/",
  title: "Live shopping shows near you",
  lines: [
    "Shows from sellers in your metro area, by category and place.",
    "Whatnot, TikTok, Shopify, Etsy and 18 more platforms, in one place.",
  ],
  live: false,
};

/** A stream's card: its title, then when it is and whose show it is, as its preview's facts say. */
export function streamCard(meta: PageMeta, live: boolean): PreviewCard {
  return {
    path: meta.path,
    title: meta.title,
    lines: meta.facts.map((fact) => fact.value),
    picture: meta.image,
    live,
  };
}

/**
 * A shop's card: its name, its headline (or description), its show on now or next ("Next show: Sat,
 * Nov 21, 7:30 PM CST", in the shop's zone as the page's preview has it), and a notice such as
 * "Temporarily closed".
 */
export function shopCard(
  meta: PageMeta,
  shop: { timezone: string; picture?: string; live?: CardShow; next?: CardShow },
): PreviewCard {
  const show = shop.live
    ? `Live now: ${shop.live.streamTitle}`
    : shop.next?.streamStartUTC !== undefined && isFormattableTime(shop.next.streamStartUTC)
      ? `Next show: ${formatStreamTime(shop.next.streamStartUTC, shop.timezone)}`
      : undefined;
  return {
    path: meta.path,
    title: meta.title,
    lines: [
      shortText(meta.description, 110),
      ...(show ? [show] : []),
      ...meta.facts.map((fact) => fact.value),
    ],
    picture: shop.picture,
    live: shop.live !== undefined,
  };
}

type CardShow = { streamTitle: string; streamStartUTC?: number };

/** A short hash of the card and the build: the same card drawn by the same build keeps its version. */
export function cardVersion(card: PreviewCard, buildId: string): string {
  return createHash("sha256")
    .update(JSON.stringify([buildId, card]))
    .digest("base64url")
    .slice(0, 16);
}

const CARD_PATH = /^\/og\/(.+)\.png$/;
const HOME = "home";

/** `/og/stream/{id}.png?v=…` for a stream page's card, `/og/home.png?v=…` for the site's. */
export function cardUrl(card: PreviewCard, buildId: string): string {
  const page = card.path === "/" ? HOME : card.path.slice(1).split("/").map(encodeURIComponent).join("/");
  return `/og/${page}.png?v=${cardVersion(card, buildId)}`;
}

/** The page a card's path previews (`/og/stream/k17.png` → `/stream/k17`), or null for another path. */
export function cardPage(pathname: string): string | null {
  const page = CARD_PATH.exec(pathname)?.[1];
  if (!page) return null;
  return page === HOME ? "/" : `/${page}`;
}

/** `meta` with its card's address, which `previewTags` then names as the picture. */
export function withCard(meta: PageMeta, card: PreviewCard, buildId: string): PageMeta {
  return {
    ...meta,
    card: { url: cardUrl(card, buildId), width: CARD_WIDTH, height: CARD_HEIGHT, type: CARD_TYPE },
  };
}
