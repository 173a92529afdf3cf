/**
 * Time zones without date formatting: whether a zone is usable, and the viewer's. Kept apart from
 * ./time (date-fns) so that the app's first script, which needs only these, stays small.
 */
import { DEFAULT_TIME_ZONE } from "./constants";

/** Enough for every zone and format in use; a flood of odd spellings only empties it now and then. */
const MAX_FORMATS = 1000;
const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * An `Intl.DateTimeFormat`, made once per locale and options: making one loads ICU's data for its zone
 * and locale, and a page of cards formats hundreds of times (decision 037: the main thread's longest
 * work on the home page). Throws for an unknown zone, as the constructor does, and keeps nothing then.
 */
export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = JSON.stringify([locale, options]);
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    if (formats.size >= MAX_FORMATS) formats.clear();
    formats.set(key, format);
  }
  return format;
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    dateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The zone's canonical IANA name ("US/Pacific" → "America/Los_Angeles"), or null when it is not a zone. */
export function canonicalTimeZone(timeZone: string): string | null {
  if (timeZone.length === 0 || timeZone.length > 64 || !isValidTimeZone(timeZone)) return null;
  return new Intl.DateTimeFormat("en-US", { timeZone }).resolvedOptions().timeZone;
}

/** The browser's zone (any IANA zone, not only the four shop zones), or New York when unknown. */
export function viewerTimeZone(
  resolve: () => string | undefined = () => Intl.DateTimeFormat().resolvedOptions().timeZone,
): string {
  try {
    const zone = resolve();
    return zone && isValidTimeZone(zone) ? zone : DEFAULT_TIME_ZONE;
  } catch {
    return DEFAULT_TIME_ZONE;
  }
}
