// US English like the rest of the site's copy.
const DATE_FORMAT = new Intl.DateTimeFormat("en-US", { dateStyle: "medium" });
const DATE_TIME_FORMAT = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" });

/** A timestamp as a day people read at a glance: "Mar 4, 2026". */
export function formatDate(ms: number): string {
  return DATE_FORMAT.format(ms);
}

/** A timestamp with its time, in the reader's zone, where order within a day matters: "Mar 4, 2026, 3:05 PM". */
export function formatDateTime(ms: number): string {
  // Plain spaces: ICU puts narrow no-break ones before "PM", which copy and search badly.
  return DATE_TIME_FORMAT.format(ms).replace(/[\u202f\u2009\u00a0]/g, " ");
}
