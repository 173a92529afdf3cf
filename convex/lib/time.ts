/**
 * Stream times: shown in the viewer's zone (with the shop's where it helps), entered in the shop's zone.
 * Pure (Intl and date-fns only): the backend formats notices with it and the browser formats pages.
 */
// date-fns v4 + @date-fns/tz convert wall clock ⇄ UTC (DST kept out of hand-written code); Intl formats.
import { tz, TZDate } from "@date-fns/tz";
import { differenceInCalendarDays, format, getISOWeek, getISOWeekYear, isValid, parse } from "date-fns";
import { DEFAULT_TIME_ZONE } from "./constants";
import { dateTimeFormat, isValidTimeZone } from "./timeZone";

// Kept here too for the many callers that format times as well; the app shell imports ./timeZone.
export { isValidTimeZone, viewerTimeZone } from "./timeZone";

export type TimeFormatOptions = {
  /** BCP 47 locale; the app's copy is US English. */
  locale?: string;
  /** Add the year, for dates that are not in the current one (past shows, replays). */
  withYear?: boolean;
};

const DEFAULT_LOCALE = "en-US";

/** A bad zone would make Intl throw and blank the page; the zone name in the output keeps it honest. */
function usableTimeZone(timeZone: string): string {
  return isValidTimeZone(timeZone) ? timeZone : DEFAULT_TIME_ZONE;
}

/** ECMAScript's time values end here, both ways: `new Date(8.64e15 + 1)` is an Invalid Date. */
const MAX_TIME_VALUE_MS = 8.64e15;

/**
 * Whether Intl, Date and date-fns can show `utcMs`. Mutations keep new times within TIME_RANGE
 * (limits.ts), but a value stored before that rule would make every formatter throw and blank the page:
 * the formatters below print TIME_UNAVAILABLE for it instead.
 */
export function isFormattableTime(utcMs: number): boolean {
  return Number.isFinite(utcMs) && Math.abs(utcMs) <= MAX_TIME_VALUE_MS;
}

/** What a time that cannot be shown reads as. */
export const TIME_UNAVAILABLE = "Time unavailable";

/** For `<time dateTime>` and schema.org data: "2026-11-22T00:30:00.000Z", or undefined when unshowable. */
export function isoDateTime(utcMs: number): string | undefined {
  return isFormattableTime(utcMs) ? new Date(utcMs).toISOString() : undefined;
}

/**
 * Newer ICU versions put narrow no-break and thin spaces in times ("7:30\u202fPM") and ranges; engines
 * differ, so plain spaces keep server, browser and tests producing the same text.
 */
function plainSpaces(text: string): string {
  return text.replace(/[\u202f\u2009\u00a0]/g, " ");
}

function formatter(timeZone: string, options: TimeFormatOptions, parts: "full" | "day" | "time") {
  const day: Intl.DateTimeFormatOptions = {
    weekday: "short",
    month: "short",
    day: "numeric",
    ...(options.withYear ? { year: "numeric" } : {}),
  };
  const time: Intl.DateTimeFormatOptions = { hour: "numeric", minute: "2-digit", timeZoneName: "short" };
  return dateTimeFormat(options.locale ?? DEFAULT_LOCALE, {
    timeZone: usableTimeZone(timeZone),
    ...(parts === "time" ? {} : day),
    ...(parts === "day" ? {} : time),
  });
}

/** "Sat, Nov 21, 7:30 PM EST" */
export function formatStreamTime(utcMs: number, timeZone: string, options: TimeFormatOptions = {}): string {
  if (!isFormattableTime(utcMs)) return TIME_UNAVAILABLE;
  return plainSpaces(formatter(timeZone, options, "full").format(utcMs));
}

function zoneName(utcMs: number, timeZone: string): string {
  const parts = formatter(timeZone, {}, "time").formatToParts(utcMs);
  return parts.find((part) => part.type === "timeZoneName")?.value ?? "";
}

/**
 * "Sat, Nov 21, 7:30 – 9:00 PM EST" on one day; both ends in full across days or a DST change (Intl's
 * own range would print "1:00 – 4:00 AM EDT" for a show starting at 1:00 EST), or when stop is not after
 * start. The year is added to both ends when they fall in different years.
 */
export function formatTimeRange(
  startMs: number,
  stopMs: number,
  timeZone: string,
  options: TimeFormatOptions = {},
): string {
  if (!isFormattableTime(startMs) || !isFormattableTime(stopMs)) {
    return `${formatStreamTime(startMs, timeZone, options)} – ${formatStreamTime(stopMs, timeZone, options)}`;
  }
  const withYear = options.withYear || yearIn(startMs, timeZone) !== yearIn(stopMs, timeZone);
  const full = formatter(timeZone, { ...options, withYear }, "full");
  const day = formatter(timeZone, { ...options, withYear }, "day");
  const sameDay = day.format(startMs) === day.format(stopMs);
  const sameZoneName = zoneName(startMs, timeZone) === zoneName(stopMs, timeZone);
  if (stopMs > startMs && sameDay && sameZoneName) return plainSpaces(full.formatRange(startMs, stopMs));
  return plainSpaces(`${full.format(startMs)} – ${full.format(stopMs)}`);
}

function yearIn(utcMs: number, timeZone: string): number {
  return new TZDate(utcMs, usableTimeZone(timeZone)).getFullYear();
}

