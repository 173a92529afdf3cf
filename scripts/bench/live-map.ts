/**
 * The live map's query (decision 086) as the streams grow: the areas it answers, the shows they hold
 * this week, the documents one call reads and the backend's time for it. Its reads, and so its time,
 * follow the areas with shows, not the shows.
 */
import { ConvexHttpClient } from "convex/browser";
import { api } from "../../convex/_generated/api";
import { calendarDay } from "../../convex/lib/exploreWhen";
import type { BackendProcess } from "./backend-process";
import { readsOf } from "./explore";
import { ms, recordFigure, summarize } from "./stats";

const GROUP = "Issue 43: the live map's query (its reads follow the areas with shows, not the shows)";
/**
 * Decision 086's bound per area with shows: its `mapAreas` row, at most eight `mapAreaDays` rows,
 * and its first three listing rows with their streams.
 */
const READS_PER_AREA = 1 + 8 + 3 * 2;

const ZONE = "America/New_York";
/** Timed calls after two unmeasured ones (the first counts the reads): the backend's time, one at a time. */
const RUNS = 15;

export async function liveMapReads(backend: BackendProcess, label: string): Promise<void> {
  const args = { day: calendarDay(Date.now(), ZONE), timeZone: ZONE };
  const call = () => new ConvexHttpClient(backend.url).query(api.liveMap.listAreas, args);
  const { result, docsRead } = await readsOf(backend, "liveMap:listAreas", call);
  const onNow = result.reduce((sum, area) => sum + area.onNow, 0);
  const week = result.reduce((sum, area) => sum + area.week, 0);
  await call();
  const backendMs: number[] = [];
  for (let run = 0; run < RUNS; run++)
    backendMs.push((await backend.sample("liveMap:listAreas", call)).backendMs);
  const time = summarize(backendMs);
  const perArea = docsRead / Math.max(1, result.length);
  recordFigure({
    group: GROUP,
    figure: `liveMap:listAreas, ${label}: documents read per area with shows (${result.length} areas)`,
    measured: perArea.toFixed(1),
    budget: `≤ ${READS_PER_AREA}`,
    ok: perArea <= READS_PER_AREA,
  });
  console.log(
    `  live map, ${label.padEnd(18)} ${String(result.length).padStart(3)} areas, ${onNow} on now, ${week} this week: ` +
      `${docsRead} documents read (${perArea.toFixed(1)} per area); backend median ${ms(time.median)}, ` +
      `p95 ${ms(time.p95)} (${ms(time.median / Math.max(1, result.length))} per area, ${RUNS} calls)`,
  );
}
