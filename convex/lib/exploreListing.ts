/**
 * How the explore lists are indexed (decision 012): the keys a stream or shop is listed under, the index
 * ranges one filter reads, the order of the results, and what a filter argument may hold. Pure, beside
 * `explore.ts`, whose `matchesExploreFilter` stays the definition of a match: the ranges below only
 * find the candidates faster, and the backend still checks every candidate with it.
 */
import { MAX_SELECTED_MSAS, type StreamStatus } from "./constants";
import { SUBCATEGORY_SYNONYMS } from "./categorySynonyms";
import { CATEGORIES } from "./data/categories";
import { MSAS } from "./data/msas";
import { US_STATES } from "./data/states";
import {
  MAX_EXPLORE_QUERY_LENGTH,
  TOO_MANY_MSAS_MESSAGE,
  type ExploreFacets,
  type ExploreFilter,
  type ExploreReferenceData,
} from "./explore";
import { LIMITS } from "./limits";
import { shownStreamTimes, type StreamTimeFields } from "./shownTimes";

/** The reference data the backend matches filters against: the same bundled data the seed loads. */
export const EXPLORE_REFERENCE: ExploreReferenceData = { categories: CATEGORIES, msas: MSAS };

/** The key every listed item carries in each pair: "no restriction". */
export const ANY_KEY = "*";

// Prefixed, so a category and a subcategory (or a state and a metro area) can never share a key.
export const categoryKey = (categoryId: string): string => `category:${categoryId}`;
export const subcategoryKey = (subcategoryId: string): string => `subcategory:${subcategoryId}`;
export const stateKey = (state: string): string => `state:${state}`;
export const msaKey = (cbsaCode: string): string => `msa:${cbsaCode}`;

/** The category keys an item is listed under: "*", its categories and its subcategories. */
export function listingCategoryKeys(facets: ExploreFacets): string[] {
  return [ANY_KEY, ...facets.categories.map(categoryKey), ...facets.subcategories.map(subcategoryKey)];
}

/** The place keys an item is listed under: "*", its states and its metro areas. */
export function listingPlaceKeys(facets: ExploreFacets): string[] {
  return [ANY_KEY, ...facets.states.map(stateKey), ...facets.msas.map(msaKey)];
}

// ---------------------------------------------------------------------------------------------------
// Filter arguments

/** More values of one kind than any real selection holds (11 categories, 44 subcategories, 52 states). */
export const MAX_FILTER_VALUES = 60;

/**
 * Why a filter argument is refused, or null. Ids are at most 50 characters (docs/product.md#limits, category
 * id; no state or CBSA code is longer), at most 6 metro areas (docs/product.md#explore), search text at most
 * MAX_EXPLORE_QUERY_LENGTH. Unknown ids are not refused: normalizeExploreFilter drops them.
 */
