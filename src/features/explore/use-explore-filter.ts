import { useCallback, useMemo } from "react";
import { useSearchParams } from "react-router-dom";
import { exploreFilterToSearchParams, parseExploreFilter, type ExploreFilter } from "@convex/lib/explore";
import { EXPLORE_REFERENCE } from "@convex/lib/exploreListing";
import {
  parseExploreView,
  writeExploreView,
  type ExploreSort,
  type ExploreWhen,
} from "@convex/lib/exploreWhen";

export type ExploreFilterUpdate = (current: ExploreFilter) => ExploreFilter;

/**
 * The explore filter, kept in the URL query (docs/product.md#explore) and read and written only through
 * the shared rules module. Updates are functions of the current URL, so a debounced search and a
 * checkbox clicked meanwhile do not overwrite each other.
 */
export function useExploreFilter() {
  const [searchParams, setSearchParams] = useSearchParams();
  const raw = searchParams.toString();
  const filter = useMemo(() => parseExploreFilter(raw, EXPLORE_REFERENCE), [raw]);
  const search = useMemo(() => exploreFilterToSearchParams(filter).toString(), [filter]);

  const updateFilter = useCallback(
    (update: ExploreFilterUpdate, { replace = false }: { replace?: boolean } = {}) => {
      setSearchParams(
        (current) => {
          const next = exploreFilterToSearchParams(update(parseExploreFilter(current, EXPLORE_REFERENCE)));
          // The view (when, sort) is not part of the filter: a filter change keeps it.
          writeExploreView(next, parseExploreView(current));
          return next;
        },
        { replace, preventScrollReset: true },
      );
    },
    [setSearchParams],
  );

  return { filter, search, updateFilter };
}

/**
 * The stream list's view (decision 031) from the URL: `when` and `sort`, beside the filter.
 * `searchFor` gives the query string of another view, keeping the filter, for links.
 */
export function useExploreView() {
  const [searchParams, setSearchParams] = useSearchParams();
  const raw = searchParams.toString();
  const view = useMemo(() => parseExploreView(raw), [raw]);

  const searchFor = useCallback(
    (change: { when?: ExploreWhen; sort?: ExploreSort }) => {
      const params = new URLSearchParams(raw);
      writeExploreView(params, { ...parseExploreView(raw), ...change });
      return params.toString();
    },
    [raw],
  );

  const setSort = useCallback(
    (sort: ExploreSort) => {
      setSearchParams(
        (current) => {
          const params = new URLSearchParams(current);
          writeExploreView(params, { ...parseExploreView(current), sort });
          return params;
        },
        { preventScrollReset: true },
      );
    },
    [setSearchParams],
  );

  return { view, searchFor, setSort };
}
