/**
 * iCalendar (RFC 5545) files: one show for "Add to calendar", several for "add all" and the private
 * calendar feed (convex/http.ts). Pure, so it is tested alone and shared by the browser and the
 * backend: CRLF line ends, TEXT values escaped (backslash, semicolon, comma, newline), lines folded at
 * 75 octets without splitting a UTF-8 character, times in UTC. An event whose time cannot be written
 * (a value stored before times were bounded) is left out rather than failing the whole file.
 */
import { shownStreamTimes, type StreamTimeFields } from "./shownTimes";
import { isFormattableTime } from "./time";

export type CalendarEvent = {
  /** Globally unique and stable, so re-importing updates the event instead of adding another. */
  uid: string;
  title: string;
  description?: string;
  startUtc: number;
  /** Without an end (or with one that cannot be written), the event lasts an hour. */
  endUtc?: number;
  url: string;
  location?: string;
  /** When the file is made (DTSTAMP). */
  now: number;
};

const DEFAULT_DURATION_MS = 60 * 60 * 1000;
const MAX_LINE_OCTETS = 75;

/** 20261121T193000Z */
export function formatIcsDate(utcMs: number): string {
  return new Date(utcMs)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

/** A TEXT value (RFC 5545 section 3.3.11). */
export function escapeIcsText(value: string): string {
  return value
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\r\n|\r|\n/g, "\\n");
}

/** Splits a content line into 75-octet pieces; each continuation starts with one space (section 3.1). */
export function foldIcsLine(line: string): string {
  const encoder = new TextEncoder();
  const pieces: string[] = [];
  let current = "";
  let octets = 0;
  for (const char of line) {
    const size = encoder.encode(char).length;
    const limit = pieces.length === 0 ? MAX_LINE_OCTETS : MAX_LINE_OCTETS - 1;
    if (octets + size > limit) {
      pieces.push(current);
      current = "";
      octets = 0;
    }
    current += char;
    octets += size;
  }
  pieces.push(current);
  return pieces.join("\r\n ");
}

function eventLines(event: CalendarEvent): string[] {
  const end =
    event.endUtc !== undefined && isFormattableTime(event.endUtc) && event.endUtc > event.startUtc
      ? event.endUtc
      : event.startUtc + DEFAULT_DURATION_MS;
  if (![event.now, event.startUtc, end].every(isFormattableTime)) return [];
  return [
    "BEGIN:VEVENT",
    `UID:${escapeIcsText(event.uid)}`,
    `DTSTAMP:${formatIcsDate(event.now)}`,
    `DTSTART:${formatIcsDate(event.startUtc)}`,
    `DTEND:${formatIcsDate(end)}`,
    `SUMMARY:${escapeIcsText(event.title)}`,
    ...(event.description ? [`DESCRIPTION:${escapeIcsText(event.description)}`] : []),
    ...(event.location ? [`LOCATION:${escapeIcsText(event.location)}`] : []),
    `URL:${event.url}`,
    "END:VEVENT",
  ];
}

export type CalendarOptions = {
  /** The calendar's name in calendar apps (X-WR-CALNAME). */
  name?: string;
  /** For a subscribed feed: how often calendar apps should fetch it again, in minutes. */
  refreshMinutes?: number;
};

/** A calendar with any number of events (none is a valid, empty calendar). */
export function buildIcsCalendar(events: readonly CalendarEvent[], options: CalendarOptions = {}): string {
  const refresh = options.refreshMinutes;
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//LiveLocal//Live shows//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    ...(options.name ? [`X-WR-CALNAME:${escapeIcsText(options.name)}`] : []),
    ...(refresh !== undefined
      ? [`REFRESH-INTERVAL;VALUE=DURATION:PT${refresh}M`, `X-PUBLISHED-TTL:PT${refresh}M`]
      : []),
    ...events.flatMap(eventLines),
    "END:VCALENDAR",
  ];
  return lines.map(foldIcsLine).join("\r\n") + "\r\n";
}

export function buildIcsEvent(event: CalendarEvent): string {
  return buildIcsCalendar([event]);
}

/** A file name from the title: "spring-denim-drop.ics". */
export function icsFileName(title: string): string {
  const slug = title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return `${slug || "livelocal-show"}.ics`;
}

/** What a show's calendar event is made from, wherever it is added: its page, the watch list, the feed. */
export type CalendarShow = StreamTimeFields & {
  _id: string;
  streamTitle: string;
  streamDescription?: string;
  liveShopName: string;
};

/** The start a calendar event takes: the shown one (decision 058), if a date can hold it. */
export function calendarStart(show: StreamTimeFields): number | undefined {
  const { start } = shownStreamTimes(show);
  return start !== undefined && isFormattableTime(start) ? start : undefined;
}

/**
 * One show as an event, at its shown times (when it went live, the plan for what is still to come): a
 * stable UID per stream (re-adding updates it), its page as URL and location. Null without a start.
 */
export function showCalendarEvent(show: CalendarShow, pageUrl: string, now: number): CalendarEvent | null {
  const startUtc = calendarStart(show);
  if (startUtc === undefined) return null;
  return {
    uid: `${show._id}@livelocal`,
    title: show.streamTitle,
    description: [show.streamDescription, `Hosted by ${show.liveShopName}. ${pageUrl}`]
      .filter(Boolean)
      .join("\n\n"),
    startUtc,
    endUtc: shownStreamTimes(show).stop,
    url: pageUrl,
    location: pageUrl,
    now,
  };
}
