import { buildIcsEvent, icsFileName, showCalendarEvent, type CalendarShow } from "@convex/lib/ics";
import { downloadIcs } from "./ics-download";

/** "Add to calendar" for one show, wherever it is offered: an .ics named after it, linking to `pageUrl`. */
export function downloadShowIcs(show: CalendarShow, pageUrl: string, now = Date.now()): void {
  downloadIcs(icsFileName(show.streamTitle), buildIcsEvent(showCalendarEvent(show, pageUrl, now)));
}
