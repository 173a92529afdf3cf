/**
 * Generated data for `npm run bench`: streams (scripts/bench/scale.ts loads 10,000 and then 50,000 on
 * top of the demo data to show that reads, writes, start-up and memory do not grow with the table,
 * issue 15, and that explore pages read no more documents on a big table than on a small one), a full
 * watch list and the go-live fan-out's followers. Not in convex/: the benchmark's backend loads this
 * folder beside it (`--extra-functions`), so these functions, keyed `benchData:*` there, never reach a
 * deployment (decision 088).
 */
import { v } from "convex/values";
// The raw builders: these write listing rows themselves, bypassing the triggers (see below).
import { internalMutation, internalQuery, type MutationCtx } from "../../../convex/_generated/server";
import { streamStatusValidator } from "../../../convex/schema";
import type { StreamStatus } from "../../../convex/lib/constants";
import { CATEGORIES } from "../../../convex/lib/data/categories";
import { facetsFromLinks } from "../../../convex/lib/explore";
import { isStreamListedPublicly } from "../../../convex/lib/lifecycle";
import { LIMITS } from "../../../convex/lib/limits";
import { timesAsPlanned } from "../../../convex/lib/shownTimes";
import {
  streamListingRows,
  streamSearchDocument,
  syncShopListings,
} from "../../../convex/model/exploreListings";
import { toCategoryLinks, type CategoryLinkValue } from "../../../convex/model/links";
import { applyMapChanges, type MapListingRow } from "../../../convex/model/mapAreas";
import { insertWithTimestamps } from "../../../convex/model/timestamps";
import { getUserByClerkId, insertUser } from "../../../convex/model/users";

/** Large metro areas, where half of all generated streams are; the other half spread over all 393. */
const BIG_METROS = [
  "35620",
  "31080",
  "16980",
  "19100",
  "26420",
  "47900",
  "33100",
  "37980",
  "12060",
  "38060",
  "14460",
  "40140",
  "41860",
  "19820",
  "42660",
  "33460",
  "41740",
  "45300",
  "19740",
  "41180",
];

/** Share of each status, like a marketplace a few months in: mostly past and upcoming shows. */
const STATUS_MIX: [StreamStatus, number][] = [
  ["ENDED", 0.47],
  ["SCHEDULED", 0.35],
  ["CREATED", 0.08],
  ["CANCELLED", 0.05],
  ["LIVE", 0.04],
  ["PAUSED", 0.01],
];

const OPENERS = [
  "Friday night",
  "Weekend",
  "Live",
  "Sunday",
  "Late-night",
  "Pop-up",
  "Clearance",
  "Collector night:",
  "New arrivals:",
  "Flash sale:",
];
const ENDINGS = ["drop", "sale", "haul", "showcase", "breaks", "restock", "Q&A and giveaways", "auction"];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A small seeded generator (mulberry32), so a run can be repeated exactly. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Inserts `count` streams, numbered from `offset`, across the existing shops, with categories, metro
 * areas, a platform link, spread statuses and times around now. It writes the rows directly and their
 * listing rows with the same `streamListingRows` the triggers use, once per stream: through the
 * triggers, a stream's listing rows would be derived again for each row written (the stream, each
 * category link, each metro area). A test checks that the rows equal what `explore:rebuildListings`
 * derives. `syncShops` re-derives the shops' rows (their live badges) afterwards; the benchmark asks
 * for it on the last batch of each step. `status` gives every stream that status instead of the mix (a
 * full live board on little data).
 */
export const generateStreams = internalMutation({
  args: {
    count: v.number(),
    offset: v.number(),
    seed: v.number(),
    syncShops: v.optional(v.boolean()),
    status: v.optional(streamStatusValidator),
  },
  returns: v.object({ inserted: v.number(), listed: v.number() }),
  handler: async (ctx, args) => await insertGeneratedStreams(ctx, args),
});

