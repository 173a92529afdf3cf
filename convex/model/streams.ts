// JSON with sorted keys, absent and undefined fields alike: two values compare equal as stored.
import { stringify as canonicalJson } from "safe-stable-stringify";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import {
  AUTO_END_AFTER_MS,
  DEFAULT_STREAM_STATUS,
  PLATFORM_TYPES,
  type PlatformType,
} from "../lib/constants";
import {
  canSetReplayUrl,
  checkStreamSchedule,
  isTerminalStreamStatus,
  shouldAutoEnd,
} from "../lib/lifecycle";
import { cutToLength, LIMITS, type PlatformLinkInput, type StreamInput } from "../lib/validation";
import { assertValidCategoryLink, type CategoryLink } from "./categories";
import { appError } from "./errors";
import {
  assertValidCategoryLinks,
  cbsaCodesOf,
  getMsasByCbsaCodeOrThrow,
  planLinkReplacement,
  replaceCategoryRows,
  replaceMsaRows,
  streamCategoryRows,
  streamMsaRows,
  toCategoryLinks,
  type CategoryLinkValue,
} from "./links";
import { getLiveShopOrThrow } from "./liveShops";
import { syncStreamImages } from "./images";
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
  await syncStreamImages(ctx, { _id: streamId, liveShopId: shop._id }, [], stream.streamImageUrls ?? [], now);
  return streamId;
}

/**
 * Changes a stream; its status is mirrored onto the `liveShopStreams` link row, and changed pictures keep
 * uploads in step (model/images.ts).
 */
