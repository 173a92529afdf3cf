/**
 * The explore lists (PRODUCT.md "Explore"; decision 012): public streams and shops matching a filter,
 * paginated, live. Pages come from the listing tables kept by model/triggers.ts. In the browser, use
 * `usePaginatedQuery` from `convex-helpers/react`, which pins each page's end cursor so no item falls
 * between pages when the list changes.
 */
import { paginationOptsValidator, paginationResultValidator } from "convex/server";
import { v } from "convex/values";
import { internalMutation, query } from "./functions";
import {
  pageShopListings,
  pageStreamListings,
  readExploreArgsOrThrow,
  searchShopListings,
  searchStreamListings,
} from "./model/explorePages";
import { rebuildListingsBatch, REBUILD_PHASES, syncShopStreamListings } from "./model/exploreListings";
import { shopCardValidator, streamCardValidator } from "./schema";

/**
 * An explore filter (lib/explore.ts `ExploreFilter`): category and subcategory ids, state codes, CBSA
 * codes and search text. Unknown ids are ignored; over 6 metro areas or ids over 50 characters are
 * refused with a sentence.
 */
const exploreFilterValidator = v.object({
  categories: v.array(v.string()),
  subcategories: v.array(v.string()),
  states: v.array(v.string()),
  msas: v.array(v.string()),
  q: v.optional(v.string()),
});

/**
 * Publicly listed streams (scheduled, live, paused, ended, of active shops) matching the filter: live
 * first (LIVE, then PAUSED), then the soonest upcoming, then the most recently ended. With search text,
 * by relevance instead.
 */
export const listExploreStreams = query({
  args: { filter: exploreFilterValidator, paginationOpts: paginationOptsValidator },
  returns: paginationResultValidator(streamCardValidator),
  handler: async (ctx, args) => {
    const { filter, page } = readExploreArgsOrThrow(args.filter, args.paginationOpts);
    if (filter.q !== undefined) return await searchStreamListings(ctx, { ...filter, q: filter.q }, page);
    return await pageStreamListings(ctx, filter, page);
  },
});

/**
 * Public shops (active, or temporarily closed) matching the filter, by name, each with its live badge.
 * With search text, by relevance instead.
 */
export const listExploreShops = query({
  args: { filter: exploreFilterValidator, paginationOpts: paginationOptsValidator },
  returns: paginationResultValidator(shopCardValidator),
  handler: async (ctx, args) => {
    const { filter, page } = readExploreArgsOrThrow(args.filter, args.paginationOpts);
    if (filter.q !== undefined) return await searchShopListings(ctx, { ...filter, q: filter.q }, page);
    return await pageShopListings(ctx, filter, page);
  },
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
