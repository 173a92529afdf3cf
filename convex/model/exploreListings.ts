/**
 * Explore's listing tables (decision 012): `streamListings` and `shopListings` rows derived from a
 * stream or shop, its links and its shop's status. `syncStreamListings` and `syncShopListings` rewrite
 * one item's rows to what they should be; the triggers of model/triggers.ts call them after every
 * write that could change them, and `explore:rebuildListings` calls them for every item.
 */
// JSON with sorted keys, absent and undefined fields alike: two values compare equal as stored.
import { stringify as canonicalJson } from "safe-stable-stringify";
import { internal } from "../_generated/api";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import type { ShopCard } from "../schema";
import { PLATFORM_TYPES, PLATFORMS, type PlatformType } from "../lib/constants";
import { facetsFromLinks, type ExploreFacets } from "../lib/explore";
import {
  ANY_KEY,
  facetSearchTexts,
  listingCategoryKeys,
  listingPlaceKeys,
  searchRankOf,
  streamListingOrder,
  shopSortKey,
} from "../lib/exploreListing";
import { isShopPublic, isStreamListedPublicly } from "../lib/lifecycle";
import { buildSearchDocument, type SearchDocument } from "../lib/searchText";
import { toShopCard } from "./cards";
import { publicShopStatus } from "./restriction";
import {
  planLinkReplacement,
  shopCategoryRows,
  shopMsaRows,
  streamCategoryRows,
  streamMsaRows,
  toCategoryLinks,
} from "./links";
import { applyMapChanges, type MapListingRow } from "./mapAreas";
import { insertWithTimestamps, patchWithTimestamps, type NewDoc } from "./timestamps";
import { listStreamPlatforms } from "./streams";

/**
 * More rows than one item can have: (1 + 12 category links × 2) × (1 + 10 metro areas × up to 4 states
 * and the area itself), LIMITS.linkedCategories and linkedMetroAreas.
 */
const MAX_ROWS_PER_ITEM = 1500;

type ListingTable = "streamListings" | "shopListings";

function listingKey(row: { categoryKey: string; placeKey: string }): string {
  return `${row.categoryKey}\n${row.placeKey}`;
}

/** Whether two stored values are equal as `canonical` compares them, without building strings. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, index) => sameValue(item, b[index]))
    );
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  for (const key in left) if (!sameValue(left[key], right[key])) return false;
  for (const key in right) if (left[key] === undefined && right[key] !== undefined) return false;
  return true;
}

/** Fields a listing row has that its item does not decide: the system fields and the timestamps. */
const ROW_OWN_FIELDS = new Set(["_id", "_creationTime", "createdAt", "updatedAt"]);

/**
 * The fields of `wanted` whose values differ from `row`'s, and those `row` has that `wanted` no longer
 * does (set to undefined, which removes them: a stream row's card, before decision 046), or null when
 * none do. A rewrite patches only what changed (each field sent is serialized, checked against the
 * schema and stored again).
 */
function changedFields<T extends object>(row: object, wanted: T): Partial<T> | null {
  const stored = row as Record<string, unknown>;
  const desired = wanted as Record<string, unknown>;
  const changed: [string, unknown][] = Object.entries(desired).filter(
    ([key, value]) => !sameValue(stored[key], value),
  );
  for (const key of Object.keys(stored)) {
    if (!ROW_OWN_FIELDS.has(key) && !(key in desired)) changed.push([key, undefined]);
  }
  return changed.length > 0 ? (Object.fromEntries(changed) as Partial<T>) : null;
}

