/**
 * What the public shop and stream pages read: only public fields (never a tax id or an owner id; the
 * owner's name and picture only when they allow it), link rows turned into labels, and a shop's streams
 * grouped for its page. Every read is indexed and bounded.
 */
import { omit } from "convex-helpers";
import { v, type Infer } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import { CATEGORIES } from "../lib/data/categories";
import type { StreamStatus } from "../lib/constants";
import { shownEnd, shownStart, type StreamTimeFields } from "../lib/shownTimes";
import {
  liveShopFields,
  platformTypeValidator,
  schemaTypeValidator,
  shopStatusValidator,
  streamCardValidator,
  streamFields,
} from "../schema";
import { toStreamCard } from "./cards";
import { shopCategoryRows, shopMsaRows, streamCategoryRows, streamMsaRows } from "./links";
import { listStreamPlatforms } from "./streams";

/** The most streams of one group (live now, upcoming, past) a shop's page lists. */
export const SHOP_PAGE_STREAMS_PER_GROUP = 20;

export const categoryLabelValidator = v.object({
  categoryId: v.string(),
  label: v.string(),
  subcategoryId: v.optional(v.string()),
  subcategoryLabel: v.optional(v.string()),
});

export const areaValidator = v.object({ cbsaCode: v.string(), msaLabel: v.string() });

export const platformLinkValidator = v.object({
  platformType: platformTypeValidator,
  platformStreamUrl: v.optional(v.string()),
  platformActionUrl: v.optional(v.string()),
});

const shopStreamValidator = v.object({
  ...streamCardValidator.fields,
  platforms: v.array(platformLinkValidator),
});

/** The owner as their shop's page shows them: only with "Show my profile on my shops" on (decision 026). */
export const publicOwnerValidator = v.union(
  v.object({ name: v.string(), avatar: v.optional(v.string()) }),
  v.null(),
);

export const publicShopValidator = v.object({
  _id: v.id("liveShops"),
  // Everything the shop shows the public: not its owner's id, tax id, admin note or timestamps.
  ...omit(liveShopFields, [
    "userId",
    "taxId",
    "statusReason",
    "ownerRestricted",
    "ownerIsViewer",
    "createdAt",
    "updatedAt",
  ]),
  owner: publicOwnerValidator,
  categories: v.array(categoryLabelValidator),
  areas: v.array(areaValidator),
  streams: v.object({
    live: v.array(shopStreamValidator),
    upcoming: v.array(shopStreamValidator),
    past: v.array(shopStreamValidator),
  }),
});
export type PublicShop = Infer<typeof publicShopValidator>;

export const publicStreamValidator = v.object({
  _id: v.id("streams"),
  // What the stream shows the public: its shop comes as `shop` below; no admin note, no timestamps.
  ...omit(streamFields, [
    "liveShopId",
    "liveShopName",
    "liveShopSlug",
    "statusReason",
    "createdAt",
    "updatedAt",
  ]),
  shop: v.object({
    _id: v.id("liveShops"),
    liveShopName: v.string(),
    slug: v.string(),
    logoUrl: v.optional(v.string()),
    status: shopStatusValidator,
    /** The shop's schema.org type, the organizer of the stream page's Event. */
    schemaType: schemaTypeValidator,
  }),
  platforms: v.array(platformLinkValidator),
  categories: v.array(categoryLabelValidator),
  areas: v.array(areaValidator),
});
export type PublicStream = Infer<typeof publicStreamValidator>;

/** A shop by its slug, or by its id when the string is one; null for anything else. */
export async function findShopByIdOrSlug(ctx: QueryCtx, idOrSlug: string): Promise<Doc<"liveShops"> | null> {
  const bySlug = await ctx.db
    .query("liveShops")
    .withIndex("by_slug", (q) => q.eq("slug", idOrSlug))
    .unique();
  if (bySlug) return bySlug;
  const id = ctx.db.normalizeId("liveShops", idOrSlug);
  return id ? await ctx.db.get("liveShops", id) : null;
}

/** Labels from the bundled category tree (the same data the seed loads), so no reads. */
export function labelCategories(
  rows: readonly { categoryId: string; subcategoryId?: string; priority: number }[],
): Infer<typeof categoryLabelValidator>[] {
  return [...rows]
    .sort((a, b) => a.priority - b.priority)
    .flatMap(({ categoryId, subcategoryId }) => {
      const category = CATEGORIES.find((c) => c.id === categoryId);
      if (!category) return [];
      const sub = subcategoryId ? category.subcategories.find((s) => s.id === subcategoryId) : undefined;
      return [{ categoryId, label: category.label, subcategoryId: sub?.id, subcategoryLabel: sub?.label }];
    });
}

