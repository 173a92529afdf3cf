/**
 * Reading explore pages from the listing tables (decision 012). A filter becomes a few index ranges of
 * one table (lib/exploreListing.ts `planExploreRanges`), merged in the list's order with convex-helpers
 * streams and paginated, so a page reads about its own rows plus one per range, however many streams
 * exist. With search text the title or name search index is read instead, by relevance, and the filter
 * is applied to each result.
 */
import { mergedStream, stream, type QueryStream } from "convex-helpers/server/stream";
import type { PaginationResult } from "convex/server";
import type { Id } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import { matchesExploreFilter, type ExploreFacets, type ExploreFilter } from "../lib/explore";
import {
  ANY_KEY,
  EXPLORE_REFERENCE,
  exploreFilterRefusal,
  normalizeExploreFilter,
  planExploreRanges,
} from "../lib/exploreListing";
import schema, { type ShopCard, type StreamCard } from "../schema";
import { appError } from "./errors";
import { shopListsStreams } from "./exploreListings";

/** The most results one explore page may ask for. */
export const MAX_EXPLORE_PAGE_SIZE = 100;

export type ExplorePageRequest = { numItems: number; cursor: string | null; endCursor?: string | null };

/**
 * The filter and page request as the readers take them, or an INVALID_ARGUMENT refusal with the
 * sentence to show: too many metro areas, over-long ids or text, a page size out of range.
 */
export function readExploreArgsOrThrow(
  filter: ExploreFilter,
  paginationOpts: ExplorePageRequest,
): { filter: ExploreFilter; page: ExplorePageRequest } {
  const refusal = exploreFilterRefusal(filter);
  if (refusal) throw appError("INVALID_ARGUMENT", refusal);
  const { numItems, cursor, endCursor } = paginationOpts;
  if (!Number.isInteger(numItems) || numItems < 1 || numItems > MAX_EXPLORE_PAGE_SIZE) {
    throw appError("INVALID_ARGUMENT", `A page holds between 1 and ${MAX_EXPLORE_PAGE_SIZE} results.`);
  }
  return { filter: normalizeExploreFilter(filter, EXPLORE_REFERENCE), page: { numItems, cursor, endCursor } };
}

// ---------------------------------------------------------------------------------------------------
// Cursors

/**
 * One item can be listed under two of the merged ranges (a stream in two selected categories): its rows
 * have the same sort fields and id and differ only in the row's own id, so they come out next to each
 * other. The page drops the second one it meets; and cursors are cut to the item's own fields (for a
 * stream rank, sort key and id), so a page that ends on an item's first row starts the next page after
 * all of its rows, and a page ending there includes them all.
 */
function itemCursor(cursor: string, itemFields: number): string {
  let key: unknown;
  try {
    key = JSON.parse(cursor);
  } catch {
    throw appError("INVALID_ARGUMENT", "This list has changed. Reload the page.");
  }
  if (!Array.isArray(key)) throw appError("INVALID_ARGUMENT", "This list has changed. Reload the page.");
  return key.length > itemFields ? JSON.stringify(key.slice(0, itemFields)) : cursor;
}

function optionalItemCursor<C extends string | null | undefined>(cursor: C, itemFields: number): C {
  return (typeof cursor === "string" ? itemCursor(cursor, itemFields) : cursor) as C;
}

/**
 * When a pair had to be widened to "*" (MAX_EXPLORE_RANGES), rows that do not match are read and
 * dropped; this caps what one page reads, leaving the rest to the next (the page says "SplitRequired").
 */
function wideReadLimit(numItems: number, ranges: number): number {
  return 3 * numItems + ranges;
}

type ListingRow = { facets: ExploreFacets };

/**
 * Merges the ranges' rows in index order (`orderFields`: the fields after the two keys), keeps the
 * first row of each item that matches the filter, and paginates with item-cut cursors.
 */
async function paginateMerged<Row extends ListingRow>(
  ranges: QueryStream<Row>[],
  orderFields: string[],
  itemId: (row: Row) => string,
  filter: ExploreFilter,
  request: ExplorePageRequest,
  exact: boolean,
): Promise<PaginationResult<Row>> {
  const itemFields = orderFields.length;
  const seen = new Set<string>();
  // mergedStream appends its tie-breakers to the array it is given: pass a copy.
  const rows = mergedStream(ranges, [...orderFields]).filterWith((row) => {
    const first = !seen.has(itemId(row));
    seen.add(itemId(row));
    return Promise.resolve(first && matchesExploreFilter(row.facets, filter));
  });
  const result = await rows.paginate({
    numItems: request.numItems,
    cursor: optionalItemCursor(request.cursor, itemFields),
    endCursor: optionalItemCursor(request.endCursor, itemFields),
    maximumRowsRead: exact ? undefined : wideReadLimit(request.numItems, ranges.length),
  });
  return {
    page: result.page,
    isDone: result.isDone,
    continueCursor: itemCursor(result.continueCursor, itemFields),
    splitCursor: optionalItemCursor(result.splitCursor, itemFields),
    pageStatus: result.pageStatus,
  };
}

// ---------------------------------------------------------------------------------------------------
// Streams

