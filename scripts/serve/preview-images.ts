/**
 * The pictures link previews show (decision 068): `/og/{page}.png` is a 1200×630 PNG card of the page
 * (preview-cards.ts says what is on it), drawn with sharp (libvips; SVG through librsvg, text through
 * Pango). Served by `npm start` and by `npm run dev` (preview-images-vite.ts).
 *
 * Bounded: a picture is read only from this site's files or the backend's file storage (never from
 * a link a seller typed: the server would fetch whatever address it was given), at most 5 MB within
 * 5 s, decoded only up to 20 megapixels and within 5 s; two cards are drawn at a time and a few more
 * wait, beyond that 503. A picture that cannot be read or decoded leaves the card with the app's own
 * art. Cards are kept in memory (48 MB at most), keyed by their version.
 */
import { readFile, stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import sharp, { type OverlayOptions } from "sharp";
import type { PagePreview } from "./page-previews.ts";
import { escapeHtml } from "../../convex/lib/html.ts";
import { previewTarget } from "./page-previews.ts";
import { shortText } from "../../src/lib/page-meta.ts";
import {
  CARD_HEIGHT,
  CARD_WIDTH,
  cardPage,
  cardVersion,
  SITE_CARD,
  type PreviewCard,
} from "./preview-cards.ts";

/** Uploads are at most 5 MB (convex/lib/limits.ts); a larger file is nobody's picture. */
const MAX_PICTURE_BYTES = 5 * 1024 * 1024;
/** A 20-megapixel photo decodes to 80 MB; anything larger is refused before it is decoded. */
const MAX_PICTURE_PIXELS = 20_000_000;
const READ_TIMEOUT_MS = 5_000;
const DRAW_TIMEOUT_S = 5;
const RASTER_FORMATS = new Set(["jpeg", "png", "webp", "gif", "heif", "avif"]);
const STORAGE_PATH = /^\/api\/storage\//;
/** The local backend's own addresses name this machine (`localhost`, `127.0.0.1`) and the page's port. */
const LOOPBACK = /^(?:localhost|127\.0\.0\.1|\[::1\])$/;

/** Where the picture sits, and the panel under it with the words. */
const PICTURE_HEIGHT = 380;
const PAD = 48;
const TEXT_WIDTH = CARD_WIDTH - 2 * PAD;
const TITLE_MAX_HEIGHT = 128;
/** Tailwind's slate, green and red, as the app draws with them. */
const COLORS = { panel: "#0f172a", title: "#ffffff", line: "#cbd5e1", green: "#16a34a", red: "#dc2626" };
const FONT = "Inter, Liberation Sans, DejaVu Sans, sans";
const SVG_FONT = "Inter, 'Liberation Sans', 'DejaVu Sans', Arial, sans-serif";
/** The app's mark (public/favicon.svg), drawn at 32×32. */
const MARK =
  '<rect width="32" height="32" rx="8" fill="#16a34a"/><circle cx="16" cy="16" r="5" fill="#fff"/><path d="M8.5 8.5a10.6 10.6 0 0 0 0 15M23.5 8.5a10.6 10.6 0 0 1 0 15" fill="none" stroke="#fff" stroke-width="2.4" stroke-linecap="round"/>';

export type PreviewImageOptions = {
  /** Each page's preview, as its head has it (page-previews.ts): its card, or 404. */
  previews: (pathname: string, origin: string) => Promise<PagePreview | null>;
  /** Where the site's own files are: dist/ served, public/ in dev. */
  staticDir: string;
  /** The backend whose file storage holds uploaded pictures. */
  convexUrl: () => string;
  /** Other origins whose `/api/storage/` addresses are the backend's (the site's public one). */
  storageOrigins?: () => (string | undefined)[];
  /** Part of each card's version (preview-cards.ts). */
  buildId: string;
  /** Bytes of cards kept (default 48 MB). */
  maxCacheBytes?: number;
  /** Cards drawn at once (default 2), and waiting beyond those before 503 (default 8). */
  concurrency?: number;
  maxWaiting?: number;
};

export type PreviewImageHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  origin: string,
) => Promise<boolean>;

