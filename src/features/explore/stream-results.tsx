import { usePaginatedQuery } from "convex-helpers/react";
import { useEffect } from "react";
import { PRIORITY_CARDS, StreamCard } from "@/components/streams/stream-card";
import { api } from "@convex/_generated/api";
import type { ExploreFilter } from "@convex/lib/explore";
import { emptyMessage, LoadMore, ResultsEmpty, ResultsSkeleton } from "./results-states";

const PAGE_SIZE = 12;

/**
 * The streams matching the filter, live first then soonest (the server's order), as a live
 * subscription: a show going live moves up with its badge, without reload. convex-helpers'
 * usePaginatedQuery keeps loaded pages gapless as the list changes (decision 012).
 */
export function StreamResults({ filter, onClear }: { filter: ExploreFilter; onClear: () => void }) {
  const { results, status, loadMore } = usePaginatedQuery(
    api.explore.listExploreStreams,
    { filter },
    { initialNumItems: PAGE_SIZE },
  );
  // A search page may hold fewer results than asked while more remain (decision 012): keep going.
  const sparse = status === "CanLoadMore" && results.length < PAGE_SIZE;
  useEffect(() => {
    if (sparse) loadMore(PAGE_SIZE);
  }, [sparse, loadMore]);

  if (status === "LoadingFirstPage") return <ResultsSkeleton label="Loading shows" />;
  if (results.length === 0 && status === "Exhausted") {
    return <ResultsEmpty message={emptyMessage("shows", filter)} onClear={onClear} />;
  }
  return (
    <>
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label="Shows">
        {results.map((stream, index) => (
          <li key={stream._id}>
            <StreamCard stream={stream} priority={index < PRIORITY_CARDS} />
          </li>
        ))}
      </ul>
      <LoadMore status={status} onLoadMore={() => loadMore(PAGE_SIZE)} noun="show" />
    </>
  );
}
