import { useMemo } from "react";
import { StreamCard } from "@/components/streams/stream-card";
import { useViewerDay } from "@/lib/viewer-time-zone";
import { api } from "@convex/_generated/api";
import type { ExploreFilter } from "@convex/lib/explore";
import { isDayWindow, sortsOffered, type ExploreSort, type ExploreWhen } from "@convex/lib/exploreWhen";
import { ExploreResults, SearchResults } from "./explore-results";
import { emptyMessage } from "./results-states";
import { SortSelect } from "./sort-select";

const NOUNS = { plural: "shows", singular: "show", list: "shows" };

/** What an empty view says before naming the filters. */
const NOTHING: Record<ExploreWhen, string> = {
  upcoming: "No live or upcoming shows",
  live: "No shows are live right now",
  today: "No shows today",
  weekend: "No shows this weekend",
  week: "No shows in the next 7 days",
  replays: "No replays",
};

type StreamResultsProps = {
  filter: ExploreFilter;
  view: { when: ExploreWhen; sort: ExploreSort };
  onSort: (sort: ExploreSort) => void;
  onClear: () => void;
};

/**
 * The streams in the filter and view (decision 031), in the server's order; with search text, what the
 * search finds, the shows on now first then by relevance (decisions 030, 046). The day windows are the
 * viewer's days.
 */
export function StreamResults({ filter, view, onSort, onClear }: StreamResultsProps) {
  const viewerDay = useViewerDay();
  const windowed = isDayWindow(view.when);
  const args = useMemo(
    () => ({ filter, view: { when: view.when, sort: view.sort, ...(windowed ? viewerDay : {}) } }),
    [filter, view.when, view.sort, windowed, viewerDay],
  );
  const empty = { message: emptyMessage(NOUNS.list, filter, NOTHING[view.when]), onClear };
  const renderItem = (stream: Parameters<typeof StreamCard>[0]["stream"], priority: boolean) => (
    <StreamCard stream={stream} priority={priority} />
  );
  if (filter.q) {
    return (
      <SearchResults
        query={api.explore.searchExploreStreams}
        args={args}
        nouns={NOUNS}
        empty={empty}
        renderItem={renderItem}
      />
    );
  }
  const sorts = sortsOffered(view.when);
  return (
    <ExploreResults
      query={api.explore.listExploreStreams}
      countQuery={api.explore.countExploreStreams}
      args={args}
      nouns={NOUNS}
      empty={empty}
      controls={sorts.length > 1 && <SortSelect sort={view.sort} sorts={sorts} onChange={onSort} />}
      renderItem={renderItem}
    />
  );
}
