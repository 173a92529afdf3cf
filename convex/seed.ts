import { v } from "convex/values";
import type { Id } from "./_generated/dataModel";
import type { MutationCtx } from "./_generated/server";
import { internalMutation } from "./functions";
import { CATEGORIES } from "./lib/data/categories";
import {
  buildSampleStreams,
  DEMO_SHOPS,
  DEMO_STREAM_LINKS,
  DEMO_USERS,
  DEMO_WATCH_LIST,
  type SampleStream,
} from "./lib/data/demo";
import { MSAS } from "./lib/data/msas";
import { timesAsPlanned } from "./lib/shownTimes";
import { getCategory } from "./model/categories";
import { insertLiveShop, getLiveShopBySlug, linkShopCategory, linkShopMsa } from "./model/liveShops";
import { insertStream, linkStreamCategory, linkStreamMsa, upsertStreamPlatform } from "./model/streams";
import { insertWithTimestamps } from "./model/timestamps";
import { DEFAULT_PRIVACY_PREFERENCES, getUserByClerkId, insertUser } from "./model/users";

const seedCounts = v.object({ inserted: v.number(), existing: v.number() });

/** The category tree and the 393 metro areas. Safe to run on every deployment, any number of times. */
export const seedReferenceData = internalMutation({
  args: {},
  returns: v.object({ categories: seedCounts, msas: seedCounts }),
  handler: async (ctx) => await seedReference(ctx, Date.now()),
});

/** Demo users, shops and the specification's 20 sample streams, with times relative to now. */
export const seedDemoData = internalMutation({
  args: {},
  returns: v.object({ users: seedCounts, shops: seedCounts, streams: v.number() }),
  handler: async (ctx) => await seedDemo(ctx, Date.now()),
});

/**
 * Reference data, then demo data, in one mutation (tests). The local backend's first start runs the two
 * as separate mutations, each within Convex's 1 s of code.
 */
export const seedAll = internalMutation({
  args: {},
  returns: v.null(),
  handler: async (ctx) => {
    const now = Date.now();
    await seedReference(ctx, now);
    await seedDemo(ctx, now);
    return null;
  },
});

async function seedReference(ctx: MutationCtx, now: number) {
  const categories = { inserted: 0, existing: 0 };
  const rows = CATEGORIES.flatMap((category) => [
    {
      categoryId: category.id,
      label: category.label,
      description: category.description,
      icon: category.icon,
    },
    ...category.subcategories.map((sub) => ({
      categoryId: sub.id,
      label: sub.label,
      description: sub.description,
      parentCategoryId: category.id,
    })),
  ]);
  for (const row of rows) {
    if (await getCategory(ctx, row.categoryId)) {
      categories.existing++;
      continue;
    }
    await insertWithTimestamps(ctx, "categories", row, now);
    categories.inserted++;
  }

  const msas = { inserted: 0, existing: 0 };
  for (const msa of MSAS) {
    const existing = await ctx.db
      .query("msas")
      .withIndex("by_cbsaCode", (q) => q.eq("cbsaCode", msa.cbsaCode))
      .unique();
    if (existing) {
      msas.existing++;
      continue;
    }
    await insertWithTimestamps(
      ctx,
      "msas",
      {
        cbsaCode: msa.cbsaCode,
        msaLabel: msa.name,
        states: [...msa.states],
        coordinatesLat: msa.lat,
        coordinatesLng: msa.lng,
      },
      now,
    );
    msas.inserted++;
  }
  return { categories, msas };
}

async function msaIdByCode(ctx: MutationCtx, cbsaCode: string): Promise<Id<"msas">> {
  const msa = await ctx.db
    .query("msas")
    .withIndex("by_cbsaCode", (q) => q.eq("cbsaCode", cbsaCode))
    .unique();
  if (!msa) throw new Error(`Seed data names metro area ${cbsaCode}, which is not loaded.`);
  return msa._id;
}

/** Sample times are ISO strings; the stream table keeps epoch milliseconds. */
function sampleTime(iso: string): number {
  return Date.parse(iso);
}

