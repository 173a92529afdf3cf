import { LATE_START_AFTER_MS } from "@convex/lib/lifecycle";
import { formatCountdown } from "@convex/lib/time";

const MINUTE = 60_000;

/** How often the watch list's countdowns move on: minutes are its smallest unit. */
export const COUNTDOWN_TICK_MS = 30_000;

export type Countdown = { label: string; tone: "soon" | "now" | "late" };

/**
 * What a saved scheduled show's countdown says at `now`: "Starts in 2 h 5 min", "Starts in under a
 * minute", "Starting now" from its start until the dashboard would call it late (LATE_START_AFTER_MS),
 * then "Running late" while the seller has not gone live. Minutes at most, so a 30-second tick keeps it
 * right; a screen reader is not told each tick (the text is not a live region).
 */
export function showCountdown(startUtc: number, now: number): Countdown {
  const until = startUtc - now;
  if (until > MINUTE) return { label: `Starts ${formatCountdown(until)}`, tone: "soon" };
  if (until > 0) return { label: "Starts in under a minute", tone: "soon" };
  if (-until <= LATE_START_AFTER_MS) return { label: "Starting now", tone: "now" };
  return { label: "Running late", tone: "late" };
}
