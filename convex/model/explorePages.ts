/**
 * Reading explore pages from the listing tables (decision 012). A filter becomes a few index ranges of
 * one table (lib/exploreListing.ts `planExploreRanges`), each narrowed to the view's statuses and start
 * times (decision 031), merged in the list's order with convex-helpers streams and paginated, so a page
 * reads about its own rows plus one per range, however many streams exist. Search text is read
 * through the listing tables' search indexes instead (decision 030, model/exploreSearch.ts).
 */
import { mergedStream, stream, type QueryStream } from "convex-helpers/server/stream";
import type { PaginationResult } from "convex/server";
import type { QueryCtx } from "../_generated/server";
import { matchesExploreFilter, type ExploreFacets, type ExploreFilter } from "../lib/explore";
import {
  ENDED_RANK,
  EXPLORE_REFERENCE,
  exploreFilterRefusal,
  LIVE_RANKS,
  MAX_EXPLORE_RANGES,
  normalizeExploreFilter,
  planExploreRanges,
  UPCOMING_RANK,
} from "../lib/exploreListing";
import {
  effectiveSort,
  exploreViewRefusal,
  planExploreWhen,
  type ExploreSort,
  type ExploreView,
  type StartWindow,
  type WhenPlan,
} from "../lib/exploreWhen";
import schema, { type ShopCard, type StreamCard } from "../schema";
import { streamCardsOf } from "./cards";
import { appError } from "./errors";
import { shopListsStreams } from "./exploreListings";

/** The most results one explore page may ask for. */
export const MAX_EXPLORE_PAGE_SIZE = 100;

export type ExplorePageRequest = { numItems: number; cursor: string | null; endCursor?: string | null };

/**
 * The filter as the readers take it, or an INVALID_ARGUMENT refusal with the sentence to show: too
 * many metro areas, over-long ids or text.
 */
export function readExploreFilterOrThrow(filter: ExploreFilter): ExploreFilter {
  const refusal = exploreFilterRefusal(filter);
  if (refusal) throw appError("INVALID_ARGUMENT", refusal);
  return normalizeExploreFilter(filter, EXPLORE_REFERENCE);
}

/** A list's filter, which holds no search text (search has its own functions), or a refusal. */
export function readListFilterOrThrow(filter: ExploreFilter): ExploreFilter {
  const normalized = readExploreFilterOrThrow(filter);
  if (normalized.q !== undefined) {
    throw appError("INVALID_ARGUMENT", "Search text is searched with the search functions, not listed.");
  }
  return normalized;
}

/** A page request, or a refusal for a page size out of range. */
export function readPageRequestOrThrow(paginationOpts: ExplorePageRequest): ExplorePageRequest {
  const { numItems, cursor, endCursor } = paginationOpts;
  if (!Number.isInteger(numItems) || numItems < 1 || numItems > MAX_EXPLORE_PAGE_SIZE) {
    throw appError("INVALID_ARGUMENT", `A page holds between 1 and ${MAX_EXPLORE_PAGE_SIZE} results.`);
  }
  return { numItems, cursor, endCursor };
}

/** A stream list's view, by default every live and upcoming show, soonest first; or a refusal. */
export type ReadView = { plan: WhenPlan; sort: ExploreSort };

