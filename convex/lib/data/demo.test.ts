import { describe, expect, it } from "vitest";
import { LANGUAGES, SCHEMA_TYPES, STREAM_STATUSES, TIME_ZONES, type PlatformType } from "../constants";
import { CATEGORIES } from "./categories";
import {
  DEMO_SHOPS,
  DEMO_STREAM_LINKS,
  DEMO_USERS,
  buildSampleStreams,
  type DemoCategoryLink,
  type SampleStream,
} from "./demo";
import { MSAS } from "./msas";
import { liveShopSchema, platformLinkSchema, streamSchema } from "../validation";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** A fixed instant, one arbitrary minute, and "now": the demo must hold at any of them. */
const NOWS = [Date.UTC(2026, 0, 15, 18, 7, 31, 250), Date.UTC(2025, 6, 4, 0, 0), Date.now()];

const SAMPLE_KEYS = [
  "description",
  "id",
  "image_urls",
  "loc_tag_country",
  "loc_tag_hub",
  "loc_tag_region",
  "loc_tag_specific",
  "products",
  "start_utc",
  "status",
  "stop_utc",
  "timezone",
  "title",
  "trailer_url",
  "video_url",
];
const PRODUCT_KEYS = ["description", "id", "image", "name", "price"];
const MONEY = /^\d+\.\d{2}$/;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const HEX_COLOR = /^#[0-9a-f]{6}$/;

function linksOf(stream: SampleStream) {
  const links = DEMO_STREAM_LINKS[stream.id];
  if (!links) throw new Error(`no links for ${stream.id}`);
  return links;
}

/** The shared rule forms and the server apply, so the demo cannot hold a link they would refuse. */
function hostAllowed(url: string, platformType: PlatformType): boolean {
  return platformLinkSchema.safeParse({ platformType, platformStreamUrl: url }).success;
}

function checkCategoryLinks(links: DemoCategoryLink[], where: string) {
  for (const link of links) {
    const category = CATEGORIES.find((candidate) => candidate.id === link.categoryId);
    expect(category, `${where}: category ${link.categoryId}`).toBeDefined();
    if (link.subcategoryId) {
      expect(
        category?.subcategories.some((sub) => sub.id === link.subcategoryId),
        `${where}: subcategory ${link.subcategoryId} of ${link.categoryId}`,
      ).toBe(true);
    }
    expect(Number.isInteger(link.priority) && link.priority >= 0).toBe(true);
  }
}