/** Answers `/og/{page}.png` (true), or leaves any other path alone (false). */
export function createPreviewImages(options: PreviewImageOptions): PreviewImageHandler {
  const cache = new Map<string, Buffer>();
  let cachedBytes = 0;
  const maxCacheBytes = options.maxCacheBytes ?? 48 * 1024 * 1024;
  const drawing = new Map<string, Promise<Buffer>>();
  const gate = limiter(options.concurrency ?? 2, options.maxWaiting ?? 8);

  function remember(key: string, png: Buffer) {
    cache.set(key, png);
    cachedBytes += png.length;
    for (const [oldest, old] of cache) {
      if (cachedBytes <= maxCacheBytes) break;
      cache.delete(oldest);
      cachedBytes -= old.length;
    }
  }

  /** The card's PNG: kept, being drawn for another request, or drawn now (null: too busy). */
  function pngOf(card: PreviewCard, version: string, origin: string): Promise<Buffer> | null {
    const kept = cache.get(version);
    if (kept) {
      // Most recently used last, so the oldest goes first.
      cache.delete(version);
      cache.set(version, kept);
      return Promise.resolve(kept);
    }
    const pending = drawing.get(version);
    if (pending) return pending;
    const drawn = gate(() => drawCard(card, (picture) => readPicture(picture, origin, options)));
    if (!drawn) return null;
    const stored = drawn.then((png) => {
      remember(version, png);
      return png;
    });
    drawing.set(version, stored);
    void stored.finally(() => drawing.delete(version)).catch(() => undefined);
    return stored;
  }

  return async function answerPreviewImage(req, res, pathname, origin) {
    const page = cardPage(pathname);
    if (page === null) return false;
    const reply = (status: number, cache: string, body?: Buffer, headers: Record<string, string> = {}) => {
      res.statusCode = status;
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      res.setHeader("Cache-Control", cache);
      if (body) {
        res.setHeader("Content-Type", "image/png");
        res.setHeader("Content-Length", body.length);
      } else {
        res.setHeader("Content-Type", "text/plain; charset=utf-8");
      }
      res.end(req.method === "HEAD" ? undefined : (body ?? (status >= 400 ? `${status}\n` : undefined)));
    };
    if (page !== "/" && !previewTarget(page)) {
      reply(404, "no-cache");
      return true;
    }
    let card: PreviewCard;
    let cacheControl: string;
    const preview =
      page === "/" ? { status: 200 as const, card: SITE_CARD } : await options.previews(page, origin);
    if (preview?.status === 404) {
      reply(404, "public, max-age=60");
      return true;
    }
    const version = preview?.card ? cardVersion(preview.card, options.buildId) : null;
    if (preview?.card && version) {
      card = preview.card;
      const asked = new URL(req.url ?? "/", "http://x").searchParams.get("v");
      // The address the page names is for this card alone: cached for good. Any other (an old
      // version, none) gets the card as it is now, for a short while.
      cacheControl = asked === version ? "public, max-age=31536000, immutable" : "public, max-age=300";
    } else {
      // The backend could not be read: the site's card, briefly, rather than an error in the chat.
      card = SITE_CARD;
      cacheControl = "public, max-age=60";
    }
    const cardKey = version ?? cardVersion(card, options.buildId);
    const etag = `"${cardKey}"`;
    if (req.headers["if-none-match"] === etag) {
      reply(304, cacheControl, undefined, { ETag: etag });
      return true;
    }
    const png = pngOf(card, cardKey, origin);
    if (!png) {
      reply(503, "no-store", undefined, { "Retry-After": "5" });
      return true;
    }
    try {
      reply(200, cacheControl, await png, { ETag: etag });
    } catch (error) {
      console.warn(`Preview card for ${page} not drawn: ${String(error)}`);
      reply(503, "no-store", undefined, { "Retry-After": "5" });
    }
    return true;
  };
}

