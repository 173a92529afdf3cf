import { StreamCard } from "@/components/streams/stream-card";
import { api } from "@convex/_generated/api";
import type { ExploreFilter } from "@convex/lib/explore";
import { ExploreResults } from "./explore-results";

const NOUNS = { plural: "shows", singular: "show", list: "shows" };

/** The streams matching the filter, live first then soonest (the server's order). */
export function StreamResults({ filter, onClear }: { filter: ExploreFilter; onClear: () => void }) {
  return (
    <ExploreResults
      query={api.explore.listExploreStreams}
      filter={filter}
      onClear={onClear}
      nouns={NOUNS}
      renderItem={(stream, priority) => <StreamCard stream={stream} priority={priority} />}
    />
  );
}
