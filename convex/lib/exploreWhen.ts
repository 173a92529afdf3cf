/**
 * Explore's "when" (decision 031): which shows a stream list holds by time — every live and upcoming
 * show (the default), live now, today, this weekend, the next 7 days, or the replays of ended shows —
 * and in which order. Days are the viewer's: the browser sends its calendar day and time zone, and
 * both sides turn them into the same start-time window here (pure, no clock read).
 */
import { TZDate } from "@date-fns/tz";
import { isValidTimeZone } from "./time";

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

export const SORT_LABELS: Record<ExploreSort, string> = { soonest: "Soonest", newest: "Newest" };

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
// Days and windows

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The calendar day of `utcMs` in the zone, as "yyyy-mm-dd". */
export function calendarDay(utcMs: number, timeZone: string): string {
  const date = new TZDate(utcMs, timeZone);
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

function parseDay(day: string): { year: number; month: number; date: number } | null {
  const match = DAY_PATTERN.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  const check = new Date(Date.UTC(year, month, date));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month || check.getUTCDate() !== date) {
    return null;
  }
  if (year < 2000 || year > 2200) return null;
  return { year, month, date };
}

/** Why a view is refused, or null: a window needs a real day and a known time zone. */
export function exploreViewRefusal(view: ExploreView): string | null {
  if (!isDayWindow(view.when)) return null;
  if (view.day === undefined || parseDay(view.day) === null) {
    return "Today, this weekend and the next 7 days need your calendar day (yyyy-mm-dd).";
  }
  if (view.timeZone === undefined || view.timeZone.length > 100 || !isValidTimeZone(view.timeZone)) {
    return "Today, this weekend and the next 7 days need your time zone.";
  }
  return null;
}

/** Start times in [from, before); either end open. */
export type StartWindow = { from?: number; before?: number };

/**
 * What a view holds, by status: the shows on now (live and paused), upcoming shows (those starting in
 * the window, or all), ended shows.
 */
export type WhenPlan = { live: boolean; upcoming: StartWindow | null; ended: boolean };

/**
 * The plan of a view (already checked with exploreViewRefusal). Days run midnight to midnight in the
 * viewer's zone (23 or 25 hours across a DST change). Today and the next 7 days (today and the six
 * after it) include the shows on now; this weekend is Saturday and Sunday, the coming one on a weekday,
 * the current one on a Saturday or Sunday, when the shows on now are part of it.
 */
export function planExploreWhen(view: ExploreView): WhenPlan {
  switch (view.when) {
    case "upcoming":
      return { live: true, upcoming: {}, ended: false };
    case "live":
      return { live: true, upcoming: null, ended: false };
    case "replays":
      return { live: false, upcoming: null, ended: true };
    default:
      break;
  }
  const day = parseDay(view.day ?? "");
  const timeZone = view.timeZone ?? "";
  if (!day || !isValidTimeZone(timeZone)) throw new Error(exploreViewRefusal(view) ?? "Invalid view.");
  const midnight = (offset: number) => new TZDate(day.year, day.month, day.date + offset, timeZone).getTime();
  if (view.when === "today")
    return { live: true, upcoming: { from: midnight(0), before: midnight(1) }, ended: false };
  if (view.when === "week")
    return { live: true, upcoming: { from: midnight(0), before: midnight(7) }, ended: false };
  const weekday = new Date(Date.UTC(day.year, day.month, day.date)).getUTCDay();
  const saturday = weekday === 6 ? 0 : weekday === 0 ? -1 : 6 - weekday;
  const inWeekend = weekday === 6 || weekday === 0;
  return {
    live: inWeekend,
    upcoming: { from: midnight(saturday), before: midnight(saturday + 2) },
    ended: false,
  };
}

/** Whether a start time lies in a window. */
export function inStartWindow(startUtc: number, window: StartWindow): boolean {
  return (
    (window.from === undefined || startUtc >= window.from) &&
    (window.before === undefined || startUtc < window.before)
  );
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
