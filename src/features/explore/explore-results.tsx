import type { FunctionReference, PaginationOptions, PaginationResult } from "convex/server";
import { useState, type ReactNode } from "react";
import { PRIORITY_CARDS } from "@/components/streams/stream-card";
import { Button } from "@/components/ui/button";
import { usePagePaginatedQuery, usePageQuery } from "@/lib/page-query";
import type { ExploreFilter } from "@convex/lib/explore";
import type { ExploreView } from "@convex/lib/exploreWhen";
import { LoadMore, ResultsEmpty, ResultsSkeleton } from "./results-states";

const PAGE_SIZE = 12;

/** What every explore query takes: the filter, and for streams the view (decision 031). */
type Args = { filter: ExploreFilter; view?: ExploreView };
type Count = { count: number; more: boolean };

type ListQuery<Item> = FunctionReference<
  "query",
  "public",
  Args & { paginationOpts: PaginationOptions },
  PaginationResult<Item>
>;
type CountQuery = FunctionReference<"query", "public", Args, Count>;
type SearchQuery<Item> = FunctionReference<
  "query",
  "public",
  Args,
  { results: Item[]; count: number; more: boolean }
>;

/** How a list speaks of its items: "shows" / "show", and its list's accessible name. */
export type ResultNouns = { plural: string; singular: string; list: string };

type SharedProps<Item> = {
  nouns: ResultNouns;
  /** What "nothing found" says, and its way out. */
  empty: { message: string; onClear: () => void };
  /** Beside the count: the sort, where the list offers one. */
  controls?: ReactNode;
  /** A card; `priority` for the first row, whose pictures load at once. */
  renderItem: (item: Item, priority: boolean) => ReactNode;
};

/** "14 shows", "100+ shows", "1 show": the count the server answered, as a live region. */
export function ResultsCount({ count, nouns }: { count: Count | undefined; nouns: ResultNouns }) {
  const text =
    count === undefined
      ? ""
      : `${count.count}${count.more ? "+" : ""} ${count.count === 1 && !count.more ? nouns.singular : nouns.plural}`;
  return (
    <p aria-live="polite" className="text-sm font-medium text-slate-600 dark:text-slate-300">
      {text}
    </p>
  );
}

function ResultsHeader({
  count,
  nouns,
  controls,
}: {
  count: Count | undefined;
  nouns: ResultNouns;
  controls?: ReactNode;
}) {
  return (
    <div className="flex min-h-9 flex-wrap items-center justify-between gap-3">
      <ResultsCount count={count} nouns={nouns} />
      {controls}
    </div>
  );
}

function ResultsGrid<Item extends { _id: string }>({
  items,
  nouns,
  renderItem,
}: {
  items: Item[];
  nouns: ResultNouns;
  renderItem: (item: Item, priority: boolean) => ReactNode;
}) {
  return (
    <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label={capitalize(nouns.list)}>
      {items.map((item, index) => (
        <li key={item._id}>{renderItem(item, index < PRIORITY_CARDS)}</li>
      ))}
    </ul>
  );
}

/**
 * An explore list in the server's order, as a live subscription: an item changing (a show going live)
 * moves with its badge, without reload. convex-helpers' usePaginatedQuery keeps loaded pages gapless
 * as the list changes (decision 012); the count is its own small query (decision 031).
 */
export function ExploreResults<Item extends { _id: string }>({
  query,
  countQuery,
  args,
  nouns,
  empty,
  controls,
  renderItem,
}: SharedProps<Item> & { query: ListQuery<Item>; countQuery: CountQuery; args: Args }) {
  const {
    results,
    status: pageStatus,
    loadMore,
  } = usePagePaginatedQuery(query, args, {
    initialNumItems: PAGE_SIZE,
  });
  const count = usePageQuery(countQuery, args);
  // A page that ends exactly at the end of the list still says "more": the count knows better.
  const complete = count !== undefined && !count.more && results.length >= count.count;
  const status = complete && pageStatus === "CanLoadMore" ? "Exhausted" : pageStatus;

  if (status === "LoadingFirstPage") return <ResultsSkeleton label={`Loading ${nouns.plural}`} />;
  if (results.length === 0 && status === "Exhausted") {
    return (
      <>
        <ResultsHeader count={count} nouns={nouns} controls={controls} />
        <ResultsEmpty message={empty.message} onClear={empty.onClear} />
      </>
    );
  }
  return (
    <>
      <ResultsHeader count={count} nouns={nouns} controls={controls} />
      <ResultsGrid items={results} nouns={nouns} renderItem={renderItem} />
      <LoadMore status={status} onLoadMore={() => loadMore(PAGE_SIZE)} noun={nouns.singular} />
    </>
  );
}

/**
 * What search text finds (decision 030): the server answers the best matches at once, those on now
 * (live shows and shops) first, then by relevance, with their count; they are shown a page at a time.
 */
export function SearchResults<Item extends { _id: string }>({
  query,
  args,
  nouns,
  empty,
  renderItem,
}: SharedProps<Item> & { query: SearchQuery<Item>; args: Args }) {
  const found = usePageQuery(query, args);
  // A new search starts again at one page.
  const key = JSON.stringify(args);
  const [paging, setPaging] = useState({ key, shown: PAGE_SIZE });
  const shown = paging.key === key ? paging.shown : PAGE_SIZE;

  if (found === undefined) return <ResultsSkeleton label={`Searching ${nouns.plural}`} />;
  const header = <ResultsHeader count={found} nouns={nouns} />;
  if (found.results.length === 0) {
    return (
      <>
        {header}
        <ResultsEmpty message={empty.message} onClear={empty.onClear} />
      </>
    );
  }
  const rest = found.results.length - shown;
  return (
    <>
      {header}
      <ResultsGrid items={found.results.slice(0, shown)} nouns={nouns} renderItem={renderItem} />
      <div className="mt-8 flex justify-center">
        {rest > 0 ? (
          <Button variant="outline" onClick={() => setPaging({ key, shown: shown + PAGE_SIZE })}>
            Show more
          </Button>
        ) : (
          <p className="text-center text-sm text-slate-500 dark:text-slate-400">
            {found.more
              ? "These are the best matches. Add a word to narrow them."
              : `That’s every ${nouns.singular}.`}
          </p>
        )}
      </div>
    </>
  );
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