export function readExploreViewOrThrow(view: ExploreView | undefined): ReadView {
  const asked = view ?? { when: "upcoming" };
  const refusal = exploreViewRefusal(asked);
  if (refusal) throw appError("INVALID_ARGUMENT", refusal);
  return { plan: planExploreWhen(asked), sort: effectiveSort(asked) };
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

/**
 * A list read as consecutive parts: every row of a part sorts before every row of the next, and a
 * part's ranges share their bounds apart from the two keys. `lastRank` is the last rank a part holds.
 *
 * Why parts: convex-helpers narrows a stream to a range that is empty (a cursor past the stream's own
 * upper bound) as if it were not, and reads rows beyond the stream's bounds. Ranges with the same
 * bounds never meet that, since a cursor comes from one of them; a view with two status ranges (the
 * shows on now, then a window of upcoming ones) is read as two parts instead of one merge.
 */
type ListPart<Row extends ListingRow> = { ranges: QueryStream<Row>[]; lastRank?: number };

async function paginateParts<Row extends ListingRow>(
  parts: ListPart<Row>[],
  orderFields: string[],
  itemId: (row: Row) => string,
  filter: ExploreFilter,
  request: ExplorePageRequest,
  exact: boolean,
): Promise<PaginationResult<Row>> {
  const partOf = (cursor: string, fallback: number) => {
    const rank = (JSON.parse(itemCursor(cursor, orderFields.length)) as unknown[])[0];
    if (typeof rank !== "number") return fallback;
    const index = parts.findIndex((part) => part.lastRank === undefined || rank <= part.lastRank);
    return index === -1 ? parts.length - 1 : index;
  };
  const lastPart = parts.length - 1;
  const first = request.cursor ? partOf(request.cursor, lastPart) : 0;
  const last = request.endCursor ? partOf(request.endCursor, lastPart) : lastPart;
  const page: Row[] = [];
  for (let index = first; ; index++) {
    const part = parts[index];
    if (!part) throw new Error("A list part is missing.");
    const result = await paginateMerged(
      part.ranges,
      orderFields,
      itemId,
      filter,
      {
        numItems: Math.max(1, request.numItems - page.length),
        cursor: index === first ? request.cursor : null,
        // A part before the one the page ends in is read to its end: the page held all of it.
        endCursor: index === last ? request.endCursor : request.endCursor ? "[]" : undefined,
      },
      exact,
    );
    page.push(...result.page);
    const full = !request.endCursor && page.length >= request.numItems;
    if (!result.isDone || index >= last || (full && index === lastPart)) {
      return { ...result, page, isDone: result.isDone && index === lastPart };
    }
    if (full) {
      // This part is done and the page full: the next page starts after its last rank.
      return { ...result, page, isDone: false, continueCursor: JSON.stringify([part.lastRank]) };
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Streams

/** The most results a count reads; past it the count reads "100+". */
export const EXPLORE_COUNT_LIMIT = 100;

/**
 * The statuses and start times one view reads within a (category key, place key) range, as index
 * ranges in the list's order: the shows on now by start, then upcoming ones (all of them, or those
 * starting in the window), or the ended ones.
 */
type RankRange = { ranks: readonly [number, number]; start?: StartWindow };

function rankRanges(plan: WhenPlan): RankRange[] {
  if (plan.ended) return [{ ranks: [ENDED_RANK, ENDED_RANK] }];
  const window = plan.upcoming;
  const unbounded = window !== null && window.from === undefined && window.before === undefined;
  const [firstLive, lastLive] = [LIVE_RANKS[0], LIVE_RANKS[1]];
  if (plan.live && unbounded) return [{ ranks: [firstLive, UPCOMING_RANK] }];
  return [
    ...(plan.live ? [{ ranks: [firstLive, lastLive] as const }] : []),
    ...(window ? [{ ranks: [UPCOMING_RANK, UPCOMING_RANK] as const, start: window }] : []),
  ];
}

/**
 * The merged index ranges of a filter and view: one stream per (category key, place key) and rank
 * range. "Newest" reads the index by `newestKey`; a start window is only ever read "soonest".
 */
function streamListingStreams(ctx: QueryCtx, filter: ExploreFilter, view: ReadView) {
  const parts = rankRanges(view.plan);
  const plan = planExploreRanges(
    filter,
    EXPLORE_REFERENCE,
    Math.max(1, Math.floor(MAX_EXPLORE_RANGES / parts.length)),
  );
  const db = stream(ctx.db, schema);
  const newest = view.sort === "newest";
  const listParts = parts.map(({ ranks: [low, high], start }) => ({
    lastRank: high,
    ranges: plan.ranges.map((range) => {
      if (newest) {
        return db
          .query("streamListings")
          .withIndex("by_categoryKey_and_placeKey_and_rank_and_newestKey_and_streamId", (q) =>
            q
              .eq("categoryKey", range.categoryKey)
              .eq("placeKey", range.placeKey)
              .gte("rank", low)
              .lte("rank", high),
          );
      }
      return db
        .query("streamListings")
        .withIndex("by_categoryKey_and_placeKey_and_rank_and_sortKey_and_streamId", (q) => {
          const keys = q.eq("categoryKey", range.categoryKey).eq("placeKey", range.placeKey);
          if (low !== high) return keys.gte("rank", low).lte("rank", high);
          const rank = keys.eq("rank", low);
          if (start?.from !== undefined && start.before !== undefined) {
            return rank.gte("sortKey", start.from).lt("sortKey", start.before);
          }
          if (start?.from !== undefined) return rank.gte("sortKey", start.from);
          if (start?.before !== undefined) return rank.lt("sortKey", start.before);
          return rank;
        });
    }),
  }));
  return {
    parts: listParts,
    exact: plan.exact,
    orderFields: ["rank", newest ? "newestKey" : "sortKey", "streamId"],
  };
}

/**
 * A page of the listed streams matching the filter and view: the shows on now, then upcoming or ended
 * ones; each card read from its stream (decision 046).
 */
export async function pageStreamListings(
  ctx: QueryCtx,
  filter: ExploreFilter,
  view: ReadView,
  request: ExplorePageRequest,
): Promise<PaginationResult<StreamCard>> {
  const { parts, exact, orderFields } = streamListingStreams(ctx, filter, view);
  const result = await paginateParts(parts, orderFields, (row) => row.streamId, filter, request, exact);
  return {
    ...result,
    page: await streamCardsOf(
      ctx,
      result.page.map((row) => row.streamId),
    ),
  };
}

/** How many streams match the filter and view, counting up to EXPLORE_COUNT_LIMIT; `more` past it. */
export async function countStreamListings(
  ctx: QueryCtx,
  filter: ExploreFilter,
  view: ReadView,
): Promise<{ count: number; more: boolean }> {
  const { parts, exact, orderFields } = streamListingStreams(ctx, filter, view);
  const request = { numItems: EXPLORE_COUNT_LIMIT, cursor: null };
  const result = await paginateParts(parts, orderFields, (row) => row.streamId, filter, request, exact);
  return { count: result.page.length, more: !result.isDone };
}

// ---------------------------------------------------------------------------------------------------
// Shops

/**
 * The live badge, read with the page: LIVE while one of an active shop's streams is live, PAUSED while
 * one is only paused. A shop with neither costs no document read.
 */
export async function withLiveStatus(ctx: QueryCtx, card: ShopCard): Promise<ShopCard> {
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

/** The public shops matching the filter, by name: a page of them (their cards, still to badge). */
async function paginateShopListings(ctx: QueryCtx, filter: ExploreFilter, request: ExplorePageRequest) {
  const plan = planExploreRanges(filter, EXPLORE_REFERENCE);
  const db = stream(ctx.db, schema);
  const ranges = plan.ranges.map((range) =>
    db
      .query("shopListings")
      .withIndex("by_categoryKey_and_placeKey_and_sortKey_and_liveShopId", (q) =>
        q.eq("categoryKey", range.categoryKey).eq("placeKey", range.placeKey),
      ),
  );
  return await paginateMerged(
    ranges,
    ["sortKey", "liveShopId"],
    (row) => row.liveShopId,
    filter,
    request,
    plan.exact,
  );
}

/** A page of the public shops matching the filter, by name. */
export async function pageShopListings(
  ctx: QueryCtx,
  filter: ExploreFilter,
  request: ExplorePageRequest,
): Promise<PaginationResult<ShopCard>> {
  const result = await paginateShopListings(ctx, filter, request);
  return { ...result, page: await Promise.all(result.page.map((row) => withLiveStatus(ctx, row.card))) };
}

/** How many public shops match the filter, counting up to EXPLORE_COUNT_LIMIT; `more` past it. */
export async function countShopListings(
  ctx: QueryCtx,
  filter: ExploreFilter,
): Promise<{ count: number; more: boolean }> {
  const result = await paginateShopListings(ctx, filter, { numItems: EXPLORE_COUNT_LIMIT, cursor: null });
  return { count: result.page.length, more: !result.isDone };
}
