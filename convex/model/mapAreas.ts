/**
 * The live map's summary (decision 086): per metro area, how many public shows are on now and how many
 * upcoming shows start in each quarter hour of each day. Kept by `applyMapChanges`, which explore's
 * listing sync (model/exploreListings.ts) calls with the (*, metro area) listing rows it removes and
 * adds: a stream's lifecycle, its links, its shop's status and its owner's privacy all reach the map
 * through that one writer. The map query then reads a row or a few per area, never one per show.
 */
import type { Doc } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { MSAS } from "../lib/data/msas";
import { ANY_KEY, ENDED_RANK, LIVE_RANKS, msaKey, UPCOMING_RANK } from "../lib/exploreListing";
import { inStartWindow, type StartWindow } from "../lib/exploreWhen";
import type { MapShow } from "../schema";
import { streamCardsOf } from "./cards";
import { insertWithTimestamps, patchWithTimestamps } from "./timestamps";

export const DAY_MS = 24 * 60 * 60 * 1000;
/** Every zone's midnight falls on a quarter hour (UTC+5:45, +12:45 included), so windows are exact. */
export const QUARTER_MS = 15 * 60 * 1000;
export const QUARTERS_PER_DAY = DAY_MS / QUARTER_MS;
/** The shows an area's entry names (hover, focus, the list): the first of its explore list. */
export const MAP_NEXT_SHOWS = 3;

const MSA_PREFIX = msaKey("");

/** The listing fields the summary counts by. */
export type MapListingRow = { categoryKey: string; placeKey: string; rank: number; sortKey: number };

type AreaDelta = { onNow: number; upcoming: number; quarters: Map<number, number> };

function deltaOf(deltas: Map<string, AreaDelta>, cbsaCode: string): AreaDelta {
  let delta = deltas.get(cbsaCode);
  if (!delta) {
    delta = { onNow: 0, upcoming: 0, quarters: new Map() };
    deltas.set(cbsaCode, delta);
  }
  return delta;
}

function count(deltas: Map<string, AreaDelta>, row: MapListingRow, sign: 1 | -1): void {
  if (row.categoryKey !== ANY_KEY || !row.placeKey.startsWith(MSA_PREFIX)) return;
  const delta = deltaOf(deltas, row.placeKey.slice(MSA_PREFIX.length));
  if ((LIVE_RANKS as readonly number[]).includes(row.rank)) delta.onNow += sign;
  else if (row.rank === UPCOMING_RANK) {
    delta.upcoming += sign;
    // An upcoming show without a start (none is scheduled so) is counted but in no day.
    if (Number.isSafeInteger(row.sortKey) && row.sortKey < Number.MAX_SAFE_INTEGER) {
      const quarter = Math.floor(row.sortKey / QUARTER_MS);
      delta.quarters.set(quarter, (delta.quarters.get(quarter) ?? 0) + sign);
    }
  }
}

async function areaRow(ctx: QueryCtx, cbsaCode: string): Promise<Doc<"mapAreas"> | null> {
  return await ctx.db
    .query("mapAreas")
    .withIndex("by_cbsaCode", (q) => q.eq("cbsaCode", cbsaCode))
    .unique();
}

/**
 * Applies the listing rows a sync removed and added (a row whose rank or start changed is both) to the
 * summary: one read and write per area and per day touched.
 */
export async function applyMapChanges(
  ctx: MutationCtx,
  removed: readonly MapListingRow[],
  added: readonly MapListingRow[],
  now = Date.now(),
): Promise<void> {
  const deltas = new Map<string, AreaDelta>();
  for (const row of removed) count(deltas, row, -1);
  for (const row of added) count(deltas, row, 1);
  for (const [cbsaCode, delta] of deltas) {
    if (delta.onNow !== 0 || delta.upcoming !== 0) {
      const row = await areaRow(ctx, cbsaCode);
      const onNow = (row?.onNow ?? 0) + delta.onNow;
      const upcoming = (row?.upcoming ?? 0) + delta.upcoming;
      if (onNow === 0 && upcoming === 0) {
        if (row) await ctx.db.delete("mapAreas", row._id);
      } else if (row) await patchWithTimestamps(ctx, "mapAreas", row._id, { onNow, upcoming }, now);
      else await insertWithTimestamps(ctx, "mapAreas", { cbsaCode, onNow, upcoming }, now);
    }
    const byDay = new Map<number, [number, number][]>();
    for (const [quarter, change] of delta.quarters) {
      if (change === 0) continue;
      const day = Math.floor(quarter / QUARTERS_PER_DAY);
      byDay.set(day, [...(byDay.get(day) ?? []), [quarter - day * QUARTERS_PER_DAY, change]]);
    }
    for (const [day, changes] of byDay) await applyDayChanges(ctx, cbsaCode, day, changes, now);
  }
}

async function applyDayChanges(
  ctx: MutationCtx,
  cbsaCode: string,
  day: number,
  changes: readonly [number, number][],
  now: number,
): Promise<void> {
  const row = await ctx.db
    .query("mapAreaDays")
    .withIndex("by_day_and_cbsaCode", (q) => q.eq("day", day).eq("cbsaCode", cbsaCode))
    .unique();
  const quarters = row ? [...row.quarters] : new Array<number>(QUARTERS_PER_DAY).fill(0);
  for (const [quarter, change] of changes) quarters[quarter] = (quarters[quarter] ?? 0) + change;
  if (quarters.every((value) => value === 0)) {
    if (row) await ctx.db.delete("mapAreaDays", row._id);
  } else if (row) await patchWithTimestamps(ctx, "mapAreaDays", row._id, { quarters }, now);
  else await insertWithTimestamps(ctx, "mapAreaDays", { cbsaCode, day, quarters }, now);
}

