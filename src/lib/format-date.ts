// US English like the rest of the site's copy; the date alone, no time or zone.
const DATE_FORMAT = new Intl.DateTimeFormat("en-US", { dateStyle: "medium" });

/** A timestamp as a day people read at a glance: "Mar 4, 2026". */
export function formatDate(ms: number): string {
  return DATE_FORMAT.format(ms);
}
