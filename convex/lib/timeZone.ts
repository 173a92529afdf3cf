/**
 * Time zones without date formatting: whether a zone is usable, and the viewer's. Kept apart from
 * ./time (date-fns) so that the app's first script, which needs only these, stays small.
 */
import { DEFAULT_TIME_ZONE } from "./constants";

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
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
