/**
 * What shop and stream link rows (categories, metro areas) have in common: validation of a whole set
 * before anything is written, and the plan that turns the current rows into the wanted set.
 */
import { v } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { assertValidCategoryLink } from "./categories";
import { appError } from "./errors";
import { patchWithTimestamps } from "./timestamps";

/**
 * The most link rows of one kind read for one shop or stream. The functions allow far fewer
 * (LIMITS.linkedCategories, LIMITS.linkedMetroAreas); this only bounds the read.
 */
export const LINK_READ_LIMIT = 100;

export const categoryLinkValidator = v.object({
  categoryId: v.string(),
  subcategoryId: v.optional(v.string()),
  priority: v.number(),
});

export type CategoryLinkValue = { categoryId: string; subcategoryId?: string; priority: number };

// The link rows of one shop or stream, at most LINK_READ_LIMIT of each kind: the one way every page,
// listing and editor reads them (the cascade and the data export page through them on their own).

export async function shopCategoryRows(
  ctx: QueryCtx,
  liveShopId: Id<"liveShops">,
): Promise<Doc<"liveShopCategories">[]> {
  return await ctx.db
    .query("liveShopCategories")
    .withIndex("by_liveShopId_and_categoryId", (q) => q.eq("liveShopId", liveShopId))
    .take(LINK_READ_LIMIT);
}

export async function shopMsaRows(
  ctx: QueryCtx,
  liveShopId: Id<"liveShops">,
): Promise<Doc<"liveShopMsas">[]> {
  return await ctx.db
    .query("liveShopMsas")
    .withIndex("by_liveShopId_and_msaId", (q) => q.eq("liveShopId", liveShopId))
    .take(LINK_READ_LIMIT);
}

export async function streamCategoryRows(
  ctx: QueryCtx,
  streamId: Id<"streams">,
): Promise<Doc<"streamCategories">[]> {
  return await ctx.db
    .query("streamCategories")
    .withIndex("by_streamId_and_categoryId", (q) => q.eq("streamId", streamId))
    .take(LINK_READ_LIMIT);
}

export async function streamMsaRows(ctx: QueryCtx, streamId: Id<"streams">): Promise<Doc<"streamMsas">[]> {
  return await ctx.db
    .query("streamMsas")
    .withIndex("by_streamId_and_msaId", (q) => q.eq("streamId", streamId))
    .take(LINK_READ_LIMIT);
}

export function categoryLinkKey(link: { categoryId: string; subcategoryId?: string }): string {
  return `${link.categoryId}/${link.subcategoryId ?? ""}`;
}

/** A link row as the functions return it: primary (lowest priority) first, then by id. */
export function toCategoryLinks(
  rows: readonly { categoryId: string; subcategoryId?: string; priority: number }[],
): CategoryLinkValue[] {
  return rows
    .map(({ categoryId, subcategoryId, priority }) => ({ categoryId, subcategoryId, priority }))
    .sort((a, b) => a.priority - b.priority || categoryLinkKey(a).localeCompare(categoryLinkKey(b)));
}

/** Every link names a real category and, optionally, one of its own subcategories; checked before any write. */
export async function assertValidCategoryLinks(
  ctx: QueryCtx,
  links: readonly CategoryLinkValue[],
): Promise<void> {
  for (const link of links) await assertValidCategoryLink(ctx, link);
}

/** The metro areas for CBSA codes, in order; an unknown code is refused before any write. */
export async function getMsasByCbsaCodeOrThrow(
  ctx: QueryCtx,
  cbsaCodes: readonly string[],
): Promise<Doc<"msas">[]> {
  const msas = [];
  for (const cbsaCode of cbsaCodes) {
    const msa = await ctx.db
      .query("msas")
      .withIndex("by_cbsaCode", (q) => q.eq("cbsaCode", cbsaCode))
      .unique();
    if (!msa) throw appError("INVALID_ARGUMENT", `Unknown metro area "${cbsaCode}".`);
    msas.push(msa);
  }
  return msas;
}

/** The CBSA codes of metro-area link rows, in the rows' order (missing areas skipped). */
export async function cbsaCodesOf(ctx: QueryCtx, rows: readonly { msaId: Id<"msas"> }[]): Promise<string[]> {
  const msas = await Promise.all(rows.map((row) => ctx.db.get("msas", row.msaId)));
  return msas.flatMap((msa) => (msa ? [msa.cbsaCode] : []));
}

/** How to turn `existing` rows into `wanted` values, matched by key: rows to remove, values to add, pairs to keep. */
export function planLinkReplacement<Row, Value>(
  existing: readonly Row[],
  wanted: readonly Value[],
  rowKey: (row: Row) => string,
  valueKey: (value: Value) => string,
): { remove: Row[]; add: Value[]; keep: { row: Row; value: Value }[] } {
  const wantedByKey = new Map(wanted.map((value) => [valueKey(value), value]));
  const existingKeys = new Set<string>();
  const remove: Row[] = [];
  const keep: { row: Row; value: Value }[] = [];
  for (const row of existing) {
    const key = rowKey(row);
    const value = wantedByKey.get(key);
    // A second row with the same key (never written by the helpers) is removed too.
    if (value === undefined || existingKeys.has(key)) remove.push(row);
    else keep.push({ row, value });
    existingKeys.add(key);
  }
  const add = wanted.filter((value) => !existingKeys.has(valueKey(value)));
  return { remove, add, keep };
}

/**
 * Turns one shop's or stream's category rows into `links`: deletes the rows not wanted, updates the
 * priority of the kept ones, and adds the others with `add` (the owner's own checked insert).
 */
export async function replaceCategoryRows(
  ctx: MutationCtx,
  table: "liveShopCategories" | "streamCategories",
  rows: readonly Doc<"liveShopCategories" | "streamCategories">[],
  links: readonly CategoryLinkValue[],
  add: (link: CategoryLinkValue) => Promise<unknown>,
  now: number,
): Promise<void> {
  const plan = planLinkReplacement(rows, links, categoryLinkKey, categoryLinkKey);
  for (const row of plan.remove) await ctx.db.delete(table, row._id);
  for (const { row, value } of plan.keep) {
    if (row.priority !== value.priority)
      await patchWithTimestamps(ctx, table, row._id, { priority: value.priority }, now);
  }
  for (const link of plan.add) await add(link);
}

/** Turns one shop's or stream's metro-area rows into `msas`, adding the missing ones with `add`. */
export async function replaceMsaRows(
  ctx: MutationCtx,
  table: "liveShopMsas" | "streamMsas",
  rows: readonly Doc<"liveShopMsas" | "streamMsas">[],
  msas: readonly Doc<"msas">[],
  add: (msaId: Id<"msas">) => Promise<unknown>,
): Promise<void> {
  const plan = planLinkReplacement(
    rows,
    msas,
    (row) => row.msaId,
    (msa) => msa._id,
  );
  for (const row of plan.remove) await ctx.db.delete(table, row._id);
  for (const msa of plan.add) await add(msa._id);
}
