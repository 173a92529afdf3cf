import { usePaginatedQuery } from "convex-helpers/react";
import { useEffect } from "react";
import { api } from "@convex/_generated/api";
import type { ExploreFilter } from "@convex/lib/explore";
import { emptyMessage, LoadMore, ResultsEmpty, ResultsSkeleton } from "./results-states";
import { PRIORITY_CARDS } from "@/components/streams/stream-card";
import { ShopCard } from "./shop-card";

const PAGE_SIZE = 12;

/** The live shops matching the filter, by name, each with its live badge (decision 012). */
export function ShopResults({ filter, onClear }: { filter: ExploreFilter; onClear: () => void }) {
  const { results, status, loadMore } = usePaginatedQuery(
    api.explore.listExploreShops,
    { filter },
    { initialNumItems: PAGE_SIZE },
  );
  const sparse = status === "CanLoadMore" && results.length < PAGE_SIZE;
  useEffect(() => {
    if (sparse) loadMore(PAGE_SIZE);
  }, [sparse, loadMore]);

  if (status === "LoadingFirstPage") return <ResultsSkeleton label="Loading shops" />;
  if (results.length === 0 && status === "Exhausted") {
    return <ResultsEmpty message={emptyMessage("live shops", filter)} onClear={onClear} />;
  }
  return (
    <>
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label="Live shops">
        {results.map((shop, index) => (
          <li key={shop._id}>
            <ShopCard shop={shop} priority={index < PRIORITY_CARDS} />
          </li>
        ))}
      </ul>
      <LoadMore status={status} onLoadMore={() => loadMore(PAGE_SIZE)} noun="shop" />
    </>
  );
}