export function exploreFilterRefusal(filter: ExploreFilter): string | null {
  const lists = [filter.categories, filter.subcategories, filter.states, filter.msas];
  if (lists.some((values) => values.length > MAX_FILTER_VALUES)) {
    return `A filter can hold at most ${MAX_FILTER_VALUES} values of each kind.`;
  }
  if (lists.some((values) => values.some((value) => value.length > LIMITS.categoryId))) {
    return `A filter value can be at most ${LIMITS.categoryId} characters long.`;
  }
  if (new Set(filter.msas).size > MAX_SELECTED_MSAS) return TOO_MANY_MSAS_MESSAGE;
  if ((filter.q ?? "").length > MAX_EXPLORE_QUERY_LENGTH) {
    return `Search text can be at most ${MAX_EXPLORE_QUERY_LENGTH} characters long.`;
  }
  return null;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/**
 * The filter with unknown ids and duplicates dropped, state codes in capitals and blank search text
 * removed, as `parseExploreFilter` would read it from a URL. Unlike a URL, the selection is taken as
 * given (no category invariant is restored): under OR it matches the same items either way.
 */
export function normalizeExploreFilter(
  filter: ExploreFilter,
  reference: ExploreReferenceData,
): ExploreFilter {
  const categoryIds = new Set(reference.categories.map((category) => category.id));
  const subcategoryIds = new Set(
    reference.categories.flatMap((category) => category.subcategories.map((sub) => sub.id)),
  );
  const states = new Set(reference.msas.flatMap((msa) => msa.states));
  const cbsaCodes = new Set(reference.msas.map((msa) => msa.cbsaCode));
  const q = (filter.q ?? "").trim();
  return {
    categories: unique(filter.categories).filter((id) => categoryIds.has(id)),
    subcategories: unique(filter.subcategories).filter((id) => subcategoryIds.has(id)),
    states: unique(filter.states.map((state) => state.trim().toUpperCase())).filter((code) =>
      states.has(code),
    ),
    msas: unique(filter.msas).filter((code) => cbsaCodes.has(code)),
    ...(q === "" ? {} : { q }),
  };
}

// ---------------------------------------------------------------------------------------------------
// Index ranges

export type ExploreRange = { categoryKey: string; placeKey: string };

/**
 * The ranges to read and whether they are exact. Exact ranges hold only matching items; otherwise a pair
 * was widened to "*" and the reader must check each candidate (it always does, with matchesExploreFilter).
 */
export type ExploreRangePlan = { ranges: ExploreRange[]; exact: boolean };

/** The most index ranges one page merges; a wider selection reads one pair broadly and checks the rest. */
export const MAX_EXPLORE_RANGES = 24;

/**
 * The category pair's keys under OR. A subcategory whose category is selected adds nothing: every item
 * tagged with the subcategory carries the category too (a link names both).
 */
function categoryPairKeys(filter: ExploreFilter, reference: ExploreReferenceData): string[] {
  if (filter.categories.length === 0 && filter.subcategories.length === 0) return [ANY_KEY];
  const selected = new Set(filter.categories);
  const parentOf = new Map(
    reference.categories.flatMap((category) => category.subcategories.map((sub) => [sub.id, category.id])),
  );
  return [
    ...filter.categories.map(categoryKey),
    ...filter.subcategories.filter((id) => !selected.has(parentOf.get(id) ?? "")).map(subcategoryKey),
  ];
}

/**
 * The place pair's keys under OR. A metro area in a selected state adds nothing: an item's states are
 * those of its metro areas.
 */
function placePairKeys(filter: ExploreFilter, reference: ExploreReferenceData): string[] {
  if (filter.states.length === 0 && filter.msas.length === 0) return [ANY_KEY];
  const selected = new Set(filter.states);
  const statesOf = new Map(reference.msas.map((msa) => [msa.cbsaCode, msa.states]));
  return [
    ...filter.states.map(stateKey),
    ...filter.msas
      .filter((code) => !(statesOf.get(code) ?? []).some((state) => selected.has(state)))
      .map(msaKey),
  ];
}

function crossRanges(categoryKeys: readonly string[], placeKeys: readonly string[]): ExploreRange[] {
  return categoryKeys.flatMap((category) =>
    placeKeys.map((place) => ({ categoryKey: category, placeKey: place })),
  );
}

/**
 * The index ranges for a (normalized) filter: one per category key × place key. An item matches the
 * filter exactly when it is listed under one of them, since the keys are the pairs' selections under
 * OR and the two pairs are ANDed. Past MAX_EXPLORE_RANGES, one pair is widened to "*".
 */
export function planExploreRanges(
  filter: ExploreFilter,
  reference: ExploreReferenceData,
  maxRanges = MAX_EXPLORE_RANGES,
): ExploreRangePlan {
  const categories = categoryPairKeys(filter, reference);
  const places = placePairKeys(filter, reference);
  if (categories.length * places.length <= maxRanges) {
    return { ranges: crossRanges(categories, places), exact: true };
  }
  if (categories.length <= maxRanges) return { ranges: crossRanges(categories, [ANY_KEY]), exact: false };
  if (places.length <= maxRanges) return { ranges: crossRanges([ANY_KEY], places), exact: false };
  return { ranges: crossRanges([ANY_KEY], [ANY_KEY]), exact: false };
}

// ---------------------------------------------------------------------------------------------------
// Order

/**
 * The shows on now (live and paused alike, decision 046), then upcoming, then ended; other statuses are
 * not listed. A pause or a resume, the busiest writes there are, then leaves every listing row alone.
 */
const STREAM_RANKS = { LIVE: 0, PAUSED: 0, SCHEDULED: 2, ENDED: 3 } as const;

/**
 * The ranks the shows on now are read under: 0, and 1, which paused shows had until decision 046 (a row
 * not yet rebuilt by `explore:rebuildListings` keeps it, and stays listed with the shows on now).
 */
export const LIVE_RANKS = [STREAM_RANKS.LIVE, 1] as const;
export const UPCOMING_RANK = STREAM_RANKS.SCHEDULED;
export const ENDED_RANK = STREAM_RANKS.ENDED;

/**
 * The rank search filters a listing row by (`streamListings.searchRank`, decision 045): its own, with
 * the older paused rank read as the live one.
 */
export function searchRankOf(rank: number): number {
  return (LIVE_RANKS as readonly number[]).includes(rank) ? LIVE_RANKS[0] : rank;
}

export type StreamListingOrder = { rank: number; sortKey: number; newestKey: number };

/**
 * Where a stream sorts, as two ascending numbers: the rank of its status, then a time, as shown
 * (`shownStreamTimes`, decision 058: when it went live or ended, else the plan). The shows on now by
 * start (earliest first), whether live or paused, upcoming ones soonest first, ended ones most recent
 * first (the stop time negated). A missing time sorts last within its rank. Null for a status the public
 * lists do not show.
 */
export function streamListingOrder(
  stream: StreamTimeFields & { _creationTime: number },
): StreamListingOrder | null {
  const rank = (STREAM_RANKS as Partial<Record<StreamStatus, number>>)[stream.streamStatus];
  if (rank === undefined) return null;
  const shown = shownStreamTimes(stream);
  if (stream.streamStatus === "ENDED") {
    // `0 - x`, not `-x`: a missing time gives 0, never -0, which an index would keep apart from 0.
    const sortKey = 0 - (shown.stop ?? shown.start ?? 0);
    return { rank, sortKey, newestKey: sortKey };
  }
  const sortKey = shown.start ?? Number.MAX_SAFE_INTEGER;
  // "Newest" lists upcoming shows by when they were added, the latest first; live ones stay by start.
  return {
    rank,
    sortKey,
    newestKey: stream.streamStatus === "SCHEDULED" ? 0 - stream._creationTime : sortKey,
  };
}

/**
 * Shops sort by name, without regard to case. (Not live first: that would rewrite a shop's rows on
 * every status change of its streams, the busiest write there is; the badge is read with the page.)
 */
export function shopSortKey(liveShopName: string): string {
  return liveShopName.trim().toLowerCase();
}

// ---------------------------------------------------------------------------------------------------
// Search text

/**
 * The names an item's facets stand for, as a buyer would type them: its categories' and
 * subcategories' labels, its metro areas' names and its states' names; and, apart, what its
 * subcategories hold by the category tree's descriptions and their synonyms (decision 062). From the
 * bundled reference data, so no reads.
 */
export function facetSearchTexts(facets: ExploreFacets): {
  categories: string[];
  areas: string[];
  categoryWords: string[];
} {
  const subcategories = CATEGORIES.flatMap((category) =>
    category.subcategories.filter((sub) => facets.subcategories.includes(sub.id)),
  );
  const categories = CATEGORIES.flatMap((category) => [
    ...(facets.categories.includes(category.id) ? [category.label] : []),
    ...category.subcategories.filter((sub) => facets.subcategories.includes(sub.id)).map((sub) => sub.label),
  ]);
  const areas = [
    ...MSAS.filter((msa) => facets.msas.includes(msa.cbsaCode)).map((msa) => msa.name),
    ...US_STATES.filter((state) => facets.states.includes(state.code)).map((state) => state.name),
  ];
  const categoryWords = subcategories.flatMap((sub) => [
    sub.description,
    ...(SUBCATEGORY_SYNONYMS[sub.id] ?? []),
  ]);
  return { categories, areas, categoryWords };
}
