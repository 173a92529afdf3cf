import { internal } from "../_generated/api";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import {
  DEFAULT_SCHEMA_TYPE,
  DEFAULT_SHOP_STATUS,
  DEFAULT_TIME_ZONE,
  type ShopStatus,
} from "../lib/constants";
import {
  checkShopTransition,
  describeShopRequirements,
  missingShopRequirements,
  mustKeepShopRequirements,
  type Actor,
  type ShopDetails,
} from "../lib/lifecycle";
import { LIMITS, type LiveShopInput } from "../lib/validation";
import { assertValidCategoryLink, type CategoryLink } from "./categories";
import { appError } from "./errors";
import {
  assertValidCategoryLinks,
  cbsaCodesOf,
  getMsasByCbsaCodeOrThrow,
  replaceCategoryRows,
  replaceMsaRows,
  shopCategoryRows,
  shopMsaRows,
  toCategoryLinks,
  type CategoryLinkValue,
} from "./links";
import { syncShopImages } from "./images";
import { insertWithTimestamps, patchWithTimestamps, type DocPatch, type NewDoc } from "./timestamps";
import { ownerFlagsFor } from "./restriction";

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
  const liveShopId = await insertWithTimestamps(
    ctx,
    "liveShops",
    {
      ...shop,
      // A restricted owner's new shop stays off public surfaces too (GDPR article 18), as does a
      // viewer's (decision 025).
      ...(await ownerFlagsFor(ctx, shop.userId)),
      status: shop.status ?? DEFAULT_SHOP_STATUS,
      schemaType: shop.schemaType ?? DEFAULT_SCHEMA_TYPE,
      timezone: shop.timezone ?? DEFAULT_TIME_ZONE,
      faqSection: shop.faqSection ?? [],
      languages: shop.languages ?? [],
      products: shop.products ?? [],
    },
    now,
  );
  await syncShopImages(ctx, { _id: liveShopId, userId: shop.userId }, {}, shop, now);
  return liveShopId;
}

/**
 * Changes a shop. Changed pictures keep uploads in step (a replaced upload is deleted, model/images.ts).
 * A new name or slug is copied onto its streams, which carry both for listing
 * without a join: the first batch at once, the rest scheduled (`copyShopNameToStreams`).
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
  await syncShopImages(ctx, shop, shop, patch, now);
  await patchWithTimestamps(ctx, "liveShops", liveShopId, patch, now);

  const renamed = patch.liveShopName !== undefined && patch.liveShopName !== shop.liveShopName;
  const reslugged = patch.slug !== undefined && patch.slug !== shop.slug;
  if (renamed || reslugged) await copyShopNameToStreams(ctx, liveShopId, -1, now);
}

/**
 * Streams given their shop's name and slug per transaction. Each write re-syncs the stream's listing
 * rows (model/triggers.ts), a few index ranges apiece: a shop's every stream at once passed Convex's
 * 4,096 ranges at about 800 streams, and streams are never deleted.
 */
export const SHOP_NAME_COPY_BATCH = 100;

/**
 * Copies the shop's current name and slug onto its streams created after `after` (a `_creationTime`),
 * one batch, and schedules the next batch while there are more. The shop is read afresh each time, so
 * a second rename while batches run still ends with the latest name everywhere; streams that already
 * carry it are not written again.
 */
