import { buildIcsEvent, icsFileName, showCalendarEvent, type CalendarShow } from "@convex/lib/ics";
import { downloadIcs } from "./ics-download";

/** "Add to calendar" for one show, wherever it is offered: an .ics named after it, linking to `pageUrl`. */
export function downloadShowIcs(show: CalendarShow, pageUrl: string, now = Date.now()): void {
  const event = showCalendarEvent(show, pageUrl, now);
  if (event) downloadIcs(icsFileName(show.streamTitle), buildIcsEvent(event));
}
