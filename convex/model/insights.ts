/**
 * Seller insights (decision 089): counts of what happened to a shop and its shows, by UTC hour, with
 * nothing about who. A page view, calendar add or click-through is one small write by the page after
 * it renders (`recordVisit`): a visitor key for the hour and one shard of a sharded counter. Saves,
 * follows, reminders and go-live notices are counted where they happen (`countInsight`).
 *
 * One visit per visitor, thing and hour: the page sends an anonymous random token of its own; the key
 * kept is an HMAC of token, thing and hour under a secret made for that hour, and the hourly sweep
 * deletes secret and keys once the hour is over, after which no key can be recomputed or linked.
 */
import { ShardedCounter } from "@convex-dev/sharded-counter";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { components } from "../lib/components";
import {
  INSIGHT_METRICS,
  INSIGHTS_RETENTION_DAYS,
  INSIGHTS_SHOWN_DAYS,
  type InsightMetric,
  type InsightVisitorMetric,
  type PlatformType,
} from "../lib/constants";
import { getPublicShop, getPublicStreamWithShop } from "./watchList";

export const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The hour's live counts. Sixteen shards (the component's default) let a burst on one live show write
 * without conflicts; a reader sums them, and only for the hours not yet swept.
 */
export const insightCounter = new ShardedCounter(components.shardedCounter);

export const hourStartOf = (at: number) => Math.floor(at / HOUR_MS) * HOUR_MS;

type Target = {
  liveShopId: Id<"liveShops">;
  streamId?: Id<"streams">;
  metric: InsightMetric;
  platform?: PlatformType;
};

/** Adds `amount` to the target's count for the hour of `at`, creating the hour's row on its first count. */
export async function countInsight(ctx: MutationCtx, target: Target, at = Date.now(), amount = 1) {
  const hourStart = hourStartOf(at);
  const row = await ctx.db
    .query("insightHours")
    .withIndex("by_liveShopId_and_streamId_and_metric_and_platform_and_hourStart", (q) =>
      q
        .eq("liveShopId", target.liveShopId)
        .eq("streamId", target.streamId)
        .eq("metric", target.metric)
        .eq("platform", target.platform)
        .eq("hourStart", hourStart),
    )
    .unique();
  // A count that arrives after its hour was swept (a late retry) goes straight into the settled row.
  if (row?.settled) {
    await ctx.db.patch("insightHours", row._id, { count: row.count + amount });
    return;
  }
  const rowId =
    row?._id ??
    (await ctx.db.insert("insightHours", {
      liveShopId: target.liveShopId,
      ...(target.streamId && { streamId: target.streamId }),
      metric: target.metric,
      ...(target.platform && { platform: target.platform }),
      hourStart,
      count: 0,
      settled: false,
    }));
  await insightCounter.add(ctx, rowId, amount);
}

async function hourSecret(ctx: MutationCtx, hourStart: number): Promise<string> {
  const existing = await ctx.db
    .query("insightSecrets")
    .withIndex("by_hourStart", (q) => q.eq("hourStart", hourStart))
    .first();
  if (existing) return existing.secret;
  // Convex seeds a mutation's randomness from the server's, per run: no caller can predict it.
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const secret = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  await ctx.db.insert("insightSecrets", { hourStart, secret });
  return secret;
}