describe("sample streams", () => {
  const streams = buildSampleStreams(NOWS[0] ?? 0);

  it("has exactly 20 streams with unique ids, in the sample shape", () => {
    expect(streams).toHaveLength(20);
    expect(new Set(streams.map((stream) => stream.id)).size).toBe(20);
    for (const stream of streams) {
      expect(Object.keys(stream).sort()).toEqual(SAMPLE_KEYS);
      expect(stream.id).toMatch(SLUG);
      expect(stream.title.length).toBeGreaterThan(0);
      expect(stream.title.length).toBeLessThanOrEqual(200);
      expect(stream.description.length).toBeGreaterThan(0);
      expect(stream.description.length).toBeLessThanOrEqual(2000);
      expect(stream.image_urls).toEqual([`/demo/streams/${stream.id}.svg`]);
      expect(new Date(stream.start_utc).toISOString()).toBe(stream.start_utc);
      expect(new Date(stream.stop_utc).toISOString()).toBe(stream.stop_utc);
      expect(Date.parse(stream.stop_utc)).toBeGreaterThan(Date.parse(stream.start_utc));
      expect(TIME_ZONES).toContain(stream.timezone);
      expect(STREAM_STATUSES).toContain(stream.status);
      expect(stream.loc_tag_specific.length).toBeGreaterThan(0);
      expect(stream.loc_tag_country).toBe("US");
      for (const product of stream.products) {
        expect(Object.keys(product).sort()).toEqual(PRODUCT_KEYS);
        expect(product.price).toMatch(MONEY);
        expect(product.image).toBe(`/demo/products/${product.id}.svg`);
        expect(product.name.length).toBeGreaterThan(0);
      }
    }
  });

  it("is deterministic for a given now", () => {
    expect(buildSampleStreams(NOWS[0] ?? 0)).toEqual(streams);
  });

  it("spans at least 8 shops, 6 metro areas in different states and 8 categories", () => {
    const shops = new Set(streams.map((stream) => linksOf(stream).shopSlug));
    const hubs = new Set(streams.map((stream) => stream.loc_tag_hub));
    const regions = new Set(streams.map((stream) => stream.loc_tag_region));
    const categories = new Set(
      streams.flatMap((stream) => linksOf(stream).categories.map((link) => link.categoryId)),
    );
    expect(shops.size).toBeGreaterThanOrEqual(8);
    expect(hubs.size).toBeGreaterThanOrEqual(6);
    expect(regions.size).toBeGreaterThanOrEqual(6);
    expect(categories.size).toBeGreaterThanOrEqual(8);
  });

  it.each(NOWS)("has the intended status mix at now = %i", (now) => {
    const sample = buildSampleStreams(now);
    const withStatus = (status: SampleStream["status"]) =>
      sample.filter((stream) => stream.status === status);
    const start = (stream: SampleStream) => Date.parse(stream.start_utc);
    const stop = (stream: SampleStream) => Date.parse(stream.stop_utc);

    const live = withStatus("LIVE");
    expect(live.length).toBeGreaterThanOrEqual(3);
    expect(live.length).toBeLessThanOrEqual(5);
    for (const stream of [...live, ...withStatus("PAUSED")]) {
      expect(now - start(stream)).toBeGreaterThanOrEqual(5 * MINUTE);
      expect(now - start(stream)).toBeLessThanOrEqual(51 * MINUTE);
      expect(stop(stream) - now).toBeGreaterThanOrEqual(1 * HOUR);
      expect(stop(stream) - now).toBeLessThanOrEqual(2 * HOUR);
    }
    expect(withStatus("PAUSED")).toHaveLength(1);

    const scheduled = withStatus("SCHEDULED");
    const soon = scheduled.filter((stream) => start(stream) - now <= 8 * HOUR);
    const later = scheduled.filter((stream) => start(stream) - now > 8 * HOUR);
    expect(scheduled.every((stream) => start(stream) > now)).toBe(true);
    expect(soon.length).toBeGreaterThanOrEqual(6);
    expect(soon.length).toBeLessThanOrEqual(7);
    expect(soon.every((stream) => start(stream) - now >= 1 * HOUR)).toBe(true);
    expect(later.length).toBeGreaterThanOrEqual(2);
    expect(later.length).toBeLessThanOrEqual(3);
    expect(later.every((stream) => start(stream) - now >= 1 * DAY)).toBe(true);

    const ended = withStatus("ENDED");
    expect(ended.length).toBeGreaterThanOrEqual(3);
    expect(ended.length).toBeLessThanOrEqual(4);
    for (const stream of ended) {
      expect(stop(stream)).toBeLessThan(now - 12 * HOUR);
      expect(linksOf(stream).replayVideoUrl).toBeDefined();
    }
    expect(withStatus("CANCELLED")).toHaveLength(1);
    expect(withStatus("CREATED").length).toBeGreaterThanOrEqual(1);
    expect(withStatus("CREATED").length).toBeLessThanOrEqual(2);
    for (const stream of withStatus("CREATED")) expect(stream.video_url).toBeNull();
  });

  it("links every stream to an active shop, known metro areas and known categories", () => {
    expect(Object.keys(DEMO_STREAM_LINKS).sort()).toEqual(streams.map((stream) => stream.id).sort());
    for (const stream of streams) {
      const links = linksOf(stream);
      const shop = DEMO_SHOPS.find((candidate) => candidate.slug === links.shopSlug);
      expect(shop?.status, stream.id).toBe("active");
      expect(stream.timezone).toBe(shop?.timezone);
      for (const product of stream.products) {
        expect(shop?.products.some((candidate) => candidate.id === product.id)).toBe(true);
      }
      expect(links.cbsaCodes.length).toBeGreaterThan(0);
      for (const code of links.cbsaCodes)
        expect(
          MSAS.some((msa) => msa.cbsaCode === code),
          code,
        ).toBe(true);
      const hub = MSAS.find((msa) => msa.cbsaCode === links.cbsaCodes[0]);
      expect(stream.loc_tag_hub).toBe(hub?.name);
      expect(stream.loc_tag_region).toBe(hub?.states[0]);
      checkCategoryLinks(links.categories, stream.id);
    }
  });

  it("has a stream with no category", () => {
    expect(streams.some((stream) => linksOf(stream).categories.length === 0)).toBe(true);
  });

  it("uses platform URLs on each platform's hosts", () => {
    for (const stream of streams) {
      const links = linksOf(stream);
      expect(links.platforms.length).toBeGreaterThan(0);
      const types = links.platforms.map((platform) => platform.platformType);
      expect(new Set(types).size, stream.id).toBe(types.length);
      for (const platform of links.platforms) {
        expect(
          hostAllowed(platform.platformStreamUrl, platform.platformType),
          platform.platformStreamUrl,
        ).toBe(true);
        if (platform.platformActionUrl) {
          expect(hostAllowed(platform.platformActionUrl, platform.platformType)).toBe(true);
        }
      }
      // Video, trailer and replay links point at one of the stream's own platforms.
      for (const url of [stream.video_url, stream.trailer_url, links.replayVideoUrl]) {
        if (url === null || url === undefined) continue;
        expect(
          types.some((type) => hostAllowed(url, type)),
          `${stream.id}: ${url}`,
        ).toBe(true);
      }
    }
  });
});

