import { useState, type ReactNode } from "react";
import { areaExploreHref, LiveMapSection } from "@/components/live-map/live-map-section";
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

/**
 * The map on explore: shown above the results on a wide screen. On a phone it would push the shows a
 * screen or more down, so it waits behind a button there. Which is which is the stylesheet's to say,
 * so the page the server renders is already right and nothing moves when it starts.
 */
function MapOnExplore({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState(false);
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
          className="text-sm font-medium text-primary-700 shrink-0 underline-offset-2 hover:underline focus-visible:underline lg:hidden dark:text-primary-100"
          aria-expanded={shown}
          aria-controls="explore-map-body"
          onClick={() => setShown(!shown)}
        >
          {shown ? "Hide the map" : "Show the map"}
        </button>
      </div>
      <div id="explore-map-body" className={shown ? "mt-4" : "mt-4 max-lg:hidden"}>
        {children}
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
      map={
        <MapOnExplore>
          <LiveMapSection hrefFor={(cbsaCode) => areaExploreHref(cbsaCode, { filter, view })} />
        </MapOnExplore>
      }
      results={(filter, onClear) => (
        <StreamResults filter={filter} view={view} onSort={setSort} onClear={onClear} />
      )}
    />
  );
}