/** Runs at most `active` tasks at once with at most `waiting` queued; null when full. */
function limiter(active: number, waiting: number) {
  let running = 0;
  const queue: (() => void)[] = [];
  return <T>(task: () => Promise<T>): Promise<T> | null => {
    if (running >= active && queue.length >= waiting) return null;
    return new Promise<void>((resolve) => {
      if (running < active) resolve();
      else queue.push(resolve);
    })
      .then(() => {
        running += 1;
        return task();
      })
      .finally(() => {
        running -= 1;
        queue.shift()?.();
      });
  };
}

// ---------------------------------------------------------------------------------------------------
// Reading the picture

type Picture = { bytes: Buffer; svg: boolean };

/**
 * A page's picture, from where it may be read: a file of the site (`/demo/…`, the art the app ships,
 * SVG included) or the backend's file storage (an upload: rasters only). Null for anything else or on
 * any failure.
 */
async function readPicture(
  picture: string,
  origin: string,
  options: PreviewImageOptions,
): Promise<Picture | null> {
  try {
    if (picture.startsWith("/") && !picture.startsWith("//")) {
      const file = path.join(options.staticDir, decodeURIComponent(new URL(picture, "http://x").pathname));
      if (!file.startsWith(path.resolve(options.staticDir) + path.sep)) return null;
      if ((await stat(file)).size > MAX_PICTURE_BYTES) return null;
      return { bytes: await readFile(file), svg: path.extname(file).toLowerCase() === ".svg" };
    }
    const url = new URL(picture);
    const backend = new URL(options.convexUrl());
    const storageOrigins = [backend.origin, origin, ...(options.storageOrigins?.() ?? [])];
    const ours = storageOrigins.includes(url.origin) || LOOPBACK.test(url.hostname);
    if (!STORAGE_PATH.test(url.pathname) || !ours) return null;
    // Asked of the backend itself, never of the address's host: an address saved under another
    // loopback name or port (decision 028) still reads, and no address makes this server call elsewhere.
    const response = await fetch(new URL(url.pathname + url.search, backend), {
      signal: AbortSignal.timeout(READ_TIMEOUT_MS),
    });
    if (!response.ok || !response.body) return null;
    if (Number(response.headers.get("content-length") ?? 0) > MAX_PICTURE_BYTES) {
      await response.body.cancel();
      return null;
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += chunk.length;
      if (size > MAX_PICTURE_BYTES) return null;
      chunks.push(chunk);
    }
    return { bytes: Buffer.concat(chunks), svg: false };
  } catch {
    return null;
  }
}

