import { paths } from "@/config/paths";
import { downloadIcs } from "@/lib/ics-download";
import { downloadShowIcs } from "@/lib/show-calendar";
import { buildIcsCalendar, calendarStart, showCalendarEvent } from "@convex/lib/ics";
import type { WatchStream } from "./watch-list-types";

/** The file "Add all to calendar" saves. */
export const WATCH_LIST_ICS_FILE = "livelocal-watch-list.ics";
const WATCH_LIST_CALENDAR_NAME = "LiveLocal watch list";

type TimedShow = WatchStream & { streamStartUTC: number };

/**
 * A start a calendar can hold (the shown one, decision 058): not missing, and not one stored before
 * times were bounded. The list's upcoming shows have not started, so it is their planned start.
 */
export function hasStart(show: WatchStream): show is TimedShow {
  return calendarStart(show) !== undefined && show.streamStartUTC !== undefined;
}

function showPageUrl(show: TimedShow, origin: string): string {
  return `${origin}${paths.stream.getHref(show._id)}`;
}

/** "Add to calendar" for one show, linking to its page on `origin`. */
export function downloadOneShowIcs(show: TimedShow, origin: string, now: number): void {
  downloadShowIcs(show, showPageUrl(show, origin), now);
}

/**
 * "Add all to calendar": one file with every upcoming show that has a start time. Each event keeps its
 * stream's UID, so importing the file again (or adding one show later) updates instead of duplicating.
 */
export function downloadAllShowsIcs(shows: readonly WatchStream[], origin: string, now: number): void {
  const events = shows
    .filter(hasStart)
    .flatMap((show) => showCalendarEvent(show, showPageUrl(show, origin), now) ?? []);
  downloadIcs(WATCH_LIST_ICS_FILE, buildIcsCalendar(events, { name: WATCH_LIST_CALENDAR_NAME }));
}