describe("demo shops", () => {
  it("has active shops, one in maintenance and one awaiting verification with no streams", () => {
    const streamShops = new Set(Object.values(DEMO_STREAM_LINKS).map((links) => links.shopSlug));
    expect(DEMO_SHOPS.filter((shop) => shop.status === "active").length).toBeGreaterThanOrEqual(8);
    expect(DEMO_SHOPS.filter((shop) => shop.status === "maintenance")).toHaveLength(1);
    const pending = DEMO_SHOPS.filter((shop) => shop.status === "pending_verification");
    expect(pending).toHaveLength(1);
    expect(streamShops.has(pending[0]?.slug ?? "")).toBe(false);
  });

  it("respects the field limits and formats", () => {
    expect(new Set(DEMO_SHOPS.map((shop) => shop.slug)).size).toBe(DEMO_SHOPS.length);
    for (const shop of DEMO_SHOPS) {
      expect(shop.slug).toMatch(SLUG);
      expect(shop.slug.length).toBeLessThanOrEqual(100);
      expect(shop.liveShopName.length).toBeLessThanOrEqual(100);
      expect(shop.headline.length).toBeLessThanOrEqual(200);
      expect(shop.description.length).toBeLessThanOrEqual(5000);
      expect(shop.productsSummary.length).toBeLessThanOrEqual(1000);
      expect(shop.taxId?.length ?? 0).toBeLessThanOrEqual(50);
      expect(shop.themeColor).toMatch(HEX_COLOR);
      expect(shop.accentThemeColor).toMatch(HEX_COLOR);
      expect(TIME_ZONES).toContain(shop.timezone);
      expect(SCHEMA_TYPES).toContain(shop.schemaType);
      expect(shop.languages.length).toBeGreaterThan(0);
      for (const language of shop.languages) expect(LANGUAGES).toContain(language);
      expect(shop.bannerImageUrl).toBe(`/demo/shops/${shop.slug}-banner.svg`);
      expect(shop.logoUrl).toBe(`/demo/shops/${shop.slug}-logo.svg`);
      expect(shop.coverImageUrl).toBe(`/demo/shops/${shop.slug}-cover.svg`);
      if (shop.shopTrailerUrl) expect(shop.shopTrailerUrl).toMatch(/^https:\/\//);
      expect(shop.categories.length).toBeGreaterThan(0);
      checkCategoryLinks(shop.categories, shop.slug);
      expect(shop.cbsaCodes.length).toBeGreaterThan(0);
      for (const code of shop.cbsaCodes)
        expect(
          MSAS.some((msa) => msa.cbsaCode === code),
          code,
        ).toBe(true);
      for (const product of shop.products) {
        expect(product.price).toMatch(MONEY);
        expect(product.imageUrl).toBe(`/demo/products/${product.id}.svg`);
      }
    }
    const productIds = DEMO_SHOPS.flatMap((shop) => shop.products.map((product) => product.id));
    expect(new Set(productIds).size).toBe(productIds.length);
    for (const id of productIds) expect(id).toMatch(SLUG);
  });
});

describe("demo users", () => {
  it("has one admin, at least six sellers owning one or two shops each, and a viewer", () => {
    expect(new Set(DEMO_USERS.map((user) => user.key)).size).toBe(DEMO_USERS.length);
    expect(new Set(DEMO_USERS.map((user) => user.clerkId)).size).toBe(DEMO_USERS.length);
    expect(new Set(DEMO_USERS.map((user) => user.email)).size).toBe(DEMO_USERS.length);
    for (const user of DEMO_USERS) {
      expect(user.email).toMatch(/^[a-z0-9._-]+@livelocal\.test$/);
      expect(user.clerkId).toMatch(/^demo_[a-z0-9_]+$/);
    }
    expect(DEMO_USERS.filter((user) => user.role === "admin")).toHaveLength(1);
    expect(DEMO_USERS.some((user) => user.role === "viewer")).toBe(true);
    const sellers = DEMO_USERS.filter((user) => user.role === "seller");
    expect(sellers.length).toBeGreaterThanOrEqual(6);
    for (const seller of sellers) {
      const owned = DEMO_SHOPS.filter((shop) => shop.ownerKey === seller.key).length;
      expect(owned, seller.key).toBeGreaterThanOrEqual(1);
      expect(owned, seller.key).toBeLessThanOrEqual(2);
    }
    for (const shop of DEMO_SHOPS) {
      expect(
        sellers.some((seller) => seller.key === shop.ownerKey),
        shop.slug,
      ).toBe(true);
    }
  });
});

describe("demo data obeys the shared validation rules", () => {
  it.each(DEMO_SHOPS.map((shop) => [shop.slug, shop] as const))(
    "shop %s passes liveShopSchema",
    (_, shop) => {
      const {
        ownerKey: _owner,
        status: _status,
        categories: _categories,
        cbsaCodes: _codes,
        ...fields
      } = shop;
      expect(liveShopSchema.safeParse(fields).error?.issues ?? []).toEqual([]);
    },
  );

  it.each(buildSampleStreams(NOWS[0] ?? 0).map((stream) => [stream.id, stream] as const))(
    "stream %s passes streamSchema",
    (_, stream) => {
      const result = streamSchema.safeParse({
        streamTitle: stream.title,
        streamDescription: stream.description,
        streamImageUrls: stream.image_urls,
        streamVideoUrl: stream.video_url ?? undefined,
        streamTrailerUrl: stream.trailer_url ?? undefined,
        replayVideoUrl: linksOf(stream).replayVideoUrl,
        streamStartUTC: Date.parse(stream.start_utc),
        streamStopUTC: Date.parse(stream.stop_utc),
        timezone: stream.timezone,
        products: stream.products.map(({ image, ...product }) => ({ ...product, imageUrl: image })),
      });
      expect(result.error?.issues ?? []).toEqual([]);
    },
  );
});