/** `generateStreams`' work, which convex/'s tests run in their own backend (`t.run`). */
export async function insertGeneratedStreams(
  ctx: MutationCtx,
  {
    count,
    offset,
    seed,
    syncShops,
    status,
  }: { count: number; offset: number; seed: number; syncShops?: boolean; status?: StreamStatus },
): Promise<{ inserted: number; listed: number }> {
  const next = random(seed * 1_000_003 + offset);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)];
  const shops = await ctx.db.query("liveShops").take(100);
  const msas = await ctx.db.query("msas").take(500);
  const msaByCode = new Map(msas.map((msa) => [msa.cbsaCode, msa]));
  if (shops.length === 0 || msas.length === 0) throw new Error("Seed the demo data first.");
  const now = Date.now();
  let listed = 0;
  // The live map's per-area counts follow the listing rows written here, as replaceListingRows keeps them.
  const mapRows: MapListingRow[] = [];
  for (let index = offset; index < offset + count; index++) {
    const shop = pick(shops);
    const streamStatus = status ?? pickStatus(next());
    const category = pick(CATEGORIES);
    const subcategory = next() < 0.85 ? pick(category.subcategories) : undefined;
    const links: CategoryLinkValue[] =
      next() < 0.03 ? [] : [{ categoryId: category.id, subcategoryId: subcategory?.id, priority: 0 }];
    if (links.length > 0 && next() < 0.2) {
      const other = pick(CATEGORIES.filter((candidate) => candidate.id !== category.id));
      links.push({ categoryId: other.id, subcategoryId: pick(other.subcategories).id, priority: 1 });
    }
    const home = next() < 0.5 ? msaByCode.get(pick(BIG_METROS)) : undefined;
    const areas = [home ?? pick(msas)];
    if (next() < 0.15) areas.push(pick(msas.filter((msa) => msa._id !== areas[0]?._id)));
    const times = streamTimes(streamStatus, now, next);
    const title = `${pick(OPENERS)} ${(subcategory ?? category).label.toLowerCase()} ${pick(ENDINGS)} #${index + 1}`;
    const stream = {
      liveShopId: shop._id,
      streamTitle: title,
      streamImageUrls: [],
      timezone: shop.timezone,
      liveShopName: shop.liveShopName,
      liveShopSlug: shop.slug,
      products: [],
      streamStatus,
      ...times,
    };
    const streamId = await insertWithTimestamps(ctx, "streams", stream, now);
    await insertWithTimestamps(ctx, "liveShopStreams", { liveShopId: shop._id, streamId, streamStatus }, now);
    for (const link of links) await insertWithTimestamps(ctx, "streamCategories", { streamId, ...link }, now);
    for (const msa of areas) await insertWithTimestamps(ctx, "streamMsas", { streamId, msaId: msa._id }, now);
    const platformType = pick(["whatnot", "tiktok", "shopify", "instagram"] as const);
    await insertWithTimestamps(ctx, "streamPlatforms", { streamId, platformType }, now);
    if (!isStreamListedPublicly(streamStatus, shop.status)) continue;
    // In the order the index reads them back (by metro area id), as streamFacets does.
    const msaFacets = [...areas]
      .sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0))
      .map((msa) => ({ cbsaCode: msa.cbsaCode, states: msa.states }));
    const facets = facetsFromLinks(toCategoryLinks(links), msaFacets);
    const doc = await ctx.db.get("streams", streamId);
    if (!doc) continue;
    const context = { shopHeadline: shop.headline, platformTypes: [platformType] };
    for (const row of streamListingRows(doc, facets, streamSearchDocument(doc, facets, context))) {
      await insertWithTimestamps(ctx, "streamListings", row, now);
      mapRows.push(row);
    }
    listed++;
  }
  await applyMapChanges(ctx, [], mapRows, now);
  if (syncShops) {
    for (const shop of shops) await syncShopListings(ctx, shop._id, { now });
  }
  return { inserted: count, listed };
}

/**
 * Re-derives the rows of `count` shops from the `offset`th (their live badges) after generated
 * streams: the benchmark syncs a few shops per call, so each stays within Convex's 1 s of code at
 * 50,000 streams. Returns how many shops it synced (fewer than `count`: the last ones).
 */
export const syncShops = internalMutation({
  args: { offset: v.number(), count: v.number() },
  returns: v.number(),
  handler: async (ctx, { offset, count }) => {
    const shops = (await ctx.db.query("liveShops").take(offset + count)).slice(offset);
    const now = Date.now();
    for (const shop of shops) await syncShopListings(ctx, shop._id, { now });
    return shops.length;
  },
});

function pickStatus(roll: number): StreamStatus {
  let total = 0;
  for (const [status, share] of STATUS_MIX) {
    total += share;
    if (roll < total) return status;
  }
  return "ENDED";
}

/** Live shows started in the last two hours, upcoming ones within a month, ended ones within half a year. */
function streamTimes(
  status: StreamStatus,
  now: number,
  next: () => number,
): { streamStartUTC?: number; streamStopUTC?: number; streamStartedUTC?: number; streamEndedUTC?: number } {
  const length = HOUR * (1 + Math.floor(next() * 3));
  switch (status) {
    case "LIVE":
    case "PAUSED": {
      const start = now - Math.floor(next() * 2 * HOUR);
      return {
        streamStartUTC: start,
        streamStopUTC: start + length,
        ...timesAsPlanned(status, start, undefined),
      };
    }
    case "ENDED": {
      const start = now - Math.floor(next() * 180 * DAY) - length;
      return {
        streamStartUTC: start,
        streamStopUTC: start + length,
        ...timesAsPlanned(status, start, start + length),
      };
    }
    case "CREATED":
      return next() < 0.5 ? {} : streamTimes("SCHEDULED", now, next);
    default: {
      const start = now + Math.floor(next() * 30 * DAY);
      return { streamStartUTC: start, streamStopUTC: start + length };
    }
  }
}