/** Turns an item's rows into `wanted`: deletes the extra ones, patches the changed ones, adds the missing. */
async function replaceListingRows<T extends ListingTable>(
  ctx: MutationCtx,
  table: T,
  existing: Doc<T>[],
  wanted: NewDoc<T>[],
  now: number,
): Promise<void> {
  // Both tables key their rows by (categoryKey, placeKey); TypeScript cannot see it through `T`.
  const key = (row: unknown) => listingKey(row as { categoryKey: string; placeKey: string });
  const plan = planLinkReplacement<Doc<T>, NewDoc<T>>(existing, wanted, key, key);
  // The live map counts what the stream lists hold (decision 086): a rank or start changed is a row
  // gone and one added.
  const mapRemoved: MapListingRow[] = [];
  const mapAdded: MapListingRow[] = [];
  for (const row of plan.remove) {
    await ctx.db.delete(table, row._id);
    mapRemoved.push(row as unknown as MapListingRow);
  }
  for (const { row, value } of plan.keep) {
    const patch = changedFields(row, value);
    if (!patch) continue;
    await patchWithTimestamps(ctx, table, row._id, patch, now);
    if ("rank" in patch || "sortKey" in patch) {
      mapRemoved.push(row as unknown as MapListingRow);
      mapAdded.push(value as unknown as MapListingRow);
    }
  }
  for (const value of plan.add) {
    await insertWithTimestamps(ctx, table, value, now);
    mapAdded.push(value as unknown as MapListingRow);
  }
  if (table === "streamListings") await applyMapChanges(ctx, mapRemoved, mapAdded, now);
}

type MsaFacet = { cbsaCode: string; states: readonly string[] };

async function msaFacets(ctx: QueryCtx, rows: readonly { msaId: Id<"msas"> }[]): Promise<MsaFacet[]> {
  const msas = await Promise.all(rows.map((row) => ctx.db.get("msas", row.msaId)));
  return msas.flatMap((msa) => (msa ? [{ cbsaCode: msa.cbsaCode, states: msa.states }] : []));
}

// ---------------------------------------------------------------------------------------------------
// Streams

export async function streamFacets(ctx: QueryCtx, streamId: Id<"streams">): Promise<ExploreFacets> {
  const categoryRows = await streamCategoryRows(ctx, streamId);
  return facetsFromLinks(
    toCategoryLinks(categoryRows),
    await msaFacets(ctx, await streamMsaRows(ctx, streamId)),
  );
}

/** What a stream is found by besides its own fields: its shop's headline, its platforms. */
export type StreamSearchContext = { shopHeadline?: string; platformTypes: readonly PlatformType[] };

/**
 * A stream's search text (decisions 030 and 062), heaviest first: its title; its shop, products,
 * categories and platforms; its place, areas and its shop's headline; its description; what its
 * subcategories hold, by the category tree and their synonyms.
 */
export function streamSearchDocument(
  stream: Doc<"streams">,
  facets: ExploreFacets,
  context: StreamSearchContext,
): SearchDocument {
  const { categories, areas, categoryWords } = facetSearchTexts(facets);
  return buildSearchDocument([
    [stream.streamTitle],
    [
      stream.liveShopName,
      ...stream.products.map((product) => product.name),
      ...categories,
      ...context.platformTypes.map((type) => PLATFORMS[type].label),
    ],
    [stream.locationLabel, ...areas, context.shopHeadline],
    [stream.streamDescription],
    categoryWords,
  ]);
}

/**
 * A shop's search text: its name; headline, products, categories and the platforms it shows on;
 * areas and summary; description; what its subcategories hold.
 */
export function shopSearchDocument(
  shop: Doc<"liveShops">,
  facets: ExploreFacets,
  platformTypes: readonly PlatformType[],
): SearchDocument {
  const { categories, areas, categoryWords } = facetSearchTexts(facets);
  return buildSearchDocument([
    [shop.liveShopName],
    [
      shop.headline,
      ...shop.products.map((product) => product.name),
      ...categories,
      ...platformTypes.map((type) => PLATFORMS[type].label),
    ],
    [...areas, shop.productsSummary],
    [shop.description],
    categoryWords,
  ]);
}

/** The newest streams whose platforms a shop is found by (a bound on the read, not a rule). */
export const SHOP_PLATFORM_STREAMS = 25;

/** The platforms of a shop's newest streams, each once, in the order of PLATFORM_TYPES. */
export async function shopPlatformTypes(ctx: QueryCtx, liveShopId: Id<"liveShops">): Promise<PlatformType[]> {
  const streams = await ctx.db
    .query("streams")
    .withIndex("by_liveShopId", (q) => q.eq("liveShopId", liveShopId))
    .order("desc")
    .take(SHOP_PLATFORM_STREAMS);
  const types = new Set<PlatformType>();
  for (const stream of streams) {
    for (const platform of await listStreamPlatforms(ctx, stream._id)) types.add(platform.platformType);
  }
  return PLATFORM_TYPES.filter((type) => types.has(type));
}

