/**
 * The explore lists (docs/product.md#explore; decision 012): public streams and shops matching a filter,
 * paginated, live. Pages come from the listing tables kept by model/triggers.ts. In the browser, use
 * `usePaginatedQuery` from `convex-helpers/react`, which pins each page's end cursor so no item falls
 * between pages when the list changes.
 */
import { paginationOptsValidator, paginationResultValidator } from "convex/server";
import { v } from "convex/values";
import { internalMutation, publicQuery } from "./functions";
import { EXPLORE_SORTS, EXPLORE_WHENS } from "./lib/exploreWhen";
import {
  countShopListings,
  countStreamListings,
  pageShopListings,
  pageStreamListings,
  readExploreFilterOrThrow,
  readExploreViewOrThrow,
  readListFilterOrThrow,
  readPageRequestOrThrow,
} from "./model/explorePages";
import { searchShopListings, searchStreamListings } from "./model/exploreSearch";
import { rebuildListingsBatch, REBUILD_PHASES, syncShopStreamListings } from "./model/exploreListings";
import { shopCardValidator, streamCardValidator } from "./schema";

/**
 * An explore filter (lib/explore.ts `ExploreFilter`): category and subcategory ids, state codes, CBSA
 * codes and search text. Unknown ids are ignored; over 6 metro areas or ids over 50 characters are
 * refused with a sentence. Lists take no search text; the search functions read it.
 */
const exploreFilterValidator = v.object({
  categories: v.array(v.string()),
  subcategories: v.array(v.string()),
  states: v.array(v.string()),
  msas: v.array(v.string()),
  q: v.optional(v.string()),
});

/**
 * Which streams by time, and in which order (lib/exploreWhen.ts, decision 031): every live and
 * upcoming show (the default), live now, today, this weekend, the next 7 days or replays; `day` and
 * `timeZone` are the viewer's, for the three windows. `sort` where the view offers one.
 */
const exploreViewValidator = v.object({
  when: v.union(...EXPLORE_WHENS.map((when) => v.literal(when))),
  sort: v.optional(v.union(...EXPLORE_SORTS.map((sort) => v.literal(sort)))),
  day: v.optional(v.string()),
  timeZone: v.optional(v.string()),
});

const countValidator = v.object({ count: v.number(), more: v.boolean() });

/**
 * Publicly listed streams (scheduled, live, paused, ended, of active shops) matching the filter, in
 * the view: the shows on now first (LIVE, then PAUSED) by start, then upcoming ones soonest first (or
 * newest listed first), or the most recently ended for replays.
 */
export const listExploreStreams = publicQuery({
  args: {
    filter: exploreFilterValidator,
    view: v.optional(exploreViewValidator),
    paginationOpts: paginationOptsValidator,
  },
  returns: paginationResultValidator(streamCardValidator),
  handler: async (ctx, args) =>
    await pageStreamListings(
      ctx,
      readListFilterOrThrow(args.filter),
      readExploreViewOrThrow(args.view),
      readPageRequestOrThrow(args.paginationOpts),
    ),
});

/** How many streams `listExploreStreams` holds for the filter and view, up to 100 (`more` past it). */
export const countExploreStreams = publicQuery({
  args: { filter: exploreFilterValidator, view: v.optional(exploreViewValidator) },
  returns: countValidator,
  handler: async (ctx, args) =>
    await countStreamListings(ctx, readListFilterOrThrow(args.filter), readExploreViewOrThrow(args.view)),
});

/**
 * Streams whose titles, descriptions, shops, products, categories, places or platforms match the
 * filter's search text (decision 030), within the filter and view: live first, then by relevance. At
 * most 50, with their count; `more` when more may match.
 */
export const searchExploreStreams = publicQuery({
  args: { filter: exploreFilterValidator, view: v.optional(exploreViewValidator) },
  returns: v.object({ results: v.array(streamCardValidator), count: v.number(), more: v.boolean() }),
  handler: async (ctx, args) =>
    await searchStreamListings(ctx, readExploreFilterOrThrow(args.filter), readExploreViewOrThrow(args.view)),
});

/** Public shops (active, or temporarily closed) matching the filter, by name, each with its live badge. */
export const listExploreShops = publicQuery({
  args: { filter: exploreFilterValidator, paginationOpts: paginationOptsValidator },
  returns: paginationResultValidator(shopCardValidator),
  handler: async (ctx, args) =>
    await pageShopListings(
      ctx,
      readListFilterOrThrow(args.filter),
      readPageRequestOrThrow(args.paginationOpts),
    ),
});

/** How many shops `listExploreShops` holds for the filter, up to 100 (`more` past it). */
export const countExploreShops = publicQuery({
  args: { filter: exploreFilterValidator },
  returns: countValidator,
  handler: async (ctx, args) => await countShopListings(ctx, readListFilterOrThrow(args.filter)),
});

/**
 * Public shops whose name, headline, description, products, categories or areas match the search
 * text, within the filter: live first, then by relevance. At most 50, with their count.
 */
export const searchExploreShops = publicQuery({
  args: { filter: exploreFilterValidator },
  returns: v.object({ results: v.array(shopCardValidator), count: v.number(), more: v.boolean() }),
  handler: async (ctx, args) => await searchShopListings(ctx, readExploreFilterOrThrow(args.filter)),
});

const rebuildPhaseValidator = v.union(...REBUILD_PHASES.map((phase) => v.literal(phase)));

/** The next batch of a shop's streams after its status changed (model/exploreListings.ts). */
export const continueShopStreamListings = internalMutation({
  args: { liveShopId: v.id("liveShops"), after: v.number() },
  returns: v.null(),
  handler: async (ctx, { liveShopId, after }) => {
    await syncShopStreamListings(ctx, liveShopId, after);
    return null;
  },
});

/**
 * Migration: rebuilds every listing row from the data (`npx convex run explore:rebuildListings`), for a
 * deployment that had streams before the listing tables existed, or after a change to how rows are
 * derived. Runs in batches, each scheduling the next: every stream, every shop, then rows whose
 * stream or shop no longer exists. Safe to run again at any time.
 */
export const rebuildListings = internalMutation({
  args: {
    phase: v.optional(rebuildPhaseValidator),
    cursor: v.optional(v.union(v.string(), v.null())),
  },
  returns: v.object({ phase: rebuildPhaseValidator, processed: v.number(), done: v.boolean() }),
  handler: async (ctx, { phase, cursor }) =>
    await rebuildListingsBatch(ctx, phase ?? "streams", cursor ?? null),
});
