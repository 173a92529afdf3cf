import { createContext, useContext, useMemo, type ReactNode } from "react";
import { calendarDay } from "@convex/lib/exploreWhen";
import { DEFAULT_TIME_ZONE } from "@convex/lib/constants";
import { viewerTimeZone } from "@convex/lib/timeZone";
import { useHydrating } from "./page-data";
import { useNow } from "./use-now";

const ViewerTimeZoneContext = createContext<string | null>(null);

/** Pins the viewer's time zone below it (tests, and any page that shows another zone on purpose). */
export function ViewerTimeZoneProvider({ timeZone, children }: { timeZone: string; children: ReactNode }) {
  return <ViewerTimeZoneContext.Provider value={timeZone}>{children}</ViewerTimeZoneContext.Provider>;
}

let browserZone: string | undefined;

/**
 * The viewer's zone, or null while it cannot be known: on the server and while the browser hydrates
 * the server's HTML (decision 040), which shows times in `useViewerTimeZone`'s stand-in until the
 * render after.
 */
export function useKnownViewerTimeZone(): string | null {
  const pinned = useContext(ViewerTimeZoneContext);
  const hydrating = useHydrating();
  if (pinned) return pinned;
  if (hydrating) return null;
  browserZone ??= viewerTimeZone();
  return browserZone;
}

/**
 * The zone every time is shown in: the browser's (any IANA zone), New York when it cannot be read.
 * Server-rendered HTML, which cannot know it, uses `whileUnknown` (a show's own zone, say; every time
 * written names its zone), and the page moves to the viewer's right after hydrating.
 */
export function useViewerTimeZone(whileUnknown: string = DEFAULT_TIME_ZONE): string {
  return useKnownViewerTimeZone() ?? whileUnknown;
}

/** The viewer's calendar day ("2026-11-21") and zone, for explore's day windows; it turns at midnight. */
export function useViewerDay(): { day: string; timeZone: string } {
  const timeZone = useViewerTimeZone();
  const day = calendarDay(useNow(), timeZone);
  return useMemo(() => ({ day, timeZone }), [day, timeZone]);
}