/** A page of the listed streams matching the filter: live, paused, upcoming, ended. */
export async function pageStreamListings(
  ctx: QueryCtx,
  filter: ExploreFilter,
  request: ExplorePageRequest,
): Promise<PaginationResult<StreamCard>> {
  const plan = planExploreRanges(filter, EXPLORE_REFERENCE);
  const db = stream(ctx.db, schema);
  const ranges = plan.ranges.map((range) =>
    db
      .query("streamListings")
      .withIndex("by_categoryKey_and_placeKey_and_rank_and_sortKey_and_streamId", (q) =>
        q.eq("categoryKey", range.categoryKey).eq("placeKey", range.placeKey),
      ),
  );
  const result = await paginateMerged(
    ranges,
    ["rank", "sortKey", "streamId"],
    (row) => row.streamId,
    filter,
    request,
    plan.exact,
  );
  return { ...result, page: result.page.map((row) => row.card) };
}

async function listedStream(ctx: QueryCtx, streamId: Id<"streams">) {
  return await ctx.db
    .query("streamListings")
    .withIndex("by_streamId_and_categoryKey_and_placeKey", (q) =>
      q.eq("streamId", streamId).eq("categoryKey", ANY_KEY).eq("placeKey", ANY_KEY),
    )
    .unique();
}

/**
 * Streams whose title matches the search text, by relevance, then kept if listed and matching the
 * filter: a page can hold fewer results than asked (or none) while more follow.
 */
export async function searchStreamListings(
  ctx: QueryCtx,
  filter: ExploreFilter & { q: string },
  request: ExplorePageRequest,
): Promise<PaginationResult<StreamCard>> {
  const result = await ctx.db
    .query("streams")
    .withSearchIndex("search_streamTitle", (q) => q.search("streamTitle", filter.q))
    .paginate(request);
  const rows = await Promise.all(result.page.map((found) => listedStream(ctx, found._id)));
  return {
    page: rows.flatMap((row) => (row && matchesExploreFilter(row.facets, filter) ? [row.card] : [])),
    isDone: result.isDone,
    continueCursor: result.continueCursor,
    splitCursor: result.splitCursor,
    pageStatus: result.pageStatus,
  };
}

// ---------------------------------------------------------------------------------------------------
// Shops

/**
 * The live badge, read with the page: LIVE while one of an active shop's streams is live, PAUSED while
 * one is only paused. A shop with neither costs no document read.
 */
async function withLiveStatus(ctx: QueryCtx, card: ShopCard): Promise<ShopCard> {
  if (!shopListsStreams(card.status)) return card;
  for (const streamStatus of ["LIVE", "PAUSED"] as const) {
    const link = await ctx.db
      .query("liveShopStreams")
      .withIndex("by_liveShopId_and_streamStatus", (q) =>
        q.eq("liveShopId", card._id).eq("streamStatus", streamStatus),
      )
      .first();
    if (link) return { ...card, liveStatus: streamStatus };
  }
  return card;
}

/** A page of the public shops matching the filter, by name. */
export async function pageShopListings(
  ctx: QueryCtx,
  filter: ExploreFilter,
  request: ExplorePageRequest,
): Promise<PaginationResult<ShopCard>> {
  const plan = planExploreRanges(filter, EXPLORE_REFERENCE);
  const db = stream(ctx.db, schema);
  const ranges = plan.ranges.map((range) =>
    db
      .query("shopListings")
      .withIndex("by_categoryKey_and_placeKey_and_sortKey_and_liveShopId", (q) =>
        q.eq("categoryKey", range.categoryKey).eq("placeKey", range.placeKey),
      ),
  );
  const result = await paginateMerged(
    ranges,
    ["sortKey", "liveShopId"],
    (row) => row.liveShopId,
    filter,
    request,
    plan.exact,
  );
  return { ...result, page: await Promise.all(result.page.map((row) => withLiveStatus(ctx, row.card))) };
}

async function listedShop(ctx: QueryCtx, liveShopId: Id<"liveShops">) {
  return await ctx.db
    .query("shopListings")
    .withIndex("by_liveShopId_and_categoryKey_and_placeKey", (q) =>
      q.eq("liveShopId", liveShopId).eq("categoryKey", ANY_KEY).eq("placeKey", ANY_KEY),
    )
    .unique();
}

/** Shops whose name matches the search text, by relevance, kept if public and matching the filter. */
export async function searchShopListings(
  ctx: QueryCtx,
  filter: ExploreFilter & { q: string },
  request: ExplorePageRequest,
): Promise<PaginationResult<ShopCard>> {
  const result = await ctx.db
    .query("liveShops")
    .withSearchIndex("search_liveShopName", (q) => q.search("liveShopName", filter.q))
    .paginate(request);
  const rows = await Promise.all(result.page.map((found) => listedShop(ctx, found._id)));
  const cards = rows.flatMap((row) => (row && matchesExploreFilter(row.facets, filter) ? [row.card] : []));
  return {
    page: await Promise.all(cards.map((card) => withLiveStatus(ctx, card))),
    isDone: result.isDone,
    continueCursor: result.continueCursor,
    splitCursor: result.splitCursor,
    pageStatus: result.pageStatus,
  };
}