/**
 * A time as the viewer reads it, in their own zone, and in the shop's when that reads differently (a
 * viewer in the shop's zone, or in one with the same clock, gets no second line).
 */
export function formatTimeForViewer(
  utcMs: number,
  viewerZone: string,
  shopZone: string,
  options: TimeFormatOptions = {},
): { inViewerZone: string; inShopZone?: string } {
  const inViewerZone = formatStreamTime(utcMs, viewerZone, options);
  const inShopZone = formatStreamTime(utcMs, shopZone, options);
  return inShopZone === inViewerZone ? { inViewerZone } : { inViewerZone, inShopZone };
}

/** A show's start and stop as the viewer reads them, and in the shop's zone when that differs. */
export function formatRangeForViewer(
  startMs: number,
  stopMs: number,
  viewerZone: string,
  shopZone: string,
): { inViewerZone: string; inShopZone?: string } {
  const inViewerZone = formatTimeRange(startMs, stopMs, viewerZone);
  const inShopZone = formatTimeRange(startMs, stopMs, shopZone);
  return inShopZone === inViewerZone ? { inViewerZone } : { inViewerZone, inShopZone };
}

/**
 * A show's times as the viewer reads them: its range, or its start alone when no stop comes after it;
 * in the shop's zone too when that reads differently.
 */
export function formatShowForViewer(
  startMs: number,
  stopMs: number | undefined,
  viewerZone: string,
  shopZone: string,
): { inViewerZone: string; inShopZone?: string } {
  return stopMs === undefined || stopMs <= startMs
    ? formatTimeForViewer(startMs, viewerZone, shopZone)
    : formatRangeForViewer(startMs, stopMs, viewerZone, shopZone);
}

const INPUT_FORMAT = "yyyy-MM-dd'T'HH:mm";

/**
 * The value of an `<input type="datetime-local">` ("2026-11-21T19:30"), read as a wall-clock time in the
 * shop's zone, to UTC milliseconds; null when it is not a real date. A time skipped by the spring DST
 * change (2:30 on a March Sunday) moves an hour later, as clocks do; a time that happens twice in
 * November is the first of the two (daylight time).
 */
export function zonedInputToUtc(value: string, timeZone: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value)) return null;
  const date = parse(value, INPUT_FORMAT, new Date(0), { in: tz(usableTimeZone(timeZone)) });
  return isValid(date) ? date.getTime() : null;
}

/**
 * UTC milliseconds to the `<input type="datetime-local">` value for that moment in the shop's zone; ""
 * (a blank field, to fill in again) for a time that cannot be shown.
 */
export function utcToZonedInput(utcMs: number, timeZone: string): string {
  if (!isFormattableTime(utcMs)) return "";
  return format(new TZDate(utcMs, usableTimeZone(timeZone)), INPUT_FORMAT);
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * "in 2 d 3 h", "in 2 h 5 min", "in 12 min", "in 45 s", "now". Rounded up to the second, so the
 * countdown reads "now" exactly when the time comes; larger units are truncated, never rounded up.
 */
export function formatCountdown(msUntil: number): string {
  const total = Math.ceil(msUntil / SECOND) * SECOND;
  if (total <= 0) return "now";
  const days = Math.floor(total / DAY);
  const hours = Math.floor((total % DAY) / HOUR);
  const minutes = Math.floor((total % HOUR) / MINUTE);
  const seconds = Math.floor((total % MINUTE) / SECOND);
  if (days > 0) return hours > 0 ? `in ${days} d ${hours} h` : `in ${days} d`;
  if (hours > 0) return minutes > 0 ? `in ${hours} h ${minutes} min` : `in ${hours} h`;
  if (minutes > 0) return `in ${minutes} min`;
  return `in ${seconds} s`;
}

/** Calendar days from now's date to the time's date, both in the zone: 0 today, 1 tomorrow, -1 yesterday. */
export function calendarDaysFromNow(utcMs: number, nowMs: number, timeZone: string): number {
  return differenceInCalendarDays(utcMs, nowMs, { in: tz(usableTimeZone(timeZone)) });
}

/** "Today", "Tomorrow" or "Yesterday" in the zone, else null (show the date instead). */
export function relativeDayLabel(
  utcMs: number,
  nowMs: number,
  timeZone: string,
): "Today" | "Tomorrow" | "Yesterday" | null {
  switch (calendarDaysFromNow(utcMs, nowMs, timeZone)) {
    case 0:
      return "Today";
    case 1:
      return "Tomorrow";
    case -1:
      return "Yesterday";
    default:
      return null;
  }
}

/** The local hour the weekly digest goes out on Mondays (decision 036). */
export const DIGEST_LOCAL_HOUR = 8;

/**
 * The ISO week ("2026-W48") when `utcMs` is Monday between 08:00 and 08:59 in the zone (the hour the
 * weekly digest is sent), else null. Zones with half-hour offsets reach 08:xx at some whole UTC hour too.
 */
export function digestWeekAt(utcMs: number, timeZone: string): string | null {
  const local = new TZDate(utcMs, usableTimeZone(timeZone));
  if (local.getDay() !== 1 || local.getHours() !== DIGEST_LOCAL_HOUR) return null;
  return `${getISOWeekYear(local)}-W${String(getISOWeek(local)).padStart(2, "0")}`;
}
