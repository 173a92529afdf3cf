/**
 * Issue 41, previews: a shared link previews with a 1200×630 PNG (X, Facebook, LinkedIn and chat apps
 * show no SVG), drawn by `npm start` from the page and its picture, cached at an address that changes
 * with what it shows; a bad address is a 404 and a bad picture is the app's own art (decision 068).
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { crc32 } from "node:zlib";
import { ConvexHttpClient } from "convex/browser";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "../../convex/_generated/api";
import type { Id } from "../../convex/_generated/dataModel";
import { startAppServer, type StartedAppServer } from "./server.ts";
import { writeTestDist } from "./test-dist.ts";

const root = path.resolve(import.meta.dirname, "../..");
const INDEX = readFileSync(path.join(root, "index.html"), "utf8");
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The page's og:image and its declared size and type. */
async function previewImageOf(url: string) {
  const html = await (await fetch(url)).text();
  const tag = (key: string) =>
    new RegExp(`<meta data-page-meta (?:property|name)="${key}" content="([^"]*)"`).exec(html)?.[1];
  return {
    image: tag("og:image")?.replace(/&amp;/g, "&") ?? "",
    width: tag("og:image:width"),
    height: tag("og:image:height"),
    type: tag("og:image:type"),
    card: tag("twitter:card"),
    twitterImage: tag("twitter:image")?.replace(/&amp;/g, "&"),
  };
}

/** Fetches a card and checks it is a 1200×630 PNG; answers its bytes and headers. */
async function fetchCard(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  expect(response.status, url).toBe(200);
  expect(response.headers.get("content-type")).toBe("image/png");
  const bytes = Buffer.from(await response.arrayBuffer());
  expect(bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
  const meta = await sharp(bytes).metadata();
  expect([meta.format, meta.width, meta.height]).toEqual(["png", 1200, 630]);
  return { bytes, headers: response.headers };
}

/** One pixel's RGB. */
async function pixel(png: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at], data[at + 1], data[at + 2]];
}