export async function copyShopNameToStreams(
  ctx: MutationCtx,
  liveShopId: Id<"liveShops">,
  after = -1,
  now = Date.now(),
): Promise<void> {
  const shop = await ctx.db.get("liveShops", liveShopId);
  if (!shop) return;
  const streams = await ctx.db
    .query("streams")
    .withIndex("by_liveShopId", (q) => q.eq("liveShopId", liveShopId).gt("_creationTime", after))
    .take(SHOP_NAME_COPY_BATCH + 1);
  const batch = streams.slice(0, SHOP_NAME_COPY_BATCH);
  for (const stream of batch) {
    if (stream.liveShopName === shop.liveShopName && stream.liveShopSlug === shop.slug) continue;
    await patchWithTimestamps(
      ctx,
      "streams",
      stream._id,
      { liveShopName: shop.liveShopName, liveShopSlug: shop.slug },
      now,
    );
  }
  const last = batch.at(-1);
  if (streams.length > batch.length && last) {
    await ctx.scheduler.runAfter(0, internal.liveShops.continueShopNameCopy, {
      liveShopId,
      after: last._creationTime,
    });
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

// ---------------------------------------------------------------------------------------------------
// What the owner edits: the shop's fields, categories and metro areas

/**
 * Every field of the shop form, with `undefined` for each one left blank: as a patch, it clears what
 * the owner emptied.
 */
export function shopFormFields(input: LiveShopInput) {
  const fields = {
    liveShopName: input.liveShopName,
    slug: input.slug,
    taxId: input.taxId,
    headline: input.headline,
    description: input.description,
    faqSection: input.faqSection,
    timezone: input.timezone,
    languages: input.languages,
    productsSummary: input.productsSummary,
    products: input.products,
    bannerImageUrl: input.bannerImageUrl,
    logoUrl: input.logoUrl,
    themeColor: input.themeColor,
    accentThemeColor: input.accentThemeColor,
    coverImageUrl: input.coverImageUrl,
    shopTrailerUrl: input.shopTrailerUrl,
    schemaType: input.schemaType,
  } satisfies Record<keyof LiveShopInput, unknown>;
  return fields;
}

export async function listShopCategories(
  ctx: QueryCtx,
  liveShopId: Id<"liveShops">,
): Promise<CategoryLinkValue[]> {
  return toCategoryLinks(await shopCategoryRows(ctx, liveShopId));
}

export async function listShopCbsaCodes(ctx: QueryCtx, liveShopId: Id<"liveShops">): Promise<string[]> {
  return await cbsaCodesOf(ctx, await shopMsaRows(ctx, liveShopId));
}

/** What submission checks, as the shop stands. */
export async function getShopDetails(ctx: QueryCtx, shop: Doc<"liveShops">): Promise<ShopDetails> {
  return {
    liveShopName: shop.liveShopName,
    slug: shop.slug,
    timezone: shop.timezone,
    description: shop.description,
    categoryCount: (await shopCategoryRows(ctx, shop._id)).length,
    msaCount: (await shopMsaRows(ctx, shop._id)).length,
  };
}

/**
 * A submitted shop keeps what submission required (lifecycle `mustKeepShopRequirements`): `changes`
 * may not take away a requirement the shop meets. One that already lacks something (an older or
 * imported shop) can still be edited.
 */
export async function assertShopKeepsRequirements(
  ctx: QueryCtx,
  shop: Doc<"liveShops">,
  changes: Partial<ShopDetails>,
): Promise<void> {
  if (!mustKeepShopRequirements(shop.status)) return;
  const details = await getShopDetails(ctx, shop);
  const before = missingShopRequirements(details);
  const missing = missingShopRequirements({ ...details, ...changes }).filter(
    (requirement) => !before.includes(requirement),
  );
  if (missing.length > 0) {
    throw appError(
      "MISSING_SHOP_DETAILS",
      `A shop that has been submitted must keep ${describeShopRequirements(missing)}.`,
      { missing },
    );
  }
}

/** Refuses a new shop beyond LIMITS.shopsPerUser. */
export async function assertMayOpenAnotherShop(ctx: QueryCtx, userId: Id<"users">): Promise<void> {
  const shops = await ctx.db
    .query("liveShops")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .take(LIMITS.shopsPerUser);
  if (shops.length >= LIMITS.shopsPerUser) {
    throw appError(
      "LIMIT_EXCEEDED",
      `You can have at most ${LIMITS.shopsPerUser} live shops. Close one you no longer use first.`,
    );
  }
}

/** Replaces a shop's categories with `links` (already free of duplicates); checks the tree first. */
export async function replaceShopCategories(
  ctx: MutationCtx,
  shop: Doc<"liveShops">,
  links: readonly CategoryLinkValue[],
  now = Date.now(),
): Promise<void> {
  await assertValidCategoryLinks(ctx, links);
  await assertShopKeepsRequirements(ctx, shop, { categoryCount: links.length });
  await replaceCategoryRows(
    ctx,
    "liveShopCategories",
    await shopCategoryRows(ctx, shop._id),
    links,
    (link) => linkShopCategory(ctx, shop._id, link, now),
    now,
  );
}

/** Replaces the metro areas a shop serves (codes already free of duplicates); unknown codes are refused first. */
export async function replaceShopMsas(
  ctx: MutationCtx,
  shop: Doc<"liveShops">,
  cbsaCodes: readonly string[],
  now = Date.now(),
): Promise<void> {
  const msas = await getMsasByCbsaCodeOrThrow(ctx, cbsaCodes);
  await assertShopKeepsRequirements(ctx, shop, { msaCount: msas.length });
  await replaceMsaRows(ctx, "liveShopMsas", await shopMsaRows(ctx, shop._id), msas, (msaId) =>
    linkShopMsa(ctx, shop._id, msaId, now),
  );
}

/** The shop form's link sets: each one given replaces the shop's, one left out is kept as it is. */
export type ShopFormLinks = { categories?: readonly CategoryLinkValue[]; cbsaCodes?: readonly string[] };

/**
 * Saves the shop form: its fields (blank ones cleared), then the link sets it carries. The caller's
 * one transaction holds every part, so a refusal of any (a taken address, an unknown category or
 * metro area, a requirement a submitted shop must keep) writes nothing.
 */
export async function saveShopForm(
  ctx: MutationCtx,
  shop: Doc<"liveShops">,
  input: LiveShopInput,
  links: ShopFormLinks,
  now = Date.now(),
): Promise<void> {
  await assertShopKeepsRequirements(ctx, shop, { description: input.description });
  await patchLiveShop(ctx, shop._id, shopFormFields(input), now);
  if (links.categories) await replaceShopCategories(ctx, shop, links.categories, now);
  if (links.cbsaCodes) await replaceShopMsas(ctx, shop, links.cbsaCodes, now);
}

/**
 * Moves a shop along its lifecycle (docs/product.md#live-shop-lifecycle) for `actor`; a refusal for
 * missing details names them (`missing`). The reason of a rejection or suspension is kept for the
 * owner; any other change clears it.
 */
export async function changeShopStatus(
  ctx: MutationCtx,
  shop: Doc<"liveShops">,
  actor: Actor,
  to: ShopStatus,
  reason: string | undefined,
  now = Date.now(),
): Promise<void> {
  const decision = checkShopTransition({
    from: shop.status,
    to,
    actor,
    shop: await getShopDetails(ctx, shop),
    reason,
  });
  if (!decision.ok) {
    throw appError(decision.code, decision.message, decision.missing ? { missing: decision.missing } : {});
  }
  await patchLiveShop(ctx, shop._id, decision.patch, now);
}
