/**
 * Explore's search (decision 030): the listing tables' search indexes over each item's normalized
 * search text. A query is one search per status group the view holds (so live shows are never crowded
 * out), then, for a long query word nobody's text holds as typed, a second bounded search with its
 * one-letter-deleted spellings. Every result is checked again with `matchSearch` (every word must
 * match) and the filter, a typo kept only for a word no result matched otherwise (decision 062), then
 * ranked: the shows on now first, then by relevance, then by time.
 *
 * Each search reads at most SEARCH_CANDIDATES rows, so a search reads a bounded number of documents
 * however many streams exist; what lies past those candidates is not found (the count says "50+").
 */
import type { Doc } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import { matchesExploreFilter, type ExploreFilter } from "../lib/explore";
import { ENDED_RANK, LIVE_RANKS, searchRankOf, UPCOMING_RANK } from "../lib/exploreListing";
import { inStartWindow } from "../lib/exploreWhen";
import {
  exactSearchText,
  matchSearch,
  parseSearchQuery,
  typoSearchText,
  withoutNeedlessTypos,
  wordsNeedingTypoSearch,
  type SearchMatch,
  type SearchQuery,
} from "../lib/searchText";
import type { ShopCard, StreamCard } from "../schema";
import { streamCardsOf } from "./cards";
import type { ReadView } from "./explorePages";
import { withLiveStatus } from "./explorePages";

/** Rows one search reads at most (per rank of a status group, per pass). */
export const SEARCH_CANDIDATES = 40;
/** Query words that get a typo search, at most. */
export const MAX_TYPO_SEARCHES = 2;
/** Results one search answers with at most. */
export const MAX_SEARCH_RESULTS = 50;

/** A search's answer: the best results, how many matched, and whether more may lie past the candidates. */
export type SearchResult<Card> = { results: Card[]; count: number; more: boolean };

type Searchable = { searchWords?: string[] };

/**
 * The candidates of every pass, each once, with its match; `search` runs one expression (over every
 * status group) and says whether any of its searches filled up.
 */
async function findMatches<Row extends Searchable>(
  query: SearchQuery,
  search: (text: string) => Promise<{ rows: Row[]; full: boolean }>,
  idOf: (row: Row) => string,
): Promise<{ matches: { row: Row; match: SearchMatch }[]; more: boolean }> {
  const first = await search(exactSearchText(query));
  const rows = [...first.rows];
  let more = first.full;
  const typoWords = wordsNeedingTypoSearch(
    query,
    first.rows.map((row) => row.searchWords ?? []),
    MAX_TYPO_SEARCHES,
  );
  for (const word of typoWords) {
    const text = typoSearchText(word);
    if (text === null) continue;
    const typos = await search(text);
    rows.push(...typos.rows);
    more ||= typos.full;
  }
  const seen = new Set<string>();
  const matches: { row: Row; match: SearchMatch }[] = [];
  for (const row of rows) {
    if (seen.has(idOf(row))) continue;
    seen.add(idOf(row));
    const match = matchSearch(query, row.searchWords ?? []);
    if (match) matches.push({ row, match });
  }
  return { matches, more };
}

function answer<Card>(cards: Card[], more: boolean): SearchResult<Card> {
  return {
    results: cards.slice(0, MAX_SEARCH_RESULTS),
    count: Math.min(cards.length, MAX_SEARCH_RESULTS),
    more: more || cards.length > MAX_SEARCH_RESULTS,
  };
}

// ---------------------------------------------------------------------------------------------------
// Streams

/**
 * The searches one view makes, live (and paused) shows first: each search rank it holds, with the rows
 * it takes, SEARCH_CANDIDATES for each rank it stands for.
 */
function searchRanks(view: ReadView): { searchRank: number; take: number }[] {
  const { live, upcoming, ended } = view.plan;
  return [
    ...(live
      ? [{ searchRank: searchRankOf(LIVE_RANKS[0]), take: SEARCH_CANDIDATES * LIVE_RANKS.length }]
      : []),
    ...(upcoming ? [{ searchRank: searchRankOf(UPCOMING_RANK), take: SEARCH_CANDIDATES }] : []),
    ...(ended ? [{ searchRank: searchRankOf(ENDED_RANK), take: SEARCH_CANDIDATES }] : []),
  ];
}

