import { ExplorePage } from "./explore-page";
import { ShopResults } from "./shop-results";

export function ExploreShopsPage() {
  return (
    <ExplorePage
      title="Explore live shops"
      intro="Local sellers who go live, by category and place."
      searchLabel="Search shops"
      results={(filter, onClear) => <ShopResults filter={filter} onClear={onClear} />}
    />
  );
}
