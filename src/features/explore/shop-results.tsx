import { ShopCard } from "@/components/shops/shop-card";
import { api } from "@convex/_generated/api";
import type { ExploreFilter } from "@convex/lib/explore";
import { ExploreResults } from "./explore-results";

const NOUNS = { plural: "shops", singular: "shop", list: "live shops" };

/** The live shops matching the filter, by name, each with its live badge (decision 012). */
export function ShopResults({ filter, onClear }: { filter: ExploreFilter; onClear: () => void }) {
  return (
    <ExploreResults
      query={api.explore.listExploreShops}
      filter={filter}
      onClear={onClear}
      nouns={NOUNS}
      renderItem={(shop, priority) => <ShopCard shop={shop} priority={priority} />}
    />
  );
}