/** The picture cropped to fill the top of the card, or null when it cannot be decoded within bounds. */
async function pictureLayer(picture: Picture): Promise<Buffer | null> {
  try {
    const input = { limitInputPixels: MAX_PICTURE_PIXELS, failOn: "error" as const };
    const meta = await sharp(picture.bytes, input).metadata();
    if (!meta.format || (picture.svg ? meta.format !== "svg" : !RASTER_FORMATS.has(meta.format))) return null;
    // The SVG art is drawn at the card's width, not enlarged from its own (640 px).
    const density = picture.svg
      ? Math.min(300, Math.max(72, (72 * CARD_WIDTH) / (meta.width || CARD_WIDTH)))
      : undefined;
    return await sharp(picture.bytes, { ...input, density, animated: false })
      .autoOrient()
      .resize(CARD_WIDTH, PICTURE_HEIGHT, {
        fit: "cover",
        // The demo art carries its shop's name at the top; a photo is cropped around what stands out.
        position: picture.svg ? "top" : sharp.strategy.attention,
      })
      .flatten({ background: COLORS.panel })
      .timeout({ seconds: DRAW_TIMEOUT_S })
      .png()
      .toBuffer();
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------------
// Drawing the card

/** Text through Pango: wrapped at the card's width, markup escaped. */
function text(markup: string, font: string, height?: number) {
  return sharp({
    text: { text: markup, font, width: TEXT_WIDTH, height, rgba: true, wrap: "word-char", spacing: 6 },
  })
    .png()
    .toBuffer({ resolveWithObject: true });
}

/** The title at 52 px, or smaller until it fits two lines' height. */
async function titleLayer(title: string) {
  const markup = `<span foreground="${COLORS.title}">${escapeHtml(shortText(title, 120))}</span>`;
  const full = await text(markup, `${FONT} Bold 52`);
  return full.info.height <= TITLE_MAX_HEIGHT ? full : await text(markup, `${FONT} Bold`, TITLE_MAX_HEIGHT);
}

/** The lines under the title, one each (cut to fit one), as many whole ones as `room` holds. */
async function linesLayer(lines: string[], room: number): Promise<Buffer | null> {
  for (let count = lines.length; count > 0; count -= 1) {
    const markup = lines
      .slice(0, count)
      .map((line) => escapeHtml(shortText(line, 72)))
      .join("\n");
    const drawn = await text(`<span foreground="${COLORS.line}">${markup}</span>`, `${FONT} 30`);
    if (drawn.info.height <= room) return drawn.data;
  }
  return null;
}

/** Where there is no picture: the app's green to blue, and its mark and name. */
function artSvg(): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${PICTURE_HEIGHT}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#15803d"/><stop offset="1" stop-color="#1d4ed8"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/>
<g transform="translate(860 40) scale(10)" opacity=".14">${MARK}</g>
<g transform="translate(${PAD} 120) scale(3.5)">${MARK}</g>
<text x="${PAD + 136}" y="212" fill="#fff" font-family="${SVG_FONT}" font-size="96" font-weight="700">LiveLocal</text>
</svg>`;
}

/** Over a picture: the app's name in a pill, bottom left (clear of the demo art's own words), and "Live now" top right for a show on now. */
function badgesSvg(picture: boolean, live: boolean): string {
  const brand = picture
    ? `<rect x="32" y="${PICTURE_HEIGHT - 88}" width="200" height="60" rx="30" fill="#fff" fill-opacity=".95"/>
<g transform="translate(46 ${PICTURE_HEIGHT - 74})">${MARK}</g>
<text x="88" y="${PICTURE_HEIGHT - 48}" fill="#0f172a" font-family="${SVG_FONT}" font-size="26" font-weight="700">LiveLocal</text>`
    : "";
  const chip = live
    ? `<rect x="${CARD_WIDTH - 232}" y="28" width="200" height="60" rx="30" fill="${COLORS.red}"/>
<circle cx="${CARD_WIDTH - 200}" cy="58" r="9" fill="#fff"/>
<text x="${CARD_WIDTH - 180}" y="68" fill="#fff" font-family="${SVG_FONT}" font-size="26" font-weight="700">LIVE NOW</text>`
    : "";
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}">
${brand}${chip}
<rect y="${PICTURE_HEIGHT}" width="${CARD_WIDTH}" height="6" fill="${COLORS.green}"/>
</svg>`;
}

/** The card: picture (or the app's art) on top, the title and lines on the panel below. */
export async function drawCard(
  card: PreviewCard,
  read: (picture: string) => Promise<Picture | null>,
): Promise<Buffer> {
  const picture = card.picture ? await read(card.picture) : null;
  const photo = picture ? await pictureLayer(picture) : null;
  const title = await titleLayer(card.title);
  const linesTop = PICTURE_HEIGHT + 30 + title.info.height + 14;
  const lines = await linesLayer(card.lines, CARD_HEIGHT - 24 - linesTop);
  const layers: OverlayOptions[] = [
    { input: photo ?? Buffer.from(artSvg()), top: 0, left: 0 },
    { input: Buffer.from(badgesSvg(photo !== null, card.live)), top: 0, left: 0 },
    { input: title.data, top: PICTURE_HEIGHT + 30, left: PAD },
  ];
  if (lines) layers.push({ input: lines, top: linesTop, left: PAD });
  return await sharp({
    create: { width: CARD_WIDTH, height: CARD_HEIGHT, channels: 3, background: COLORS.panel },
  })
    .composite(layers)
    .timeout({ seconds: DRAW_TIMEOUT_S })
    .png({ compressionLevel: 8 })
    .toBuffer();
}
