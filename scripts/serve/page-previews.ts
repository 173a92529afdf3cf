/**
 * Link previews and honest 404s for shop and stream pages (decision 033). A chat app or a search
 * engine that reads the HTML without running the app gets the page's title, description, canonical
 * address, Open Graph and Twitter card tags and schema.org data, read from the backend when the page
 * is asked for; an unknown shop or stream answers 404, as an unknown path does. Both with the same
 * index.html the app boots from (it removes these tags and sets its own). Home and the explore lists
 * get the site's title and description with the same tags. The pictures the tags name are cards drawn
 * by preview-images.ts (decision 068).
 *
 * Reads go through `ConvexHttpClient` to the Convex deployment the build names, or to the local backend
 * in the same process, as any visitor's would (public queries, no identity), and are kept a short while
 * so a link shared in a busy chat costs one read per page every TTL.
 */
import type { ConvexHttpClient } from "convex/browser";
import { api } from "../../convex/_generated/api";
import { escapeHtml } from "../../convex/lib/html.ts";
import { paths } from "../../src/config/paths.ts";
import { serializeJsonLd, shopJsonLd, streamPageJsonLd } from "../../src/lib/json-ld.ts";
import { httpClientFor } from "./convex-client.ts";
import {
  DEFAULT_DESCRIPTION,
  documentTitle,
  previewTags,
  shopPageMeta,
  SITE_NAME,
  streamPageMeta,
  type HeadTag,
  type PageMeta,
} from "../../src/lib/page-meta.ts";
import { shopCard, SITE_CARD, streamCard, withCard, type PreviewCard } from "./preview-cards.ts";

/**
 * What a page answers with: its status, what goes into its head, and what its preview's picture
 * draws (preview-images.ts).
 */
export type PagePreview = { status: 200 | 404; meta?: PageMeta; jsonLd?: unknown; card?: PreviewCard };

export type PreviewTarget = { kind: "shop"; idOrSlug: string } | { kind: "stream"; streamId: string };

function segmentPattern(path: string): RegExp {
  const [prefix] = path.split("/:");
  return new RegExp(`^${prefix}/([^/]+)/?$`);
}

const SHOP_PAGE = segmentPattern(paths.liveShop.path);
const STREAM_PAGE = segmentPattern(paths.stream.path);
/** Pages whose preview is the site's own: home and the explore lists. */
const SITE_PAGES = /^(?:\/|\/explore\/(?:streams|live-shops)\/?)$/;

/** The shop or stream a path names (`/live-shop/{id or slug}`, `/stream/{id}`), or null. */
export function previewTarget(pathname: string): PreviewTarget | null {
  const decode = (segment: string) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  };
  const shop = SHOP_PAGE.exec(pathname)?.[1];
  if (shop) return { kind: "shop", idOrSlug: decode(shop) };
  const stream = STREAM_PAGE.exec(pathname)?.[1];
  if (stream) return { kind: "stream", streamId: decode(stream) };
  return null;
}

export type PreviewOptions = {
  /** The Convex URL to read from (the deployment, or this server's own origin in local mode). */
  convexUrl: () => string;
  /** How long an answer is kept (default 30 s). */
  ttlMs?: number;
  /** The most answers kept (default 500); the oldest go first. */
  maxEntries?: number;
  /** The clock, for tests. */
  now?: () => number;
  /** The reads, for tests; by default the public queries over HTTP. */
  read?: (target: PreviewTarget) => Promise<PagePreview>;
  /** The build's id: it is part of each card's version (preview-cards.ts). */
  buildId?: string;
};

/** A page's preview from the backend: 404 when the shop or stream is unknown or not public. */
async function readPreview(
  client: ConvexHttpClient,
  target: PreviewTarget,
  origin: string,
): Promise<PagePreview> {
  if (target.kind === "shop") {
    const shop = await client.query(api.liveShops.getPublicShop, { idOrSlug: target.idOrSlug });
    if (!shop) return { status: 404 };
    const meta = shopPageMeta(shop);
    const card = shopCard(meta, {
      timezone: shop.timezone,
      // A banner is drawn wide; a logo, the last resort, would be cropped to a strip of itself.
      picture: shop.bannerImageUrl ?? shop.coverImageUrl ?? shop.logoUrl,
      live: shop.streams.live[0],
      next: shop.streams.upcoming[0],
    });
    return { status: 200, meta, jsonLd: shopJsonLd(shop, origin), card };
  }
  const stream = await client.query(api.streams.getPublicStream, { streamId: target.streamId });
  // Anonymous: a draft, which only its owner may open, reads as not found here too.
  if (!stream) return { status: 404 };
  const meta = streamPageMeta(stream);
  const live = stream.streamStatus === "LIVE" || stream.streamStatus === "PAUSED";
  return {
    status: 200,
    meta,
    jsonLd: streamPageJsonLd(stream, origin) ?? undefined,
    card: streamCard(meta, live),
  };
}

