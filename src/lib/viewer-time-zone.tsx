import { createContext, useContext, useMemo, type ReactNode } from "react";
import { calendarDay } from "@convex/lib/exploreWhen";
import { viewerTimeZone } from "@convex/lib/timeZone";
import { useNow } from "./use-now";

const ViewerTimeZoneContext = createContext<string | null>(null);

/** Pins the viewer's time zone below it (tests, and any page that shows another zone on purpose). */
export function ViewerTimeZoneProvider({ timeZone, children }: { timeZone: string; children: ReactNode }) {
  return <ViewerTimeZoneContext.Provider value={timeZone}>{children}</ViewerTimeZoneContext.Provider>;
}

let browserZone: string | undefined;

/** The zone every time is shown in: the browser's (any IANA zone), New York when it cannot be read. */
export function useViewerTimeZone(): string {
  const pinned = useContext(ViewerTimeZoneContext);
  browserZone ??= viewerTimeZone();
  return pinned ?? browserZone;
}

/** The viewer's calendar day ("2026-11-21") and zone, for explore's day windows; it turns at midnight. */
export function useViewerDay(): { day: string; timeZone: string } {
  const timeZone = useViewerTimeZone();
  const day = calendarDay(useNow(), timeZone);
  return useMemo(() => ({ day, timeZone }), [day, timeZone]);
}
