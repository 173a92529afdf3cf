import { usePaginatedQuery } from "convex-helpers/react";
import type { FunctionReference, PaginationOptions, PaginationResult } from "convex/server";
import { useEffect, type ReactNode } from "react";
import { PRIORITY_CARDS } from "@/components/streams/stream-card";
import type { ExploreFilter } from "@convex/lib/explore";
import { emptyMessage, LoadMore, ResultsEmpty, ResultsSkeleton } from "./results-states";

const PAGE_SIZE = 12;

type ExploreQuery<Item> = FunctionReference<
  "query",
  "public",
  { filter: ExploreFilter; paginationOpts: PaginationOptions },
  PaginationResult<Item>
>;

type ExploreResultsProps<Item extends { _id: string }> = {
  query: ExploreQuery<Item>;
  filter: ExploreFilter;
  onClear: () => void;
  /** How the list speaks of its items: "shows" / "show", "live shops" / "shop". */
  nouns: { plural: string; singular: string; list: string };
  /** A card; `priority` for the first row, whose pictures load at once. */
  renderItem: (item: Item, priority: boolean) => ReactNode;
};

/**
 * An explore list matching the filter, in the server's order, as a live subscription: an item changing
 * (a show going live) moves with its badge, without reload. convex-helpers' usePaginatedQuery keeps
 * loaded pages gapless as the list changes (decision 012).
 */
export function ExploreResults<Item extends { _id: string }>({
  query,
  filter,
  onClear,
  nouns,
  renderItem,
}: ExploreResultsProps<Item>) {
  const { results, status, loadMore } = usePaginatedQuery(query, { filter }, { initialNumItems: PAGE_SIZE });
  // A search page may hold fewer results than asked while more remain (decision 012): keep going.
  const sparse = status === "CanLoadMore" && results.length < PAGE_SIZE;
  useEffect(() => {
    if (sparse) loadMore(PAGE_SIZE);
  }, [sparse, loadMore]);

  if (status === "LoadingFirstPage") return <ResultsSkeleton label={`Loading ${nouns.plural}`} />;
  if (results.length === 0 && status === "Exhausted") {
    return <ResultsEmpty message={emptyMessage(nouns.list, filter)} onClear={onClear} />;
  }
  return (
    <>
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label={capitalize(nouns.list)}>
        {results.map((item, index) => (
          <li key={item._id}>{renderItem(item, index < PRIORITY_CARDS)}</li>
        ))}
      </ul>
      <LoadMore status={status} onLoadMore={() => loadMore(PAGE_SIZE)} noun={nouns.singular} />
    </>
  );
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
