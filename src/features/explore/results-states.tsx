import { Button } from "@/components/ui/button";
import { CardSkeleton } from "@/components/ui/card-skeleton";
import { Icon } from "@/components/ui/icon";
import type { ExploreFilter } from "@convex/lib/explore";

/** Card-shaped placeholders while the first page loads. */
export function ResultsSkeleton({ label }: { label: string }) {
  return (
    <div
      className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3"
      aria-busy="true"
      role="status"
      aria-label={label}
    >
      {[0, 1, 2, 3, 4, 5].map((key) => (
        <CardSkeleton key={key} />
      ))}
    </div>
  );
}

/**
 * "No shows match…", naming the search text when there is some. `nothing` is what an empty list
 * without filters or search says ("No shows are live right now"); the filters follow it.
 */
export function emptyMessage(noun: string, filter: ExploreFilter, nothing?: string): string {
  const choices =
    filter.categories.length + filter.subcategories.length + filter.states.length + filter.msas.length;
  if (nothing) {
    if (!filter.q && choices === 0) return `${nothing}.`;
    const what = [filter.q ? `“${filter.q}”` : "", choices > 0 ? "your filters" : ""].filter(Boolean);
    return `${nothing} that match ${what.join(" and ")}.`;
  }
  if (!filter.q) return `No ${noun} match your filters.`;
  return choices > 0
    ? `No ${noun} match “${filter.q}” with your filters.`
    : `No ${noun} match “${filter.q}”.`;
}

/** Nothing matched: says so and offers to start again without filters. */
export function ResultsEmpty({ message, onClear }: { message: string; onClear: () => void }) {
  return (
    <div className="rounded-2xl border border-dashed border-slate-300 px-6 py-12 text-center dark:border-slate-700">
      <Icon name="lucide:search-x" className="mx-auto size-10 text-slate-400" />
      <p className="mt-3 font-medium [overflow-wrap:anywhere]">{message}</p>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
        Try fewer filters, another place, or different words.
      </p>
      <Button variant="outline" className="mt-5" onClick={onClear}>
        Clear filters
      </Button>
    </div>
  );
}

type LoadMoreProps = { status: string; onLoadMore: () => void; noun: string };

/** "Load more" under the grid while the server has more; says when the list is complete. */
export function LoadMore({ status, onLoadMore, noun }: LoadMoreProps) {
  if (status === "Exhausted") {
    return (
      <p className="mt-8 text-center text-sm text-slate-500 dark:text-slate-400">That’s every {noun}.</p>
    );
  }
  const loading = status === "LoadingMore";
  return (
    <div className="mt-8 flex justify-center">
      <Button variant="outline" onClick={onLoadMore} disabled={loading} aria-busy={loading}>
        {loading && <Icon name="lucide:loader-circle" className="size-4 animate-spin" />}
        {loading ? "Loading…" : "Load more"}
      </Button>
    </div>
  );
}
