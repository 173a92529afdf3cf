import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { DEFAULT_STREAM_STATUS, type PlatformType } from "../lib/constants";
import { assertValidCategoryLink, type CategoryLink } from "./categories";
import { appError } from "./errors";
import { getLiveShopOrThrow } from "./liveShops";
import { insertWithTimestamps, patchWithTimestamps, type DocPatch, type NewDoc } from "./timestamps";

/** The shop's name, slug and (by default) time zone are copied from the shop, not given. */
type StreamFromShop = "liveShopName" | "liveShopSlug" | "timezone";
type StreamDefaults = "streamStatus" | "streamImageUrls" | "products";
export type NewStream = Omit<NewDoc<"streams">, StreamFromShop | StreamDefaults> &
  Partial<Pick<NewDoc<"streams">, StreamDefaults | "timezone">>;

export async function getStreamOrThrow(ctx: QueryCtx, streamId: Id<"streams">): Promise<Doc<"streams">> {
  const stream = await ctx.db.get("streams", streamId);
  if (!stream) throw appError("NOT_FOUND", "This stream does not exist.");
  return stream;
}

/** Creates a stream as a draft (CREATED) under its shop, with the `liveShopStreams` link row. */
export async function insertStream(
  ctx: MutationCtx,
  stream: NewStream,
  now = Date.now(),
): Promise<Id<"streams">> {
  const shop = await getLiveShopOrThrow(ctx, stream.liveShopId);
  const streamStatus = stream.streamStatus ?? DEFAULT_STREAM_STATUS;
  const streamId = await insertWithTimestamps(
    ctx,
    "streams",
    {
      ...stream,
      streamStatus,
      streamImageUrls: stream.streamImageUrls ?? [],
      products: stream.products ?? [],
      timezone: stream.timezone ?? shop.timezone,
      liveShopName: shop.liveShopName,
      liveShopSlug: shop.slug,
    },
    now,
  );
  await insertWithTimestamps(ctx, "liveShopStreams", { liveShopId: shop._id, streamId, streamStatus }, now);
  return streamId;
}

/** Changes a stream; its status is mirrored onto the `liveShopStreams` link row. */
export async function patchStream(
  ctx: MutationCtx,
  streamId: Id<"streams">,
  patch: Omit<DocPatch<"streams">, StreamFromShop | "liveShopId"> &
    Partial<Pick<NewDoc<"streams">, "timezone">>,
  now = Date.now(),
): Promise<void> {
  const stream = await getStreamOrThrow(ctx, streamId);
  await patchWithTimestamps(ctx, "streams", streamId, patch, now);
  if (patch.streamStatus === undefined || patch.streamStatus === stream.streamStatus) return;
  const link = await ctx.db
    .query("liveShopStreams")
    .withIndex("by_liveShopId_and_streamId", (q) =>
      q.eq("liveShopId", stream.liveShopId).eq("streamId", streamId),
    )
    .unique();
  if (link) {
    await patchWithTimestamps(ctx, "liveShopStreams", link._id, { streamStatus: patch.streamStatus }, now);
  } else {
    await insertWithTimestamps(
      ctx,
      "liveShopStreams",
      { liveShopId: stream.liveShopId, streamId, streamStatus: patch.streamStatus },
      now,
    );
  }
}

export type PlatformLink = {
  platformType: PlatformType;
  platformStreamUrl?: string;
  platformActionUrl?: string;
};

/** Sets a stream's link on one platform: one row per stream and platform type, replaced in place. */
export async function upsertStreamPlatform(
  ctx: MutationCtx,
  streamId: Id<"streams">,
  link: PlatformLink,
  now = Date.now(),
): Promise<Id<"streamPlatforms">> {
  await getStreamOrThrow(ctx, streamId);
  const existing = await ctx.db
    .query("streamPlatforms")
    .withIndex("by_streamId_and_platformType", (q) =>
      q.eq("streamId", streamId).eq("platformType", link.platformType),
    )
    .unique();
  if (existing) {
    await patchWithTimestamps(
      ctx,
      "streamPlatforms",
      existing._id,
      { platformStreamUrl: link.platformStreamUrl, platformActionUrl: link.platformActionUrl },
      now,
    );
    return existing._id;
  }
  return await insertWithTimestamps(ctx, "streamPlatforms", { streamId, ...link }, now);
}

/** Adds a stream's link on a platform; refuses a second link of the same platform type. */
export async function insertStreamPlatform(
  ctx: MutationCtx,
  streamId: Id<"streams">,
  link: PlatformLink,
  now = Date.now(),
): Promise<Id<"streamPlatforms">> {
  const existing = await ctx.db
    .query("streamPlatforms")
    .withIndex("by_streamId_and_platformType", (q) =>
      q.eq("streamId", streamId).eq("platformType", link.platformType),
    )
    .first();
  if (existing) throw appError("CONFLICT", "This stream already has a link for that platform.");
  return await upsertStreamPlatform(ctx, streamId, link, now);
}

export async function linkStreamCategory(
  ctx: MutationCtx,
  streamId: Id<"streams">,
  link: CategoryLink,
  now = Date.now(),
): Promise<Id<"streamCategories">> {
  await assertValidCategoryLink(ctx, link);
  const existing = await ctx.db
    .query("streamCategories")
    .withIndex("by_streamId_and_categoryId", (q) =>
      q.eq("streamId", streamId).eq("categoryId", link.categoryId),
    )
    .collect();
  if (existing.some((row) => row.subcategoryId === link.subcategoryId)) {
    throw appError("CONFLICT", "This stream already has that category.");
  }
  return await insertWithTimestamps(
    ctx,
    "streamCategories",
    {
      streamId,
      categoryId: link.categoryId,
      subcategoryId: link.subcategoryId,
      priority: link.priority ?? 0,
    },
    now,
  );
}

export async function linkStreamMsa(
  ctx: MutationCtx,
  streamId: Id<"streams">,
  msaId: Id<"msas">,
  now = Date.now(),
): Promise<Id<"streamMsas">> {
  if (!(await ctx.db.get("msas", msaId))) throw appError("NOT_FOUND", "Unknown metro area.");
  const existing = await ctx.db
    .query("streamMsas")
    .withIndex("by_streamId_and_msaId", (q) => q.eq("streamId", streamId).eq("msaId", msaId))
    .unique();
  if (existing) throw appError("CONFLICT", "This stream is already listed in that metro area.");
  return await insertWithTimestamps(ctx, "streamMsas", { streamId, msaId }, now);
}