/**
 * An item's rows, one per category key × place key; the (*, *) row, the one every item has, also
 * carries the search text, the others an empty one (so the search index finds each item once).
 */
function listingRows<Row extends { categoryKey: string; placeKey: string }>(
  facets: ExploreFacets,
  search: SearchDocument,
  row: (keys: { categoryKey: string; placeKey: string }) => Omit<Row, "searchText" | "searchWords">,
): (Row & { searchText: string; searchWords?: string[] })[] {
  const placeKeys = listingPlaceKeys(facets);
  return listingCategoryKeys(facets).flatMap((categoryKey) =>
    placeKeys.map((placeKey) => {
      const searchable = categoryKey === ANY_KEY && placeKey === ANY_KEY;
      return {
        ...(row({ categoryKey, placeKey }) as Row),
        searchText: searchable ? search.searchText : "",
        ...(searchable && { searchWords: search.searchWords }),
      };
    }),
  );
}

/**
 * The rows a stream should have, given that it is listed at all (`isStreamListedPublicly`): one per
 * category key × place key, each with the sort fields and the facets, and on the (*, *) row its search
 * text (`streamSearchDocument`). No card: a page reads each stream it shows (decision 046), so a change
 * to what a card shows, its status above all, rewrites no row.
 */
export function streamListingRows(
  stream: Doc<"streams">,
  facets: ExploreFacets,
  search: SearchDocument,
): NewDoc<"streamListings">[] {
  const order = streamListingOrder(stream);
  if (!order) return [];
  return listingRows<NewDoc<"streamListings">>(facets, search, ({ categoryKey, placeKey }) => ({
    streamId: stream._id,
    liveShopId: stream.liveShopId,
    categoryKey,
    placeKey,
    ...order,
    searchRank: searchRankOf(order.rank),
    facets,
  }));
}

export async function listStreamListingRows(
  ctx: QueryCtx,
  streamId: Id<"streams">,
): Promise<Doc<"streamListings">[]> {
  return await ctx.db
    .query("streamListings")
    .withIndex("by_streamId_and_categoryKey_and_placeKey", (q) => q.eq("streamId", streamId))
    .take(MAX_ROWS_PER_ITEM);
}

/**
 * What a sync re-reads. Rows carry the facets derived when the item's links last changed, and a
 * stream's (*, *) row its search text: a change to the item itself reuses the facets, and one that
 * leaves its searched fields alone (going live or ending) the search text too.
 * A link change, an item entering the lists and the migration derive both again.
 */
export type SyncOptions = { linksChanged?: boolean; searchChanged?: boolean; now?: number };

/** Rewrites a stream's listing rows from the stream, its links and its shop; none when it is not listed. */
export async function syncStreamListings(
  ctx: MutationCtx,
  streamId: Id<"streams">,
  { linksChanged = false, searchChanged = true, now = Date.now() }: SyncOptions = {},
): Promise<void> {
  const existing = await listStreamListingRows(ctx, streamId);
  const stream = await ctx.db.get("streams", streamId);
  const shop = stream && (await ctx.db.get("liveShops", stream.liveShopId));
  let wanted: NewDoc<"streamListings">[] = [];
  if (stream && shop && isStreamListedPublicly(stream.streamStatus, publicShopStatus(shop))) {
    const facets = (linksChanged ? undefined : existing[0]?.facets) ?? (await streamFacets(ctx, streamId));
    const searchRow = existing.find((row) => row.categoryKey === ANY_KEY && row.placeKey === ANY_KEY);
    const known =
      !linksChanged && !searchChanged && searchRow?.searchText !== undefined && searchRow.searchWords
        ? { searchText: searchRow.searchText, searchWords: searchRow.searchWords }
        : undefined;
    const search =
      known ??
      streamSearchDocument(stream, facets, {
        shopHeadline: shop.headline,
        platformTypes: (await listStreamPlatforms(ctx, streamId)).map((platform) => platform.platformType),
      });
    wanted = streamListingRows(stream, facets, search);
  }
  await replaceListingRows(ctx, "streamListings", existing, wanted, now);
}

/** The stream's own fields its search text reads. */
function streamSearchFields(stream: Doc<"streams">) {
  return [
    stream.streamTitle,
    stream.liveShopName,
    stream.locationLabel,
    stream.streamDescription,
    stream.products.map((product) => product.name),
  ];
}