/** The head of home and the explore lists: the site's title and description, and the site's card. */
function sitePreview(pathname: string): PagePreview {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, "") : pathname;
  return {
    status: 200,
    meta: {
      title: SITE_NAME,
      description: DEFAULT_DESCRIPTION,
      path,
      facts: [],
      canonical: path === "/" ? undefined : false,
    },
    card: SITE_CARD,
  };
}

/** A preview whose meta names its card's address (when it has a card). */
function withCardOf(preview: PagePreview, buildId: string): PagePreview {
  if (!preview.meta || !preview.card) return preview;
  return { ...preview, meta: withCard(preview.meta, preview.card, buildId) };
}

/**
 * Previews by target, cached `ttlMs` per target and origin. A backend that cannot be reached gives
 * null: the page is served as before (200, index.html's own head) rather than failing.
 */
export function createPagePreviews(options: PreviewOptions) {
  const ttl = options.ttlMs ?? 30_000;
  const maxEntries = options.maxEntries ?? 500;
  const now = options.now ?? Date.now;
  const buildId = options.buildId ?? "";
  const cache = new Map<string, { at: number; preview: Promise<PagePreview | null> }>();
  const client = httpClientFor(options.convexUrl);

  const read = async (target: PreviewTarget, origin: string): Promise<PagePreview> =>
    withCardOf(await (options.read ? options.read(target) : readPreview(client(), target, origin)), buildId);

  return async function preview(pathname: string, origin: string): Promise<PagePreview | null> {
    if (SITE_PAGES.test(pathname)) return withCardOf(sitePreview(pathname), buildId);
    const target = previewTarget(pathname);
    if (!target) return null;
    const key = `${origin} ${target.kind} ${target.kind === "shop" ? target.idOrSlug : target.streamId}`;
    const cached = cache.get(key);
    if (cached && now() - cached.at < ttl) return await cached.preview;
    const fresh = read(target, origin).catch((error: unknown) => {
      console.warn(`Link preview for ${pathname} not read: ${String(error)}`);
      cache.delete(key);
      return null;
    });
    cache.delete(key);
    cache.set(key, { at: now(), preview: fresh });
    while (cache.size > maxEntries) cache.delete(cache.keys().next().value as string);
    return await fresh;
  };
}

// ---------------------------------------------------------------------------------------------------
// HTML

/** Marks what the server adds, so the app can take it out (src/lib/use-document-meta.ts). */
const MARK = "data-page-meta";

function renderTag(tag: HeadTag): string {
  if (tag.tag === "link") return `<link ${MARK} rel="canonical" href="${escapeHtml(tag.href)}" />`;
  return `<meta ${MARK} ${tag.attribute}="${escapeHtml(tag.key)}" content="${escapeHtml(tag.content)}" />`;
}

/**
 * index.html with a page's head: its title and description in place of the defaults, then the
 * preview tags and schema.org data before `</head>`.
 */
export function withPageHead(indexHtml: string, preview: PagePreview, origin: string): string {
  const { meta } = preview;
  if (!meta) return indexHtml;
  const tags = previewTags(meta, origin).map(renderTag);
  if (preview.jsonLd) {
    tags.push(`<script ${MARK} type="application/ld+json">${serializeJsonLd(preview.jsonLd)}</script>`);
  }
  // Replacements are functions: a string one would read `$&`, `$'` or `` $` `` in a seller's text as
  // "the match", "what follows" or "what precedes", and copy the page into its own head.
  return indexHtml
    .replace(
      /<title>[^<]*<\/title>/,
      () => `<title>${escapeHtml(meta.title === SITE_NAME ? SITE_NAME : documentTitle(meta.title))}</title>`,
    )
    .replace(
      /<meta\s+name="description"\s+content="[^"]*"\s*\/?>/,
      () => `<meta name="description" content="${escapeHtml(meta.description)}" />`,
    )
    .replace("</head>", () => `${tags.join("\n    ")}\n  </head>`);
}
