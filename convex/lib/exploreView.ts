/**
 * Explore's views (decision 031) as the URL and the labels know them: the "when" values, the sorts,
 * and `?when=…&sort=…`. No dates here, so the app's header (its first script) can link to a view
 * without the time-window code of ./exploreWhen.
 */

export const EXPLORE_WHENS = ["upcoming", "live", "today", "weekend", "week", "replays"] as const;
export type ExploreWhen = (typeof EXPLORE_WHENS)[number];

export const EXPLORE_SORTS = ["soonest", "newest"] as const;
export type ExploreSort = (typeof EXPLORE_SORTS)[number];

/**
 * A stream list's view. `day` ("2026-11-21") and `timeZone` (IANA) are the viewer's today, needed by
 * the windows (today, weekend, week) only.
 */
export type ExploreView = { when: ExploreWhen; sort?: ExploreSort; day?: string; timeZone?: string };

export const WHEN_LABELS: Record<ExploreWhen, string> = {
  upcoming: "Live & upcoming",
  live: "Live now",
  today: "Today",
  weekend: "This weekend",
  week: "Next 7 days",
  replays: "Replays",
};

/**
 * "Recently added", not "Newest": on a list of dated shows, "newest" read as a date order and the
 * list's dates looked shuffled (issue 41). The URL keeps `sort=newest`, so shared links still work.
 */
export const SORT_LABELS: Record<ExploreSort, string> = { soonest: "Soonest", newest: "Recently added" };

/** The windows: views whose shows depend on the viewer's day. */
export function isDayWindow(when: ExploreWhen): boolean {
  return when === "today" || when === "weekend" || when === "week";
}

/**
 * The sorts a view offers. Only the full list of live and upcoming shows has a choice: soonest first,
 * or the newest listed first. A window is a time range read in time order, live now is the shows on
 * air by start, replays the most recent first.
 */
export function sortsOffered(when: ExploreWhen): readonly ExploreSort[] {
  return when === "upcoming" ? EXPLORE_SORTS : [];
}

/** The sort a view uses: the one asked for where offered, else soonest. */
export function effectiveSort(view: Pick<ExploreView, "when" | "sort">): ExploreSort {
  return view.sort && sortsOffered(view.when).includes(view.sort) ? view.sort : "soonest";
}

// ---------------------------------------------------------------------------------------------------
// URL

/** `?when=live&sort=newest`; the defaults (live and upcoming, soonest) are not written. */
export const VIEW_PARAMS = { when: "when", sort: "sort" } as const;

/** The view a URL asks for; unknown values read as the default, a sort not offered is dropped. */
export function parseExploreView(params: URLSearchParams | string): { when: ExploreWhen; sort: ExploreSort } {
  const search = typeof params === "string" ? new URLSearchParams(params) : params;
  const whenValue = search.get(VIEW_PARAMS.when) ?? "";
  const when = (EXPLORE_WHENS as readonly string[]).includes(whenValue)
    ? (whenValue as ExploreWhen)
    : "upcoming";
  const sortValue = search.get(VIEW_PARAMS.sort) ?? "";
  const sort = (EXPLORE_SORTS as readonly string[]).includes(sortValue)
    ? (sortValue as ExploreSort)
    : "soonest";
  return { when, sort: effectiveSort({ when, sort }) };
}

/** Writes a view into the URL's parameters (replacing any), leaving the defaults out. */
export function writeExploreView(
  params: URLSearchParams,
  view: { when: ExploreWhen; sort?: ExploreSort },
): void {
  params.delete(VIEW_PARAMS.when);
  params.delete(VIEW_PARAMS.sort);
  if (view.when !== "upcoming") params.set(VIEW_PARAMS.when, view.when);
  const sort = effectiveSort(view);
  if (sort !== "soonest") params.set(VIEW_PARAMS.sort, sort);
}

/** The query string of a view alone (`when=live`), for links that open it. */
export function exploreViewSearch(view: { when: ExploreWhen; sort?: ExploreSort }): string {
  const params = new URLSearchParams();
  writeExploreView(params, view);
  return params.toString();
}