/** Whether a change to a stream row changes what its search text is made of. */
export function streamSearchInputsChanged(before: Doc<"streams">, after: Doc<"streams">): boolean {
  return canonicalJson(streamSearchFields(before)) !== canonicalJson(streamSearchFields(after));
}

/**
 * Whether a change to a stream row can change its listing rows: whether it is listed and where it sorts,
 * its search text or its shop. A pause or a resume changes none of them (decision 046).
 */
export function streamListingInputsChanged(before: Doc<"streams">, after: Doc<"streams">): boolean {
  return (
    before.liveShopId !== after.liveShopId ||
    canonicalJson(streamListingOrder(before)) !== canonicalJson(streamListingOrder(after)) ||
    streamSearchInputsChanged(before, after)
  );
}

/** Whether a shop in this status has its streams on the public lists. */
export function shopListsStreams(status: Doc<"liveShops">["status"]): boolean {
  return isStreamListedPublicly("SCHEDULED", status);
}

/** Streams re-synced inline when a shop's visibility changes; the rest follow in scheduled batches. */
export const SHOP_STREAMS_PER_SYNC = 100;

/**
 * Re-syncs the listing rows of a shop's streams created after `after` (its status decides whether they
 * are listed), a batch at a time.
 */
export async function syncShopStreamListings(
  ctx: MutationCtx,
  liveShopId: Id<"liveShops">,
  after = -1,
): Promise<void> {
  const streams = await ctx.db
    .query("streams")
    .withIndex("by_liveShopId", (q) => q.eq("liveShopId", liveShopId).gt("_creationTime", after))
    .take(SHOP_STREAMS_PER_SYNC + 1);
  const batch = streams.slice(0, SHOP_STREAMS_PER_SYNC);
  for (const stream of batch) await syncStreamListings(ctx, stream._id);
  const last = batch.at(-1);
  if (streams.length > batch.length && last) {
    await ctx.scheduler.runAfter(0, internal.explore.continueShopStreamListings, {
      liveShopId,
      after: last._creationTime,
    });
  }
}

// ---------------------------------------------------------------------------------------------------
// Shops

export async function shopFacets(ctx: QueryCtx, liveShopId: Id<"liveShops">): Promise<ExploreFacets> {
  const categoryRows = await shopCategoryRows(ctx, liveShopId);
  return facetsFromLinks(
    toCategoryLinks(categoryRows),
    await msaFacets(ctx, await shopMsaRows(ctx, liveShopId)),
  );
}

export function shopListingRows(
  shop: Doc<"liveShops">,
  facets: ExploreFacets,
  platformTypes: readonly PlatformType[],
): NewDoc<"shopListings">[] {
  const sortKey = shopSortKey(shop.liveShopName);
  const card = toShopCard(shop, facets);
  return listingRows<NewDoc<"shopListings">>(
    facets,
    shopSearchDocument(shop, facets, platformTypes),
    ({ categoryKey, placeKey }) => ({ liveShopId: shop._id, categoryKey, placeKey, sortKey, facets, card }),
  );
}

/**
 * A shop's card as explore shows it: one of its listing rows' (all carry it: one read), else, for a shop
 * not listed, built from its links.
 */
export async function shopCardOf(ctx: QueryCtx, shop: Doc<"liveShops">): Promise<ShopCard> {
  const listing = await ctx.db
    .query("shopListings")
    .withIndex("by_liveShopId_and_categoryKey_and_placeKey", (q) => q.eq("liveShopId", shop._id))
    .first();
  return listing?.card ?? toShopCard(shop, await shopFacets(ctx, shop._id));
}

export async function listShopListingRows(
  ctx: QueryCtx,
  liveShopId: Id<"liveShops">,
): Promise<Doc<"shopListings">[]> {
  return await ctx.db
    .query("shopListings")
    .withIndex("by_liveShopId_and_categoryKey_and_placeKey", (q) => q.eq("liveShopId", liveShopId))
    .take(MAX_ROWS_PER_ITEM);
}

