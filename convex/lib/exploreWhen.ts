/**
 * Explore's "when" (decision 031): which shows a stream list holds by time — every live and upcoming
 * show (the default), live now, today, this weekend, the next 7 days, or the replays of ended shows —
 * and in which order. Days are the viewer's: the browser sends its calendar day and time zone, and
 * both sides turn them into the same start-time window here (pure, no clock read).
 */
import { TZDate } from "@date-fns/tz";
import { isValidTimeZone } from "./timeZone";

export {
  EXPLORE_SORTS,
  EXPLORE_WHENS,
  SORT_LABELS,
  VIEW_PARAMS,
  WHEN_LABELS,
  effectiveSort,
  exploreViewSearch,
  isDayWindow,
  parseExploreView,
  sortsOffered,
  writeExploreView,
  type ExploreSort,
  type ExploreView,
  type ExploreWhen,
} from "./exploreView";
import { isDayWindow, type ExploreView } from "./exploreView";

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
