import { useState } from "react";
import { areaExploreHref, LiveMapSection, type AreaHref } from "@/components/live-map/live-map-section";
import { useMediaQuery } from "@/lib/use-media-query";
import type { ExploreSort, ExploreWhen } from "@convex/lib/exploreWhen";
import { ExplorePage } from "./explore-page";
import { StreamResults } from "./stream-results";
import { useExploreFilter, useExploreView } from "./use-explore-filter";
import { WhenFilter } from "./when-filter";

const TITLES: Record<ExploreWhen, string> = {
  upcoming: "Explore streams",
  live: "Live now",
  today: "Today’s shows",
  weekend: "This weekend",
  week: "The next 7 days",
  replays: "Replays",
};

function introFor(when: ExploreWhen, sort: ExploreSort, searching: boolean): string {
  if (searching) return "Shows on now first, then the best matches.";
  switch (when) {
    case "upcoming":
      return sort === "newest"
        ? "Shows on now first, then upcoming shows by when they were added, the latest first (not by date)."
        : "Shows on now first, then the soonest coming up.";
    case "live":
      return "On air right now, updating as sellers go live.";
    case "today":
      return "On now and starting today, in your time zone.";
    case "weekend":
      return "Starting Saturday or Sunday, in your time zone.";
    case "week":
      return "On now and starting in the next 7 days, in your time zone.";
    case "replays":
      return "Shows that have ended, the most recent first.";
  }
}

/** Tailwind's `lg`: room for the map above the results; a narrower screen shows the results first. */
const WIDE = "(min-width: 64rem)";

/**
 * The map on explore: shown above the results on a wide screen. On a phone it would push the shows a
 * screen or more down, so it waits behind a button there. The stylesheet says which, so the page the
 * server renders is already right and nothing moves when it starts; the map itself (its code and its
 * query) loads only where it is drawn.
 */
function MapOnExplore({ hrefFor }: { hrefFor: AreaHref }) {
  const [shown, setShown] = useState(false);
  const wide = useMediaQuery(WIDE);
  return (
    <section
      aria-labelledby="explore-map"
      className="rounded-2xl border border-slate-200 p-4 dark:border-slate-800"
    >
      <div className="flex items-center justify-between gap-3">
        <h2 id="explore-map" className="font-semibold">
          Map of shows by metro area
        </h2>
        <button
          type="button"
          className="shrink-0 text-sm font-medium text-primary-700 underline-offset-2 hover:underline focus-visible:underline lg:hidden dark:text-primary-100"
          aria-expanded={shown}
          aria-controls="explore-map-body"
          onClick={() => setShown(!shown)}
        >
          {shown ? "Hide the map" : "Show the map"}
        </button>
      </div>
      <div id="explore-map-body" className={shown ? "mt-4" : "mt-4 max-lg:hidden"}>
        <LiveMapSection hrefFor={hrefFor} load={shown || wide} />
      </div>
    </section>
  );
}

/** `/explore/streams`: the filter, and `when` (live now, today, …) with its sort (decision 031). */
export function ExploreStreamsPage() {
  const { view, searchFor, setSort } = useExploreView();
  const { filter } = useExploreFilter();
  const searching = filter.q !== undefined;
  return (
    <ExplorePage
      title={TITLES[view.when]}
      intro={introFor(view.when, view.sort, searching)}
      searchLabel="Search shows"
      toolbar={<WhenFilter when={view.when} searchFor={(when) => searchFor({ when })} />}
      map={<MapOnExplore hrefFor={(cbsaCode) => areaExploreHref(cbsaCode, { filter, view })} />}
      results={(filter, onClear) => (
        <StreamResults filter={filter} view={view} onSort={setSort} onClear={onClear} />
      )}
    />
  );
}
