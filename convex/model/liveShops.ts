import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { DEFAULT_SCHEMA_TYPE, DEFAULT_SHOP_STATUS, DEFAULT_TIME_ZONE } from "../lib/constants";
import { assertValidCategoryLink, type CategoryLink } from "./categories";
import { appError } from "./errors";
import { insertWithTimestamps, patchWithTimestamps, type DocPatch, type NewDoc } from "./timestamps";

type ShopDefaults = "status" | "schemaType" | "timezone" | "faqSection" | "languages" | "products";
export type NewLiveShop = Omit<NewDoc<"liveShops">, ShopDefaults> &
  Partial<Pick<NewDoc<"liveShops">, ShopDefaults>>;

export async function getLiveShopBySlug(ctx: QueryCtx, slug: string): Promise<Doc<"liveShops"> | null> {
  return await ctx.db
    .query("liveShops")
    .withIndex("by_slug", (q) => q.eq("slug", slug))
    .unique();
}

export async function getLiveShopOrThrow(
  ctx: QueryCtx,
  liveShopId: Id<"liveShops">,
): Promise<Doc<"liveShops">> {
  const shop = await ctx.db.get("liveShops", liveShopId);
  if (!shop) throw appError("NOT_FOUND", "This live shop does not exist.");
  return shop;
}

async function assertSlugAvailable(ctx: MutationCtx, slug: string, self?: Id<"liveShops">): Promise<void> {
  const existing = await getLiveShopBySlug(ctx, slug);
  if (existing && existing._id !== self) {
    throw appError("CONFLICT", `The address "${slug}" is taken by another shop. Choose another.`);
  }
}

/** Creates a shop as a draft, an Organization, in New York time unless told otherwise. */
export async function insertLiveShop(
  ctx: MutationCtx,
  shop: NewLiveShop,
  now = Date.now(),
): Promise<Id<"liveShops">> {
  await assertSlugAvailable(ctx, shop.slug);
  return await insertWithTimestamps(
    ctx,
    "liveShops",
    {
      ...shop,
      status: shop.status ?? DEFAULT_SHOP_STATUS,
      schemaType: shop.schemaType ?? DEFAULT_SCHEMA_TYPE,
      timezone: shop.timezone ?? DEFAULT_TIME_ZONE,
      faqSection: shop.faqSection ?? [],
      languages: shop.languages ?? [],
      products: shop.products ?? [],
    },
    now,
  );
}

/**
 * Changes a shop. A new name or slug is copied onto its streams, which carry both for listing
 * without a join.
 */
export async function patchLiveShop(
  ctx: MutationCtx,
  liveShopId: Id<"liveShops">,
  patch: DocPatch<"liveShops">,
  now = Date.now(),
): Promise<void> {
  const shop = await getLiveShopOrThrow(ctx, liveShopId);
  if (patch.slug !== undefined && patch.slug !== shop.slug)
    await assertSlugAvailable(ctx, patch.slug, liveShopId);
  await patchWithTimestamps(ctx, "liveShops", liveShopId, patch, now);

  const renamed = patch.liveShopName !== undefined && patch.liveShopName !== shop.liveShopName;
  const reslugged = patch.slug !== undefined && patch.slug !== shop.slug;
  if (!renamed && !reslugged) return;
  const streams = await ctx.db
    .query("streams")
    .withIndex("by_liveShopId", (q) => q.eq("liveShopId", liveShopId))
    .collect();
  for (const stream of streams) {
    await patchWithTimestamps(
      ctx,
      "streams",
      stream._id,
      { liveShopName: patch.liveShopName ?? shop.liveShopName, liveShopSlug: patch.slug ?? shop.slug },
      now,
    );
  }
}

/** Links a shop to a category (and optionally a subcategory); one row per pair. */
export async function linkShopCategory(
  ctx: MutationCtx,
  liveShopId: Id<"liveShops">,
  link: CategoryLink,
  now = Date.now(),
): Promise<Id<"liveShopCategories">> {
  await assertValidCategoryLink(ctx, link);
  const existing = await ctx.db
    .query("liveShopCategories")
    .withIndex("by_liveShopId_and_categoryId", (q) =>
      q.eq("liveShopId", liveShopId).eq("categoryId", link.categoryId),
    )
    .collect();
  if (existing.some((row) => row.subcategoryId === link.subcategoryId)) {
    throw appError("CONFLICT", "This shop already has that category.");
  }
  return await insertWithTimestamps(
    ctx,
    "liveShopCategories",
    {
      liveShopId,
      categoryId: link.categoryId,
      subcategoryId: link.subcategoryId,
      priority: link.priority ?? 0,
    },
    now,
  );
}

/** Links a shop to a metro area it serves; the pair is unique. */
export async function linkShopMsa(
  ctx: MutationCtx,
  liveShopId: Id<"liveShops">,
  msaId: Id<"msas">,
  now = Date.now(),
): Promise<Id<"liveShopMsas">> {
  if (!(await ctx.db.get("msas", msaId))) throw appError("NOT_FOUND", "Unknown metro area.");
  const existing = await ctx.db
    .query("liveShopMsas")
    .withIndex("by_liveShopId_and_msaId", (q) => q.eq("liveShopId", liveShopId).eq("msaId", msaId))
    .unique();
  if (existing) throw appError("CONFLICT", "This shop already serves that metro area.");
  return await insertWithTimestamps(ctx, "liveShopMsas", { liveShopId, msaId }, now);
}