// ---------------------------------------------------------------------------------------------------
// Reading

/** One area on the map: shows on now, then on now or starting in the viewer's today and next 7 days. */
export type MapArea = { cbsaCode: string; onNow: number; today: number; week: number; next: MapShow[] };

type DayWindow = { from: number; before: number };

/** Upcoming shows starting in the window, summed from the day rows read. */
function upcomingIn(days: readonly Doc<"mapAreaDays">[], window: StartWindow): number {
  let total = 0;
  for (const row of days) {
    row.quarters.forEach((value, quarter) => {
      if (value !== 0 && inStartWindow((row.day * QUARTERS_PER_DAY + quarter) * QUARTER_MS, window))
        total += value;
    });
  }
  return total;
}

/**
 * The areas with shows on now or this week, busiest first. Reads every area's row (at most one per
 * metro area), the day rows of the week's days (at most eight per area), and each shown area's
 * first listing rows and their streams: reads grow with the areas, not with their shows.
 */
export async function listMapAreas(
  ctx: QueryCtx,
  windows: { today: DayWindow; week: DayWindow },
): Promise<MapArea[]> {
  const areas = await ctx.db
    .query("mapAreas")
    .withIndex("by_cbsaCode")
    .take(MSAS.length + 1);
  const firstDay = Math.floor(windows.week.from / DAY_MS);
  const lastDay = Math.floor((windows.week.before - 1) / DAY_MS);
  const dayRows = await ctx.db
    .query("mapAreaDays")
    .withIndex("by_day_and_cbsaCode", (q) => q.gte("day", firstDay).lte("day", lastDay))
    .take((MSAS.length + 1) * (lastDay - firstDay + 1));
  const daysOf = new Map<string, Doc<"mapAreaDays">[]>();
  for (const row of dayRows) daysOf.set(row.cbsaCode, [...(daysOf.get(row.cbsaCode) ?? []), row]);

  const counted = areas
    .map((area) => {
      const days = daysOf.get(area.cbsaCode) ?? [];
      return {
        cbsaCode: area.cbsaCode,
        onNow: area.onNow,
        today: area.onNow + upcomingIn(days, windows.today),
        week: area.onNow + upcomingIn(days, windows.week),
      };
    })
    .filter((area) => area.week > 0);
  const names = new Map(MSAS.map((msa) => [msa.cbsaCode, msa.name]));
  counted.sort(
    (a, b) =>
      b.onNow - a.onNow ||
      b.today - a.today ||
      b.week - a.week ||
      (names.get(a.cbsaCode) ?? "").localeCompare(names.get(b.cbsaCode) ?? ""),
  );
  return await Promise.all(
    counted.map(async (area) => ({ ...area, next: await nextShows(ctx, area.cbsaCode) })),
  );
}

/** The first shows of the area's explore list: on now by start, then the soonest upcoming. */
async function nextShows(ctx: QueryCtx, cbsaCode: string): Promise<MapShow[]> {
  const rows = await ctx.db
    .query("streamListings")
    .withIndex("by_categoryKey_and_placeKey_and_rank_and_sortKey_and_streamId", (q) =>
      q.eq("categoryKey", ANY_KEY).eq("placeKey", msaKey(cbsaCode)).lt("rank", ENDED_RANK),
    )
    .take(MAP_NEXT_SHOWS);
  const cards = await streamCardsOf(
    ctx,
    rows.map((row) => row.streamId),
  );
  return cards.map((card) => ({
    _id: card._id,
    streamTitle: card.streamTitle,
    streamStatus: card.streamStatus,
    liveShopName: card.liveShopName,
    streamStartUTC: card.streamStartUTC,
    streamStartedUTC: card.streamStartedUTC,
    timezone: card.timezone,
  }));
}

// ---------------------------------------------------------------------------------------------------
// Rebuilding (the `liveMap:rebuild` migration)

export const MAP_REBUILD_PHASES = ["clearAreas", "clearDays", "count"] as const;
export type MapRebuildPhase = (typeof MAP_REBUILD_PHASES)[number];

const MAP_REBUILD_BATCH = 500;

/**
 * One batch of the summary's rebuild from the stream lists' (*, metro area) rows: empties both tables,
 * then counts every row. Writes meanwhile are counted as they happen, so it is meant for a deployment
 * whose lists came before the map (run once, when quiet).
 */
export async function rebuildMapBatch(
  ctx: MutationCtx,
  phase: MapRebuildPhase,
  cursor: string | null,
): Promise<{ isDone: boolean; continueCursor: string }> {
  const request = { numItems: MAP_REBUILD_BATCH, cursor };
  switch (phase) {
    case "clearAreas": {
      const page = await ctx.db.query("mapAreas").paginate(request);
      for (const row of page.page) await ctx.db.delete("mapAreas", row._id);
      return page;
    }
    case "clearDays": {
      const page = await ctx.db.query("mapAreaDays").paginate(request);
      for (const row of page.page) await ctx.db.delete("mapAreaDays", row._id);
      return page;
    }
    case "count": {
      const page = await ctx.db
        .query("streamListings")
        .withIndex("by_categoryKey_and_placeKey_and_rank_and_sortKey_and_streamId", (q) =>
          q.eq("categoryKey", ANY_KEY).gte("placeKey", MSA_PREFIX).lt("placeKey", msaKey("\uffff")),
        )
        .paginate(request);
      await applyMapChanges(ctx, [], page.page);
      return page;
    }
  }
}