/**
 * A watch list at its limits for `npm run bench` (scripts/bench/watch-list.ts): a bench user (made once)
 * who saved `LIMITS.savedStreamsPerUser` publicly listed shows and follows every active shop (up to
 * the follow limit). Development data only.
 */
export const fillWatchList = internalMutation({
  args: { clerkId: v.string() },
  returns: v.object({ saved: v.number(), followed: v.number() }),
  handler: async (ctx, { clerkId }) => {
    const existing = await getUserByClerkId(ctx, clerkId);
    const userId =
      existing?._id ??
      (await insertUser(ctx, { clerkId, email: `${clerkId}@livelocal.test`, name: "Bench" }));
    const listings = await ctx.db.query("streamListings").take(LIMITS.savedStreamsPerUser * 20);
    const streamIds = [...new Set(listings.map((row) => row.streamId))].slice(0, LIMITS.savedStreamsPerUser);
    for (const streamId of streamIds) await insertWithTimestamps(ctx, "savedStreams", { userId, streamId });
    const shops = await ctx.db
      .query("liveShops")
      .withIndex("by_status_and_updatedAt", (q) => q.eq("status", "active"))
      .take(LIMITS.followedShopsPerUser);
    for (const shop of shops) {
      await insertWithTimestamps(ctx, "shopFollows", { userId, liveShopId: shop._id });
    }
    return { saved: streamIds.length, followed: shops.length };
  },
});

/**
 * The go-live fan-out benchmark (scripts/bench/fanout.ts): people numbered `offset` to
 * `offset + count - 1` who follow the shop of the stream titled `streamTitle`, each with go-live e-mail
 * and push switched on and one push device at `<endpointBase>/<number>` (the benchmark's own HTTP
 * server, encrypted for the one key pair `p256dh`/`auth`). Returns the stream's id. Development data only.
 */
export const addFollowers = internalMutation({
  args: {
    streamTitle: v.string(),
    offset: v.number(),
    count: v.number(),
    endpointBase: v.string(),
    p256dh: v.string(),
    auth: v.string(),
  },
  returns: v.id("streams"),
  handler: async (ctx, { streamTitle, offset, count, endpointBase, p256dh, auth }) => {
    const stream = (await ctx.db.query("streams").take(1_000)).find(
      (candidate) => candidate.streamTitle === streamTitle,
    );
    if (!stream) throw new Error(`No stream titled "${streamTitle}": seed the demo data first.`);
    for (let index = offset; index < offset + count; index++) {
      const clerkId = `bench_follower_${index}`;
      const userId = await insertUser(ctx, { clerkId, email: `${clerkId}@livelocal.test` });
      const user = await ctx.db.get("users", userId);
      if (!user) throw new Error("The user just inserted is missing.");
      await ctx.db.patch("users", userId, {
        notificationPreferences: {
          ...user.notificationPreferences,
          channels: { goLive: { inApp: true, email: true, push: true } },
        },
      });
      await insertWithTimestamps(ctx, "shopFollows", { userId, liveShopId: stream.liveShopId });
      await insertWithTimestamps(ctx, "pushSubscriptions", {
        userId,
        endpoint: `${endpointBase}/${index}`,
        p256dh,
        auth,
        label: "Bench device",
      });
    }
    return stream._id;
  },
});

/** E-mails in the local inbox since `since` (the fan-out benchmark waits for them), up to `limit`. */
export const inboxCount = internalQuery({
  args: { since: v.number(), limit: v.number() },
  returns: v.number(),
  handler: async (ctx, { since, limit }) =>
    (
      await ctx.db
        .query("localInbox")
        .withIndex("by_createdAt", (q) => q.gte("createdAt", since))
        .take(limit)
    ).length,
});

/**
 * A live copy of a stream, written without the triggers (so no fan-out starts by itself): the fan-out
 * benchmark runs one batch of its go-live fan-out as a call of its own, to measure one transaction's
 * documents. Development data only.
 */
export const quietLiveCopy = internalMutation({
  args: { streamId: v.id("streams") },
  returns: v.id("streams"),
  handler: async (ctx, { streamId }) => {
    const stream = await ctx.db.get("streams", streamId);
    if (!stream) throw new Error("No such stream.");
    const { _id, _creationTime, ...fields } = stream;
    return await ctx.db.insert("streams", {
      ...fields,
      streamTitle: `${fields.streamTitle} (bench copy)`,
      streamStatus: "LIVE",
    });
  },
});

/** Scheduled runs of `name` ("module:function") so far (the fan-out benchmark counts its transactions). */
export const scheduledRuns = internalQuery({
  args: { name: v.string() },
  returns: v.number(),
  handler: async (ctx, { name }) =>
    (await ctx.db.system.query("_scheduled_functions").take(10_000)).filter(
      (job) => job.name.replace(/\.js:/, ":") === name,
    ).length,
});