async function visitorKey(secret: string, parts: string[]): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(parts.join("|")));
  return Array.from(new Uint8Array(mac), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

export type Visit = {
  liveShopId?: Id<"liveShops">;
  streamId?: Id<"streams">;
  metric: InsightVisitorMetric;
  platform?: PlatformType;
  visitor: string;
};

/**
 * Counts one visit to a public shop or show page, unless the caller is not to be counted: the shop's
 * owner, a signed-in person whose privacy preferences turn analytics off, or the same visitor for the
 * same thing earlier this hour. Returns whether it counted.
 */
export async function recordVisit(
  ctx: MutationCtx,
  viewer: Doc<"users"> | null,
  visit: Visit,
  now = Date.now(),
): Promise<boolean> {
  if (viewer && !viewer.privacyPreferences.analytics) return false;
  const target = await publicTarget(ctx, visit);
  if (!target) return false;
  if (viewer && viewer._id === target.ownerId) return false;
  const hourStart = hourStartOf(now);
  const key = await visitorKey(await hourSecret(ctx, hourStart), [
    visit.visitor,
    target.liveShopId,
    target.streamId ?? "",
    visit.metric,
    visit.platform ?? "",
    String(hourStart),
  ]);
  const seen = await ctx.db
    .query("insightVisitors")
    .withIndex("by_key", (q) => q.eq("key", key))
    .first();
  if (seen) return false;
  await ctx.db.insert("insightVisitors", { key, hourStart });
  await countInsight(
    ctx,
    {
      liveShopId: target.liveShopId,
      ...(target.streamId && { streamId: target.streamId }),
      metric: visit.metric,
      ...(visit.metric === "click" && visit.platform && { platform: visit.platform }),
    },
    now,
  );
  return true;
}

/** The shop (and show) a visit is to, when anyone may open its page. */
async function publicTarget(ctx: QueryCtx, visit: Visit) {
  if (visit.streamId) {
    const found = await getPublicStreamWithShop(ctx, visit.streamId);
    return found && { liveShopId: found.shop._id, streamId: found.stream._id, ownerId: found.shop.userId };
  }
  if (!visit.liveShopId) return null;
  const shop = await getPublicShop(ctx, visit.liveShopId);
  return shop && { liveShopId: shop._id, streamId: undefined, ownerId: shop.userId };
}

/** The shop of a stream, for counts that know only the stream (reminders, go-live notices, saves). */
export async function countStreamInsight(
  ctx: MutationCtx,
  streamId: Id<"streams">,
  metric: InsightMetric,
): Promise<void> {
  const stream = await ctx.db.get("streams", streamId);
  if (stream) await countInsight(ctx, { liveShopId: stream.liveShopId, streamId, metric });
}

/**
 * One batch of the hourly sweep: settles hours that are over (their counter into `count`), deletes
 * their secrets and visitor keys, and counts older than INSIGHTS_RETENTION_DAYS. Returns whether
 * anything is left for another batch.
 */
export async function sweepInsightsBatch(ctx: MutationCtx, now: number, batch = 200): Promise<boolean> {
  const currentHour = hourStartOf(now);
  const open = await ctx.db
    .query("insightHours")
    .withIndex("by_settled_and_hourStart", (q) => q.eq("settled", false).lt("hourStart", currentHour))
    .take(batch);
  for (const row of open) {
    const count = row.count + (await insightCounter.count(ctx, row._id));
    await ctx.db.patch("insightHours", row._id, { count, settled: true });
    await insightCounter.reset(ctx, row._id);
  }
  const secrets = await ctx.db
    .query("insightSecrets")
    .withIndex("by_hourStart", (q) => q.lt("hourStart", currentHour))
    .take(batch);
  for (const row of secrets) await ctx.db.delete("insightSecrets", row._id);
  const keys = await ctx.db
    .query("insightVisitors")
    .withIndex("by_hourStart", (q) => q.lt("hourStart", currentHour))
    .take(batch);
  for (const row of keys) await ctx.db.delete("insightVisitors", row._id);
  const expired = await ctx.db
    .query("insightHours")
    .withIndex("by_settled_and_hourStart", (q) =>
      q.eq("settled", true).lt("hourStart", now - INSIGHTS_RETENTION_DAYS * DAY_MS),
    )
    .take(batch);
  for (const row of expired) await ctx.db.delete("insightHours", row._id);
  return [open, secrets, keys, expired].some((rows) => rows.length === batch);
}

/** A row's count: settled, or its live counter while the hour runs. */
async function rowCount(ctx: QueryCtx, row: Doc<"insightHours">): Promise<number> {
  return row.settled ? row.count : row.count + (await insightCounter.count(ctx, row._id));
}

export type MetricCounts = Record<InsightMetric, number>;
const noCounts = (): MetricCounts =>
  Object.fromEntries(INSIGHT_METRICS.map((metric) => [metric, 0])) as MetricCounts;

export type Insights = {
  timeZone: string;
  totals: MetricCounts;
  /** The last INSIGHTS_SHOWN_DAYS days in the shop's zone, oldest first (`day` is yyyy-MM-dd). */
  byDay: ({ day: string } & MetricCounts)[];
  /** Hour of day 0-23 in the shop's zone, summed over those days. */
  byHour: ({ hour: number } & MetricCounts)[];
  /** Click-throughs by platform, most first. */
  platforms: { platform: PlatformType; clicks: number }[];
};

const dayFormat = (timeZone: string) =>
  new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
const hourFormat = (timeZone: string) =>
  new Intl.DateTimeFormat("en-US", { timeZone, hour: "numeric", hourCycle: "h23" });

/** The shop's (or one show's) counts of the last INSIGHTS_SHOWN_DAYS days, by day, hour and platform. */
export async function readInsights(
  ctx: QueryCtx,
  shop: Doc<"liveShops">,
  streamId: Id<"streams"> | undefined,
  now: number,
): Promise<Insights> {
  const since = hourStartOf(now) - (INSIGHTS_SHOWN_DAYS - 1) * DAY_MS - 23 * HOUR_MS;
  const rows = streamId
    ? await ctx.db
        .query("insightHours")
        .withIndex("by_streamId_and_hourStart", (q) => q.eq("streamId", streamId).gte("hourStart", since))
        .collect()
    : await ctx.db
        .query("insightHours")
        .withIndex("by_liveShopId_and_hourStart", (q) => q.eq("liveShopId", shop._id).gte("hourStart", since))
        .collect();
  const toDay = dayFormat(shop.timezone);
  const toHour = hourFormat(shop.timezone);
  const days = new Map<string, MetricCounts>();
  for (let at = now - (INSIGHTS_SHOWN_DAYS - 1) * DAY_MS; at <= now; at += DAY_MS) {
    days.set(toDay.format(at), noCounts());
  }
  const hours = Array.from({ length: 24 }, noCounts);
  const totals = noCounts();
  const clicks = new Map<PlatformType, number>();
  for (const row of rows) {
    const count = await rowCount(ctx, row);
    if (count === 0) continue;
    const day = days.get(toDay.format(row.hourStart));
    if (!day) continue;
    day[row.metric] += count;
    const hour = Number(toHour.format(row.hourStart)) % 24;
    const hourCounts = hours[hour];
    if (hourCounts) hourCounts[row.metric] += count;
    totals[row.metric] += count;
    if (row.metric === "click" && row.platform) {
      clicks.set(row.platform, (clicks.get(row.platform) ?? 0) + count);
    }
  }
  return {
    timeZone: shop.timezone,
    totals,
    byDay: [...days].map(([day, counts]) => ({ day, ...counts })),
    byHour: hours.map((counts, hour) => ({ hour, ...counts })),
    platforms: [...clicks]
      .map(([platform, count]) => ({ platform, clicks: count }))
      .sort((a, b) => b.clicks - a.clicks || a.platform.localeCompare(b.platform)),
  };
}