export async function labelAreas(
  ctx: QueryCtx,
  rows: readonly { msaId: Id<"msas"> }[],
): Promise<Infer<typeof areaValidator>[]> {
  const msas = await Promise.all(rows.map((row) => ctx.db.get("msas", row.msaId)));
  return msas
    .flatMap((msa) => (msa ? [{ cbsaCode: msa.cbsaCode, msaLabel: msa.msaLabel }] : []))
    .sort((a, b) => a.msaLabel.localeCompare(b.msaLabel));
}

async function readShopStreams(
  ctx: QueryCtx,
  liveShopId: Id<"liveShops">,
  statuses: readonly StreamStatus[],
): Promise<Infer<typeof shopStreamValidator>[]> {
  const streams: Doc<"streams">[] = [];
  for (const streamStatus of statuses) {
    const links = await ctx.db
      .query("liveShopStreams")
      .withIndex("by_liveShopId_and_streamStatus", (q) =>
        q.eq("liveShopId", liveShopId).eq("streamStatus", streamStatus),
      )
      .order("desc")
      .take(SHOP_PAGE_STREAMS_PER_GROUP);
    for (const link of links) {
      const stream = await ctx.db.get("streams", link.streamId);
      if (stream) streams.push(stream);
    }
  }
  return await Promise.all(
    streams.map(async (stream) => ({
      ...toStreamCard(stream),
      platforms: await listStreamPlatforms(ctx, stream._id),
    })),
  );
}

const byStart = (a: StreamTimeFields, b: StreamTimeFields) => shownStart(a) - shownStart(b);

/** Live now (live, then paused), upcoming (soonest first) and past (most recent first), each bounded. */
export async function listShopPageStreams(ctx: QueryCtx, liveShopId: Id<"liveShops">) {
  const live = await readShopStreams(ctx, liveShopId, ["LIVE", "PAUSED"]);
  const upcoming = (await readShopStreams(ctx, liveShopId, ["SCHEDULED"])).sort(byStart);
  const past = (await readShopStreams(ctx, liveShopId, ["ENDED"])).sort((a, b) => shownEnd(b) - shownEnd(a));
  return {
    live: live.slice(0, SHOP_PAGE_STREAMS_PER_GROUP),
    upcoming,
    past,
  };
}

export function toPublicShopFields(shop: Doc<"liveShops">) {
  return {
    _id: shop._id,
    liveShopName: shop.liveShopName,
    slug: shop.slug,
    status: shop.status,
    headline: shop.headline,
    description: shop.description,
    faqSection: shop.faqSection,
    timezone: shop.timezone,
    languages: shop.languages,
    productsSummary: shop.productsSummary,
    products: shop.products,
    bannerImageUrl: shop.bannerImageUrl,
    logoUrl: shop.logoUrl,
    coverImageUrl: shop.coverImageUrl,
    themeColor: shop.themeColor,
    accentThemeColor: shop.accentThemeColor,
    shopTrailerUrl: shop.shopTrailerUrl,
    schemaType: shop.schemaType,
  };
}

/**
 * The owner's name and picture for their shop's page, when they allow it (privacy preference
 * `showProfile`) and have a name; never their email. Null otherwise.
 */
export async function readPublicOwner(
  ctx: QueryCtx,
  shop: Doc<"liveShops">,
): Promise<Infer<typeof publicOwnerValidator>> {
  const owner = await ctx.db.get("users", shop.userId);
  if (!owner?.privacyPreferences.showProfile || owner.name === undefined) return null;
  return { name: owner.name, avatar: owner.avatar };
}

export async function readShopLinks(ctx: QueryCtx, liveShopId: Id<"liveShops">) {
  return {
    categories: labelCategories(await shopCategoryRows(ctx, liveShopId)),
    areas: await labelAreas(ctx, await shopMsaRows(ctx, liveShopId)),
  };
}

export async function readStreamLinks(ctx: QueryCtx, streamId: Id<"streams">) {
  return {
    categories: labelCategories(await streamCategoryRows(ctx, streamId)),
    areas: await labelAreas(ctx, await streamMsaRows(ctx, streamId)),
    platforms: await listStreamPlatforms(ctx, streamId),
  };
}
