import { ExplorePage } from "./explore-page";
import { StreamResults } from "./stream-results";

export function ExploreStreamsPage() {
  return (
    <ExplorePage
      title="Explore streams"
      intro="Live shows first, then the soonest coming up."
      searchLabel="Search shows"
      results={(filter, onClear) => <StreamResults filter={filter} onClear={onClear} />}
    />
  );
}
