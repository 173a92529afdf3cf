import type { ReactNode } from "react";
import { useDocumentTitle } from "@/lib/use-document-title";
import { emptyExploreFilter, type ExploreFilter } from "@convex/lib/explore";
import { ExploreTabs } from "./explore-tabs";
import { FilterChips } from "./filter-chips";
import { FilterMenu } from "./filter-menu";
import { SearchBox } from "./search-box";
import { useExploreFilter } from "./use-explore-filter";

type ExplorePageProps = {
  title: string;
  intro: string;
  searchLabel: string;
  /** Under the search box, across the page: the stream list's "when". */
  toolbar?: ReactNode;
  /** Above the filter and the results: the live map, on the stream list. */
  map?: ReactNode;
  results: (filter: ExploreFilter, onClear: () => void) => ReactNode;
};

/**
 * The frame both explore lists share: heading, tabs, search, filter menu, chips, then the results.
 * "Clear filters" keeps the view (when, sort): it clears the filter and the search text only.
 */
export function ExplorePage({ title, intro, searchLabel, toolbar, map, results }: ExplorePageProps) {
  useDocumentTitle(title);
  const { filter, search, updateFilter } = useExploreFilter();
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
          <p className="mt-1 text-slate-600 dark:text-slate-300">{intro}</p>
        </div>
        <ExploreTabs search={search} />
      </div>
      <div className="mt-6 flex gap-2">
        <div className="min-w-0 flex-1">
          <SearchBox q={filter.q ?? ""} label={searchLabel} onUpdate={updateFilter} />
        </div>
      </div>
      {toolbar && <div className="mt-4">{toolbar}</div>}
      {map && <div className="mt-6">{map}</div>}
      <div className="mt-6 grid gap-8 md:grid-cols-[16rem_1fr]">
        <aside aria-label="Filter the list" className="max-md:flex max-md:items-start">
          <FilterMenu filter={filter} onUpdate={updateFilter} />
        </aside>
        <section aria-labelledby="explore-results-heading" className="min-w-0 space-y-4">
          {/* Cards are h3s; this keeps the outline h1 → h2 → h3 for screen-reader navigation. */}
          <h2 id="explore-results-heading" className="sr-only">
            Results
          </h2>
          <FilterChips filter={filter} onUpdate={updateFilter} />
          {results(filter, () => updateFilter(() => emptyExploreFilter()))}
        </section>
      </div>
    </div>
  );
}