/** Rewrites a shop's listing rows; none unless the shop is public (active or in maintenance). */
export async function syncShopListings(
  ctx: MutationCtx,
  liveShopId: Id<"liveShops">,
  { linksChanged = false, now = Date.now() }: SyncOptions = {},
): Promise<void> {
  const existing = await listShopListingRows(ctx, liveShopId);
  const shop = await ctx.db.get("liveShops", liveShopId);
  let wanted: NewDoc<"shopListings">[] = [];
  if (shop && isShopPublic(publicShopStatus(shop))) {
    const known = linksChanged ? undefined : existing[0]?.facets;
    const facets = known ?? (await shopFacets(ctx, liveShopId));
    wanted = shopListingRows(shop, facets, await shopPlatformTypes(ctx, liveShopId));
  }
  await replaceListingRows(ctx, "shopListings", existing, wanted, now);
}

const NO_FACETS: ExploreFacets = { categories: [], subcategories: [], msas: [], states: [] };

/** The shop's own fields its search text reads beyond its card. */
function shopSearchFields(shop: Doc<"liveShops">) {
  return [shop.description, shop.productsSummary, shop.products.map((product) => product.name)];
}

/**
 * Whether a change to a shop row can change its card, its search text or its listing (a restriction
 * of its owner too).
 */
export function shopListingInputsChanged(before: Doc<"liveShops">, after: Doc<"liveShops">): boolean {
  return (
    publicShopStatus(before) !== publicShopStatus(after) ||
    canonicalJson(toShopCard(before, NO_FACETS)) !== canonicalJson(toShopCard(after, NO_FACETS)) ||
    canonicalJson(shopSearchFields(before)) !== canonicalJson(shopSearchFields(after))
  );
}

// ---------------------------------------------------------------------------------------------------
// Rebuilding everything (the `explore:rebuildListings` migration)

export const REBUILD_PHASES = ["streams", "shops", "streamOrphans", "shopOrphans"] as const;
export type RebuildPhase = (typeof REBUILD_PHASES)[number];

/** Items per rebuild batch: each stream reads a handful of rows and writes about a dozen. */
const REBUILD_BATCH_SIZE = 100;

async function deleteListingRows<T extends ListingTable>(ctx: MutationCtx, table: T, rows: Doc<T>[]) {
  await replaceListingRows(ctx, table, rows, [], Date.now());
}

/** One batch of one phase; schedules the next batch, or the next phase, until all are done. */
export async function rebuildListingsBatch(
  ctx: MutationCtx,
  phase: RebuildPhase,
  cursor: string | null,
): Promise<{ phase: RebuildPhase; processed: number; done: boolean }> {
  const request = { numItems: REBUILD_BATCH_SIZE, cursor };
  let batch: { isDone: boolean; continueCursor: string };
  let processed = 0;
  switch (phase) {
    case "streams": {
      const page = await ctx.db.query("streams").paginate(request);
      for (const stream of page.page) await syncStreamListings(ctx, stream._id, { linksChanged: true });
      [batch, processed] = [page, page.page.length];
      break;
    }
    case "shops": {
      const page = await ctx.db.query("liveShops").paginate(request);
      for (const shop of page.page) await syncShopListings(ctx, shop._id, { linksChanged: true });
      [batch, processed] = [page, page.page.length];
      break;
    }
    case "streamOrphans": {
      const page = await ctx.db.query("streamListings").paginate(request);
      const streamIds = new Set(page.page.map((row) => row.streamId));
      for (const streamId of streamIds) {
        if (await ctx.db.get("streams", streamId)) continue;
        await deleteListingRows(ctx, "streamListings", await listStreamListingRows(ctx, streamId));
        processed++;
      }
      batch = page;
      break;
    }
    case "shopOrphans": {
      const page = await ctx.db.query("shopListings").paginate(request);
      const shopIds = new Set(page.page.map((row) => row.liveShopId));
      for (const liveShopId of shopIds) {
        if (await ctx.db.get("liveShops", liveShopId)) continue;
        await deleteListingRows(ctx, "shopListings", await listShopListingRows(ctx, liveShopId));
        processed++;
      }
      batch = page;
      break;
    }
  }
  const next = REBUILD_PHASES[REBUILD_PHASES.indexOf(phase) + 1];
  if (!batch.isDone) {
    await ctx.scheduler.runAfter(0, internal.explore.rebuildListings, {
      phase,
      cursor: batch.continueCursor,
    });
  } else if (next) {
    await ctx.scheduler.runAfter(0, internal.explore.rebuildListings, { phase: next, cursor: null });
  }
  return { phase, processed, done: batch.isDone && next === undefined };
}
