/**
 * Seller insights (decision 089): pages count their visits (`record`), sellers and admins read a shop's
 * counts (`forShop`), and an hourly sweep settles finished hours and forgets visitor keys (`sweep`).
 */
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalMutation, query, visitorMutation } from "./functions";
import { INSIGHT_METRICS, INSIGHT_VISITOR_METRICS, INSIGHTS_SHOWS_LISTED } from "./lib/constants";
import { platformTypeValidator } from "./schema";
import { appError } from "./model/errors";
import { readInsights, recordVisit, sweepInsightsBatch } from "./model/insights";
import { getManagedShop } from "./model/ownership";

/** What a page's anonymous visitor token looks like: random, made by the browser, never tied to a person. */
const VISITOR_TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

const [firstVisitMetric, secondVisitMetric, ...otherVisitMetrics] = INSIGHT_VISITOR_METRICS;

/**
 * Counts a view of a shop or show page, an add to calendar or a click-through to a platform link, by
 * anyone. The page calls it after it has rendered and never waits for it. Counts nothing for the shop's
 * owner, for a signed-in person whose privacy preferences turn analytics off, for a page not public, or
 * a second time for the same visitor, thing and hour. Returns whether it counted.
 */
export const record = visitorMutation({
  args: {
    liveShopId: v.optional(v.id("liveShops")),
    streamId: v.optional(v.id("streams")),
    metric: v.union(
      v.literal(firstVisitMetric),
      v.literal(secondVisitMetric),
      ...otherVisitMetrics.map((metric) => v.literal(metric)),
    ),
    platform: v.optional(platformTypeValidator),
    visitor: v.string(),
  },
  returns: v.boolean(),
  handler: async (ctx, args) => {
    if (!VISITOR_TOKEN.test(args.visitor)) {
      throw appError("INVALID_ARGUMENT", "The visitor token must be 16 to 64 letters, digits, - or _.");
    }
    if ((args.metric === "click") !== (args.platform !== undefined)) {
      throw appError("INVALID_ARGUMENT", "A click-through names its platform; nothing else does.");
    }
    return await recordVisit(ctx, ctx.viewer, args);
  },
});

const countsValidator = v.object(
  Object.fromEntries(INSIGHT_METRICS.map((metric) => [metric, v.number()])) as Record<
    (typeof INSIGHT_METRICS)[number],
    ReturnType<typeof v.number>
  >,
);

/**
 * A shop's counts of the last 30 days (or one of its shows' with `streamId`), for its owner or an admin;
 * anyone else, signed out included, gets null. `shows` lists the shop's shows to choose from.
 */
export const forShop = query({
  args: { liveShopId: v.id("liveShops"), streamId: v.optional(v.id("streams")) },
  returns: v.union(
    v.null(),
    v.object({
      liveShopName: v.string(),
      shows: v.array(v.object({ _id: v.id("streams"), streamTitle: v.string() })),
      timeZone: v.string(),
      totals: countsValidator,
      byDay: v.array(v.object({ day: v.string(), ...countsValidator.fields })),
      byHour: v.array(v.object({ hour: v.number(), ...countsValidator.fields })),
      platforms: v.array(v.object({ platform: platformTypeValidator, clicks: v.number() })),
    }),
  ),
  handler: async (ctx, { liveShopId, streamId }) => {
    const access = await getManagedShop(ctx, ctx.viewer, liveShopId);
    if (!access) return null;
    const streams = await ctx.db
      .query("streams")
      .withIndex("by_liveShopId", (q) => q.eq("liveShopId", liveShopId))
      .order("desc")
      .take(INSIGHTS_SHOWS_LISTED);
    // The show asked for may be older than those listed (a shop with many shows): it is read itself.
    const chosen = streamId && (await ctx.db.get("streams", streamId));
    if (streamId && chosen?.liveShopId !== liveShopId) return null;
    const shows =
      chosen && !streams.some((stream) => stream._id === chosen._id) ? [...streams, chosen] : streams;
    const insights = await readInsights(ctx, access.shop, streamId, Date.now());
    return {
      liveShopName: access.shop.liveShopName,
      shows: shows.map(({ _id, streamTitle }) => ({ _id, streamTitle })),
      ...insights,
    };
  },
});

/** Settles the hours that are over, forgets their visitor keys and secrets, drops expired counts. */
export const sweep = internalMutation({
  args: {},
  returns: v.null(),
  handler: async (ctx) => {
    if (await sweepInsightsBatch(ctx, Date.now()))
      await ctx.scheduler.runAfter(0, internal.insights.sweep, {});
    return null;
  },
});