/**
 * Streams whose text matches the search, within the filter and view: the shows on now (live or paused,
 * as the lists order them: decision 046) first, then by relevance. Cards are read for the results only.
 */
export async function searchStreamListings(
  ctx: QueryCtx,
  filter: ExploreFilter,
  view: ReadView,
): Promise<SearchResult<StreamCard>> {
  const query = parseSearchQuery(filter.q ?? "");
  if (!query) return { results: [], count: 0, more: false };
  const ranks = searchRanks(view);
  const { matches, more } = await findMatches<Doc<"streamListings">>(
    query,
    async (text) => {
      // One search after another: each is small and bounded, and what a search read stays easy to follow.
      const rows: Doc<"streamListings">[] = [];
      let full = false;
      for (const { searchRank, take } of ranks) {
        const found = await ctx.db
          .query("streamListings")
          .withSearchIndex("search_searchText", (q) =>
            q.search("searchText", text).eq("searchRank", searchRank),
          )
          .take(take);
        rows.push(...found);
        full ||= found.length === take;
      }
      return { rows, full };
    },
    (row) => row.streamId,
  );
  const window = view.plan.upcoming;
  const kept = withoutNeedlessTypos(
    matches.filter(
      ({ row }) =>
        matchesExploreFilter(row.facets, filter) &&
        (row.rank !== UPCOMING_RANK || (window !== null && inStartWindow(row.sortKey, window))),
    ),
  );
  // On now first; then relevance; then the list's own order (soonest, or latest ended).
  kept.sort(
    (a, b) =>
      onNowGroup(a.row.rank) - onNowGroup(b.row.rank) ||
      b.match.score - a.match.score ||
      a.row.rank - b.row.rank ||
      a.row.sortKey - b.row.sortKey ||
      (a.row.streamId < b.row.streamId ? -1 : 1),
  );
  const best = answer(
    kept.map(({ row }) => row.streamId),
    more,
  );
  return { ...best, results: await streamCardsOf(ctx, best.results) };
}

function onNowGroup(rank: number): number {
  return searchRankOf(rank) === LIVE_RANKS[0] ? 0 : 1;
}

// ---------------------------------------------------------------------------------------------------
// Shops

const LIVE_ORDER: Record<string, number> = { LIVE: 0, PAUSED: 1 };

/** Public shops whose text matches the search, within the filter: live first, then by relevance. */
export async function searchShopListings(
  ctx: QueryCtx,
  filter: ExploreFilter,
): Promise<SearchResult<ShopCard>> {
  const query = parseSearchQuery(filter.q ?? "");
  if (!query) return { results: [], count: 0, more: false };
  const { matches, more } = await findMatches<Doc<"shopListings">>(
    query,
    async (text) => {
      const rows = await ctx.db
        .query("shopListings")
        .withSearchIndex("search_searchText", (q) => q.search("searchText", text))
        .take(SEARCH_CANDIDATES);
      return { rows, full: rows.length === SEARCH_CANDIDATES };
    },
    (row) => row.liveShopId,
  );
  const kept = withoutNeedlessTypos(matches.filter(({ row }) => matchesExploreFilter(row.facets, filter)));
  const ranked = [];
  for (const { row, match } of kept) ranked.push({ row, match, card: await withLiveStatus(ctx, row.card) });
  ranked.sort(
    (a, b) =>
      (LIVE_ORDER[a.card.liveStatus ?? ""] ?? 2) - (LIVE_ORDER[b.card.liveStatus ?? ""] ?? 2) ||
      b.match.score - a.match.score ||
      (a.row.sortKey < b.row.sortKey ? -1 : a.row.sortKey > b.row.sortKey ? 1 : 0),
  );
  return answer(
    ranked.map(({ card }) => card),
    more,
  );
}