/** A PNG whose header claims 30,000 × 30,000 pixels (900 megapixels) over a few bytes. */
function hugePng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(30_000, 0);
  header.writeUInt32BE(30_000, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk("IHDR", header),
    chunk("IDAT", Buffer.alloc(16)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

describe("npm start's preview pictures", () => {
  let app: StartedAppServer;
  let dist: string;
  let anonymous: ConvexHttpClient;

  beforeAll(async () => {
    dist = writeTestDist(INDEX, "livelocal-preview-images-");
    // The demo art, as the build copies public/ into dist/; and two pictures no one can draw.
    cpSync(path.join(root, "public", "demo"), path.join(dist, "demo"), { recursive: true });
    mkdirSync(path.join(dist, "bad"));
    writeFileSync(
      path.join(dist, "bad", "broken.png"),
      Buffer.concat([PNG_SIGNATURE, Buffer.from("not a picture")]),
    );
    writeFileSync(path.join(dist, "bad", "huge.png"), hugePng());
    // A real picture, small as a file (one colour), too many pixels to decode: 24 megapixels.
    await sharp({ create: { width: 6000, height: 4000, channels: 3, background: "#dc2626" } })
      .png()
      .toFile(path.join(dist, "bad", "24-megapixels.png"));
    app = await startAppServer({
      distDir: dist,
      port: 0,
      sitePort: 0,
      dataDir: null,
      quiet: true,
      demoData: true,
      serverEntry: null,
      // Pages are read again on every request: a test changes a shop and a show.
      previewTtlMs: 0,
    });
    anonymous = new ConvexHttpClient(app.url);
  });
  afterAll(async () => {
    await app?.stop();
    rmSync(dist, { recursive: true, force: true });
  });

  /** A client signed in as a demo seller, and the token it holds. */
  async function signInAs(sub: string) {
    const answer = await fetch(`${app.url}/local-auth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ sub }),
    });
    const { token } = (await answer.json()) as { token: string };
    const client = new ConvexHttpClient(app.url);
    client.setAuth(token);
    return { client, token };
  }

  test("a demo show's page names a 1200×630 PNG, which is cached for good at that address", async () => {
    const shop = await anonymous.query(api.liveShops.getPublicShop, { idOrSlug: "east-austin-denim-co" });
    const live = shop!.streams.live[0];
    const preview = await previewImageOf(`${app.url}/stream/${live._id}`);
    expect(preview.image).toMatch(new RegExp(`^${app.url}/og/stream/${live._id}\\.png\\?v=[\\w-]+$`));
    expect(preview).toMatchObject({
      width: "1200",
      height: "630",
      type: "image/png",
      card: "summary_large_image",
      twitterImage: preview.image,
    });

    const { headers } = await fetchCard(preview.image);
    expect(headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const etag = headers.get("etag");
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(preview.image, { headers: { "If-None-Match": etag! } });
    expect(again.status).toBe(304);
    // Without its version (or with an old one) the address gets today's card, for a short while.
    const { headers: unversioned } = await fetchCard(`${app.url}/og/stream/${live._id}.png`);
    expect(unversioned.get("cache-control")).toBe("public, max-age=300");
  });

  test("home and the explore lists name the site's card", async () => {
    const home = await previewImageOf(`${app.url}/`);
    expect(home.image).toMatch(new RegExp(`^${app.url}/og/home\\.png\\?v=[\\w-]+$`));
    expect((await previewImageOf(`${app.url}/explore/streams`)).image).toBe(home.image);
    expect((await previewImageOf(`${app.url}/explore/live-shops`)).image).toBe(home.image);
    await fetchCard(home.image);
  });

  test.each([
    "/og/stream/bogus.png",
    "/og/stream/k1234567890abcdefghijklmnopqrstu.png",
    "/og/live-shop/nope-shop.png",
    "/og/live-shop/a/b.png",
    "/og/dashboard.png",
    "/og/home.jpg",
  ])("%s is not found", async (pathname) => {
    const response = await fetch(`${app.url}${pathname}`);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).not.toBe("image/png");
  });

  test("a shop's uploaded banner is drawn on its card, and a new banner gives a new address", async () => {
    const { client, token } = await signInAs("demo_seller_jonah");
    const publicShop = (await anonymous.query(api.liveShops.getPublicShop, {
      idOrSlug: "crumb-and-crust-bakehouse",
    }))!;
    const before = await previewImageOf(`${app.url}/live-shop/crumb-and-crust-bakehouse`);

    // A photo-sized JPEG of one colour, uploaded as the shop's banner, as the dashboard does.
    const photo = await sharp({ create: { width: 2400, height: 1600, channels: 3, background: "#0e7490" } })
      .jpeg()
      .toBuffer();
    const upload = await fetch(`${app.siteUrl}/images/upload`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "image/jpeg" },
      body: photo,
    });
    expect(upload.status).toBe(200);
    const { storageId } = (await upload.json()) as { storageId: Id<"_storage"> };
    const claimed = await client.mutation(api.images.claimUpload, {
      storageId,
      target: { kind: "shop", liveShopId: publicShop._id },
    });
    if (!claimed.ok) throw new Error(claimed.message);
    const shop = (await client.query(api.liveShops.getMyShop, { liveShopId: publicShop._id }))!;
    await client.mutation(api.liveShops.updateLiveShop, {
      liveShopId: shop._id,
      shop: {
        liveShopName: shop.liveShopName,
        slug: shop.slug,
        taxId: shop.taxId,
        headline: shop.headline,
        description: shop.description,
        faqSection: shop.faqSection ?? [],
        timezone: shop.timezone,
        languages: shop.languages ?? [],
        productsSummary: shop.productsSummary,
        products: shop.products ?? [],
        bannerImageUrl: claimed.url,
        logoUrl: shop.logoUrl,
        themeColor: shop.themeColor,
        accentThemeColor: shop.accentThemeColor,
        coverImageUrl: shop.coverImageUrl,
        shopTrailerUrl: shop.shopTrailerUrl,
        schemaType: shop.schemaType,
      },
    });

    const after = await previewImageOf(`${app.url}/live-shop/crumb-and-crust-bakehouse`);
    expect(after.image).not.toBe(before.image);
    expect(after.image.split("?")[0]).toBe(before.image.split("?")[0]);
    const { bytes } = await fetchCard(after.image);
    // The top of the card is the uploaded picture (JPEG's rounding aside).
    for (const [channel, value] of (await pixel(bytes, 700, 150)).entries()) {
      expect(Math.abs(value - [0x0e, 0x74, 0x90][channel]), `channel ${channel}`).toBeLessThanOrEqual(4);
    }
  });

  test.each([
    "/bad/broken.png",
    "/bad/huge.png",
    "/bad/24-megapixels.png",
    "https://elsewhere.example/banner.png",
  ])("a show whose picture is %s gets a card with the app's art, and the server goes on", async (picture) => {
    const { client } = await signInAs("demo_seller_devon");
    const publicShop = (await anonymous.query(api.liveShops.getPublicShop, {
      idOrSlug: "windy-city-card-breaks",
    }))!;
    const streamId = [...publicShop.streams.live, ...publicShop.streams.upcoming][0]._id;
    const stream = (await client.query(api.streams.getMyStream, { streamId }))!;
    await client.mutation(api.streams.updateStream, {
      streamId,
      stream: {
        streamTitle: stream.streamTitle,
        streamDescription: stream.streamDescription,
        streamImageUrls: [picture],
        streamVideoUrl: stream.streamVideoUrl,
        replayVideoUrl: stream.replayVideoUrl,
        streamTrailerUrl: stream.streamTrailerUrl,
        streamStartUTC: stream.streamStartUTC,
        streamStopUTC: stream.streamStopUTC,
        timezone: stream.timezone,
        products: stream.products ?? [],
      },
    });
    const { bytes } = await fetchCard((await previewImageOf(`${app.url}/stream/${streamId}`)).image);
    const { bytes: home } = await fetchCard((await previewImageOf(`${app.url}/`)).image);
    // The picture's place holds the app's own art, as on the site's card.
    expect(await pixel(bytes, 760, 330)).toEqual(await pixel(home, 760, 330));
    expect((await fetch(`${app.url}/og/home.png`)).status).toBe(200);
  });
});