async function seedDemo(ctx: MutationCtx, now: number) {
  const users = { inserted: 0, existing: 0 };
  const userIds = new Map<string, Id<"users">>();
  for (const demoUser of DEMO_USERS) {
    const existing = await getUserByClerkId(ctx, demoUser.clerkId);
    if (existing) {
      users.existing++;
      userIds.set(demoUser.key, existing._id);
      continue;
    }
    const { key, showProfile, ...fields } = demoUser;
    const privacyPreferences = showProfile ? { ...DEFAULT_PRIVACY_PREFERENCES, showProfile } : undefined;
    userIds.set(key, await insertUser(ctx, { ...fields, privacyPreferences }, now));
    users.inserted++;
  }

  const samples = buildSampleStreams(now);
  const shops = { inserted: 0, existing: 0 };
  let streams = 0;
  // What this run inserted, for the demo viewer's watch list (a re-run leaves an existing list alone).
  const insertedShops = new Map<string, Id<"liveShops">>();
  const insertedStreams = new Map<string, Id<"streams">>();
  for (const demoShop of DEMO_SHOPS) {
    // A shop that exists already was seeded before, with its streams: leave both alone.
    if (await getLiveShopBySlug(ctx, demoShop.slug)) {
      shops.existing++;
      continue;
    }
    const { ownerKey, categories, cbsaCodes, ...shopFields } = demoShop;
    const userId = userIds.get(ownerKey);
    if (!userId) throw new Error(`Demo shop ${demoShop.slug} names unknown owner ${ownerKey}.`);
    const liveShopId = await insertLiveShop(ctx, { ...shopFields, userId }, now);
    for (const link of categories) await linkShopCategory(ctx, liveShopId, link, now);
    for (const code of cbsaCodes) await linkShopMsa(ctx, liveShopId, await msaIdByCode(ctx, code), now);
    shops.inserted++;
    insertedShops.set(demoShop.slug, liveShopId);

    for (const sample of samples.filter((s) => DEMO_STREAM_LINKS[s.id]?.shopSlug === demoShop.slug)) {
      insertedStreams.set(sample.id, await insertSampleStream(ctx, liveShopId, sample, now));
      streams++;
    }
  }

  const watcherId = userIds.get(DEMO_WATCH_LIST.userKey);
  if (watcherId) {
    for (const sampleId of DEMO_WATCH_LIST.savedStreamIds) {
      const streamId = insertedStreams.get(sampleId);
      if (streamId) await insertWithTimestamps(ctx, "savedStreams", { userId: watcherId, streamId }, now);
    }
    for (const slug of DEMO_WATCH_LIST.followedShopSlugs) {
      const liveShopId = insertedShops.get(slug);
      if (liveShopId) await insertWithTimestamps(ctx, "shopFollows", { userId: watcherId, liveShopId }, now);
    }
  }
  return { users, shops, streams };
}

/** Imports one stream in the specification's sample shape, with its categories, areas and platforms. */
async function insertSampleStream(
  ctx: MutationCtx,
  liveShopId: Id<"liveShops">,
  sample: SampleStream,
  now: number,
): Promise<Id<"streams">> {
  const links = DEMO_STREAM_LINKS[sample.id];
  const start = sampleTime(sample.start_utc);
  const stop = sampleTime(sample.stop_utc);
  const streamId = await insertStream(
    ctx,
    {
      liveShopId,
      streamTitle: sample.title,
      streamDescription: sample.description,
      streamImageUrls: sample.image_urls,
      streamVideoUrl: sample.video_url ?? undefined,
      streamTrailerUrl: sample.trailer_url ?? undefined,
      replayVideoUrl: links.replayVideoUrl,
      streamStartUTC: start,
      streamStopUTC: stop,
      // The demo's live and ended shows ran as planned (decision 058).
      ...timesAsPlanned(sample.status, start, stop),
      timezone: sample.timezone,
      products: sample.products.map((product) => ({
        id: product.id,
        name: product.name,
        price: product.price,
        imageUrl: product.image,
        description: product.description,
      })),
      streamStatus: sample.status,
      locationLabel: sample.loc_tag_specific,
    },
    now,
  );
  for (const link of links.categories) await linkStreamCategory(ctx, streamId, link, now);
  for (const code of links.cbsaCodes) await linkStreamMsa(ctx, streamId, await msaIdByCode(ctx, code), now);
  for (const platform of links.platforms) await upsertStreamPlatform(ctx, streamId, platform, now);
  return streamId;
}
