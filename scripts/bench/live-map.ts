/**
 * The live map's query (decision 086) as the streams grow: the areas it answers, the shows they hold
 * this week, and the documents one call reads. Its reads follow the areas with shows, not the shows.
 */
import { ConvexHttpClient } from "convex/browser";
import { api } from "../../convex/_generated/api";
import { calendarDay } from "../../convex/lib/exploreWhen";
import type { BackendProcess } from "./backend-process";
import { readsOf } from "./explore";

const ZONE = "America/New_York";

export async function liveMapReads(backend: BackendProcess, label: string): Promise<void> {
  const args = { day: calendarDay(Date.now(), ZONE), timeZone: ZONE };
  const { result, docsRead } = await readsOf(backend, "liveMap:listAreas", () =>
    new ConvexHttpClient(backend.url).query(api.liveMap.listAreas, args),
  );
  const onNow = result.reduce((sum, area) => sum + area.onNow, 0);
  const week = result.reduce((sum, area) => sum + area.week, 0);
  console.log(
    `  live map, ${label.padEnd(18)} ${String(result.length).padStart(3)} areas, ${onNow} on now, ${week} this week: ` +
      `${docsRead} documents read (${(docsRead / Math.max(1, result.length)).toFixed(1)} per area)`,
  );
}
