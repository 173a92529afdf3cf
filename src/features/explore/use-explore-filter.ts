import { useCallback, useMemo } from "react";
import { useSearchParams } from "react-router-dom";
import { exploreFilterToSearchParams, parseExploreFilter, type ExploreFilter } from "@convex/lib/explore";
import { EXPLORE_REFERENCE } from "@convex/lib/exploreListing";

export type ExploreFilterUpdate = (current: ExploreFilter) => ExploreFilter;

/**
 * The explore filter, kept in the URL query (PRODUCT.md "Explore") and read and written only through
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
        (current) => exploreFilterToSearchParams(update(parseExploreFilter(current, EXPLORE_REFERENCE))),
        { replace, preventScrollReset: true },
      );
    },
    [setSearchParams],
  );

  return { filter, search, updateFilter };
}
