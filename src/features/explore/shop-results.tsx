import { useMemo } from "react";
import { ShopCard } from "@/components/shops/shop-card";
import { api } from "@convex/_generated/api";
import type { ExploreFilter } from "@convex/lib/explore";
import type { ShopCard as ShopCardData } from "@convex/schema";
import { ExploreResults, SearchResults } from "./explore-results";
import { emptyMessage } from "./results-states";

const NOUNS = { plural: "shops", singular: "shop", list: "live shops" };

/**
 * The live shops matching the filter, by name, each with its live badge (decision 012); with search
 * text, what the search finds, live first then by relevance (decision 030).
 */
export function ShopResults({ filter, onClear }: { filter: ExploreFilter; onClear: () => void }) {
  const args = useMemo(() => ({ filter }), [filter]);
  const empty = { message: emptyMessage(NOUNS.list, filter), onClear };
  const renderItem = (shop: ShopCardData, priority: boolean) => <ShopCard shop={shop} priority={priority} />;
  if (filter.q) {
    return (
      <SearchResults
        query={api.explore.searchExploreShops}
        args={args}
        nouns={NOUNS}
        empty={empty}
        renderItem={renderItem}
      />
    );
  }
  return (
    <ExploreResults
      query={api.explore.listExploreShops}
      countQuery={api.explore.countExploreShops}
      args={args}
      nouns={NOUNS}
      empty={empty}
      renderItem={renderItem}
    />
  );
}