export async function patchStream(
  ctx: MutationCtx,
  streamId: Id<"streams">,
  patch: Omit<DocPatch<"streams">, StreamFromShop | "liveShopId"> &
    Partial<Pick<NewDoc<"streams">, "timezone">>,
  now = Date.now(),
): Promise<void> {
  const stream = await getStreamOrThrow(ctx, streamId);
  if (patch.streamImageUrls !== undefined) {
    await syncStreamImages(ctx, stream, stream.streamImageUrls, patch.streamImageUrls, now);
  }
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

// ---------------------------------------------------------------------------------------------------
// What the owner edits: the stream's fields, categories, metro areas and platform links

type StreamFormFields = { [K in keyof StreamInput]: StreamInput[K] };

/**
 * Every field of the stream form, with `undefined` for each one left blank: as a patch, it clears what
 * the owner emptied.
 */
export function streamFormFields(input: StreamInput): StreamFormFields {
  const fields = {
    streamTitle: input.streamTitle,
    streamDescription: input.streamDescription,
    streamImageUrls: input.streamImageUrls,
    streamVideoUrl: input.streamVideoUrl,
    replayVideoUrl: input.replayVideoUrl,
    streamTrailerUrl: input.streamTrailerUrl,
    streamStartUTC: input.streamStartUTC,
    streamStopUTC: input.streamStopUTC,
    timezone: input.timezone,
    products: input.products,
  } satisfies Record<keyof StreamInput, unknown>;
  return fields;
}

function changedFields(stream: Doc<"streams">, fields: StreamFormFields): (keyof StreamFormFields)[] {
  return (Object.keys(fields) as (keyof StreamFormFields)[]).filter(
    (key) => canonicalJson(stream[key]) !== canonicalJson(fields[key]),
  );
}

/** Drafts, scheduled, live and paused streams can be edited; ended and cancelled ones cannot. */
export function assertStreamEditable(stream: Doc<"streams">): void {
  if (!isTerminalStreamStatus(stream.streamStatus)) return;
  throw appError(
    "NOT_EDITABLE",
    stream.streamStatus === "ENDED"
      ? "An ended stream can't be changed, except its replay link."
      : "A cancelled stream can't be changed.",
  );
}

/**
 * The patch an edit of the stream form makes, or why it is refused: an ended stream takes only a new
 * replay link, a cancelled one nothing; a replay link waits for the end; a scheduled stream keeps a
 * complete schedule and a stream that went live keeps its start time.
 */
export function planStreamEdit(stream: Doc<"streams">, input: StreamInput): Partial<StreamFormFields> {
  const fields = streamFormFields(input);
  const changed = changedFields(stream, fields);
  if (canSetReplayUrl(stream.streamStatus) && changed.every((key) => key === "replayVideoUrl")) {
    return { replayVideoUrl: fields.replayVideoUrl };
  }
  assertStreamEditable(stream);
  if (changed.includes("replayVideoUrl")) {
    throw appError("NOT_EDITABLE", "A replay link can be added once the stream has ended.");
  }
  if (stream.streamStatus === "SCHEDULED") {
    const refusal = checkStreamSchedule(fields);
    if (refusal) throw appError(refusal.code, refusal.message);
  }
  if (
    (stream.streamStatus === "LIVE" || stream.streamStatus === "PAUSED") &&
    fields.streamStartUTC === undefined
  ) {
    throw appError("MISSING_TIMES", "A stream that has gone live keeps its start time.");
  }
  return fields;
}

/** A new stream from the form: a draft, without a replay link (that waits for the end). */
export function newStreamFromForm(liveShopId: Id<"liveShops">, input: StreamInput): NewStream {
  if (input.replayVideoUrl !== undefined) {
    throw appError("NOT_EDITABLE", "A replay link can be added once the stream has ended.");
  }
  return { ...streamFormFields(input), liveShopId, streamStatus: DEFAULT_STREAM_STATUS };
}

const COPY_SUFFIX = " (copy)";

/** "Denim drop (copy)", cut so it stays within the title limit (never inside a character). */
export function copyTitle(title: string): string {
  return `${cutToLength(title, LIMITS.streamTitle - COPY_SUFFIX.length)}${COPY_SUFFIX}`;
}

async function listStreamPlatformRows(
  ctx: QueryCtx,
  streamId: Id<"streams">,
): Promise<Doc<"streamPlatforms">[]> {
  return await ctx.db
    .query("streamPlatforms")
    .withIndex("by_streamId_and_platformType", (q) => q.eq("streamId", streamId))
    .take(PLATFORM_TYPES.length);
}

export async function listStreamCategories(
  ctx: QueryCtx,
  streamId: Id<"streams">,
): Promise<CategoryLinkValue[]> {
  return toCategoryLinks(await streamCategoryRows(ctx, streamId));
}

export async function listStreamCbsaCodes(ctx: QueryCtx, streamId: Id<"streams">): Promise<string[]> {
  return await cbsaCodesOf(ctx, await streamMsaRows(ctx, streamId));
}

/** The stream's platform links in the order of PLATFORM_TYPES. */
export async function listStreamPlatforms(ctx: QueryCtx, streamId: Id<"streams">): Promise<PlatformLink[]> {
  const rows = await listStreamPlatformRows(ctx, streamId);
  return rows.map(({ platformType, platformStreamUrl, platformActionUrl }) => ({
    platformType,
    platformStreamUrl,
    platformActionUrl,
  }));
}

export async function replaceStreamCategories(
  ctx: MutationCtx,
  streamId: Id<"streams">,
  links: readonly CategoryLinkValue[],
  now = Date.now(),
): Promise<void> {
  await assertValidCategoryLinks(ctx, links);
  await replaceCategoryRows(
    ctx,
    "streamCategories",
    await streamCategoryRows(ctx, streamId),
    links,
    (link) => linkStreamCategory(ctx, streamId, link, now),
    now,
  );
}

export async function replaceStreamMsas(
  ctx: MutationCtx,
  streamId: Id<"streams">,
  cbsaCodes: readonly string[],
  now = Date.now(),
): Promise<void> {
  const msas = await getMsasByCbsaCodeOrThrow(ctx, cbsaCodes);
  await replaceMsaRows(ctx, "streamMsas", await streamMsaRows(ctx, streamId), msas, (msaId) =>
    linkStreamMsa(ctx, streamId, msaId, now),
  );
}

/** The stream form's link sets: each one given replaces the stream's, one left out is kept as it is. */
export type StreamFormLinks = {
  categories?: readonly CategoryLinkValue[];
  cbsaCodes?: readonly string[];
  platforms?: readonly PlatformLinkInput[];
};

/**
 * Replaces the link sets the stream form carries, in the caller's transaction (its fields are saved
 * with it, so a refusal of any part writes nothing). Only an editable stream's links change.
 */
export async function replaceStreamLinks(
  ctx: MutationCtx,
  stream: Doc<"streams">,
  links: StreamFormLinks,
  now = Date.now(),
): Promise<void> {
  if (!links.categories && !links.cbsaCodes && !links.platforms) return;
  assertStreamEditable(stream);
  if (links.categories) await replaceStreamCategories(ctx, stream._id, links.categories, now);
  if (links.platforms) await replaceStreamPlatforms(ctx, stream._id, links.platforms, now);
  if (links.cbsaCodes) await replaceStreamMsas(ctx, stream._id, links.cbsaCodes, now);
}

/** Replaces a stream's platform links (one per platform type, already checked by the schema). */
export async function replaceStreamPlatforms(
  ctx: MutationCtx,
  streamId: Id<"streams">,
  links: readonly PlatformLinkInput[],
  now = Date.now(),
): Promise<void> {
  const plan = planLinkReplacement(
    await listStreamPlatformRows(ctx, streamId),
    links,
    (row) => row.platformType,
    (link) => link.platformType,
  );
  for (const row of plan.remove) await ctx.db.delete("streamPlatforms", row._id);
  for (const { row, value } of plan.keep) {
    // An unchanged link is not written again: each write derives the stream's listings again.
    if (
      row.platformStreamUrl === value.platformStreamUrl &&
      row.platformActionUrl === value.platformActionUrl
    )
      continue;
    await upsertStreamPlatform(ctx, streamId, value, now);
  }
  for (const link of plan.add) await insertStreamPlatform(ctx, streamId, link, now);
}

/**
 * A new draft with the stream's content, categories, metro areas and platform links: no times, no
 * replay link, "(copy)" after the title.
 */
export async function duplicateStreamWithLinks(
  ctx: MutationCtx,
  stream: Doc<"streams">,
  now = Date.now(),
): Promise<Id<"streams">> {
  const copyId = await insertStream(
    ctx,
    {
      liveShopId: stream.liveShopId,
      streamTitle: copyTitle(stream.streamTitle),
      streamDescription: stream.streamDescription,
      streamImageUrls: stream.streamImageUrls,
      streamVideoUrl: stream.streamVideoUrl,
      streamTrailerUrl: stream.streamTrailerUrl,
      timezone: stream.timezone,
      products: stream.products,
      locationLabel: stream.locationLabel,
    },
    now,
  );
  for (const link of await listStreamCategories(ctx, stream._id))
    await linkStreamCategory(ctx, copyId, link, now);
  for (const row of await streamMsaRows(ctx, stream._id)) await linkStreamMsa(ctx, copyId, row.msaId, now);
  for (const link of await listStreamPlatforms(ctx, stream._id))
    await insertStreamPlatform(ctx, copyId, link, now);
  return copyId;
}

/** Streams ended per run of the auto-end job; more are left to the next run, scheduled at once. */
export const AUTO_END_BATCH_SIZE = 100;

/**
 * Ends LIVE and PAUSED streams whose stop time passed more than AUTO_END_AFTER_MS ago (at most `limit`).
 * `more` says the batch was full, so another run should follow.
 */
export async function endOverdueStreams(
  ctx: MutationCtx,
  now: number,
  limit = AUTO_END_BATCH_SIZE,
): Promise<{ ended: number; more: boolean }> {
  let ended = 0;
  for (const status of ["LIVE", "PAUSED"] as const) {
    const overdue = await ctx.db
      .query("streams")
      .withIndex("by_streamStatus_and_streamStopUTC", (q) =>
        // The lower bound leaves out streams without a stop time, which sort first.
        q
          .eq("streamStatus", status)
          .gte("streamStopUTC", 0)
          .lt("streamStopUTC", now - AUTO_END_AFTER_MS),
      )
      .take(limit - ended);
    for (const stream of overdue) {
      if (!shouldAutoEnd(stream, now)) continue;
      await patchStream(ctx, stream._id, { streamStatus: "ENDED" }, now);
      ended++;
    }
    if (ended >= limit) return { ended, more: true };
  }
  return { ended, more: false };
}
