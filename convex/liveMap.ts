/**
 * The live map (docs/product.md#the-live-map; decision 086): the metro areas with shows on now, today and in
 * the next 7 days, from the summary kept by model/mapAreas.ts.
 */
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalMutation, publicQuery } from "./functions";
import { exploreViewRefusal, planExploreWhen } from "./lib/exploreWhen";
import { appError } from "./model/errors";
import { listMapAreas, MAP_REBUILD_PHASES, rebuildMapBatch } from "./model/mapAreas";
import { mapShowValidator } from "./schema";

const mapAreaValidator = v.object({
  cbsaCode: v.string(),
  onNow: v.number(),
  today: v.number(),
  week: v.number(),
  next: v.array(mapShowValidator),
});

/**
 * Every metro area with public shows on now or starting this week, busiest first: the shows on now
 * (live or paused), those on now or starting today, and in the next 7 days (explore's windows, in the
 * viewer's `day` and `timeZone`), and the first shows of its list. Its reads grow with the areas that
 * have shows, not with the shows.
 */
export const listAreas = publicQuery({
  args: { day: v.string(), timeZone: v.string() },
  returns: v.array(mapAreaValidator),
  handler: async (ctx, { day, timeZone }) => {
    const refusal = exploreViewRefusal({ when: "week", day, timeZone });
    if (refusal) throw appError("INVALID_ARGUMENT", refusal);
    const today = planExploreWhen({ when: "today", day, timeZone }).upcoming;
    const week = planExploreWhen({ when: "week", day, timeZone }).upcoming;
    if (
      today?.from === undefined ||
      today.before === undefined ||
      week?.from === undefined ||
      week.before === undefined
    )
      throw new Error("A day window has no ends.");
    return await listMapAreas(ctx, {
      today: { from: today.from, before: today.before },
      week: { from: week.from, before: week.before },
    });
  },
});

const rebuildPhaseValidator = v.union(...MAP_REBUILD_PHASES.map((phase) => v.literal(phase)));

/**
 * Migration: rebuilds the map's summary from explore's stream lists (`npx convex run liveMap:rebuild`),
 * for a deployment whose lists came before the map. Runs in batches, each scheduling the next.
 */
export const rebuild = internalMutation({
  args: { phase: v.optional(rebuildPhaseValidator), cursor: v.optional(v.union(v.string(), v.null())) },
  returns: v.null(),
  handler: async (ctx, { phase = "clearAreas", cursor = null }) => {
    const page = await rebuildMapBatch(ctx, phase, cursor);
    const next = MAP_REBUILD_PHASES[MAP_REBUILD_PHASES.indexOf(phase) + 1];
    if (!page.isDone) {
      await ctx.scheduler.runAfter(0, internal.liveMap.rebuild, { phase, cursor: page.continueCursor });
    } else if (next) {
      await ctx.scheduler.runAfter(0, internal.liveMap.rebuild, { phase: next, cursor: null });
    }
    return null;
  },
});
