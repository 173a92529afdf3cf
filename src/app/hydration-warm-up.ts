import { DEFAULT_TIME_ZONE } from "@convex/lib/constants";
import { calendarDay } from "@convex/lib/exploreWhen";
import { formatShowForViewer, viewerTimeZone } from "@convex/lib/time";
import { envResult } from "@/config/env";
import { nextTask } from "@/lib/next-task";
import type { PageData } from "@/lib/page-data";
import { convexClientFor } from "./provider";

const HOUR = 60 * 60 * 1000;
/** Zones warmed at most (a page shows a few; the rest load on first use, as without this). */
const MAX_ZONES = 8;

/** The IANA zones a page's answers name (each card and show carries its shop's `timezone`). */
export function zonesIn(data: PageData): string[] {
  const zones = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
    } else if (typeof value === "object" && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        if (key === "timezone" && typeof inner === "string") zones.add(inner);
        else visit(inner);
      }
    }
  };
  visit(data.queries);
  return [...zones];
}

/**
 * The work that hydrating a server-rendered page would otherwise do inside its render and commit, each
 * piece in a task of its own (decision 042): a task that blocks input for more than 50 ms counts
 * against the page (Lighthouse's total blocking time), and these are the long ones.
 *
 * - ICU's locale data, then its date formats: the first `Intl` object a page makes loads them, about
 *   20 ms at once on a phone, more than any other step.
 * - Each time zone the first two renders show (the stand-in while hydrating, the viewer's zone right
 *   after, every shop's): a zone's first formatter loads its rules.
 * - The Convex client, which opens its WebSocket when made.
 *
 * Nothing here changes what is rendered: the same formatters and client are made on first use anyway.
 */
export async function warmUpForHydration(data: PageData): Promise<void> {
  const step = async (work: () => unknown) => {
    await nextTask();
    try {
      work();
    } catch {
      // A warm-up only saves time: whatever fails here fails again where it is used, and says so there.
    }
  };
  await step(() => new Intl.NumberFormat("en-US").format(0));
  const zones = new Set<string>([DEFAULT_TIME_ZONE]);
  await step(() => zones.add(viewerTimeZone()));
  for (const zone of zonesIn(data)) if (zones.size < MAX_ZONES) zones.add(zone);
  for (const zone of zones) {
    await step(() => {
      formatShowForViewer(data.now, data.now + HOUR, zone, DEFAULT_TIME_ZONE);
      calendarDay(data.now, zone);
    });
  }
  await step(() => envResult.ok && convexClientFor(envResult.config.convexUrl));
}
