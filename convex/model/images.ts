/**
 * Pictures uploaded to file storage (issue 16, decisions 028 and 054). The browser posts the file to
 * `POST /images/upload` (convex/http.ts) with the person's token: the server checks who it is, their
 * upload allowance, the size and the bytes, stores it and records who uploaded it (`recordUpload`).
 * The uploader then claims the storage id for whoever the picture is for (`claimImageUpload`), and is
 * answered with the file's address; nobody else can claim it, and an upload nobody claims is deleted
 * an hour later. That address goes into the same image fields a typed link does, so every page shows
 * either alike. Each claimed file remembers which fields use it (`syncImageSlot`, called by the write
 * helpers of users, shops and streams): a file no field uses any more is deleted, as is one never used
 * a day after its upload, and all of an account's with the account.
 */
import { internal } from "../_generated/api";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { imageUploadProblem } from "../lib/limits";
import { appError } from "./errors";
import { insertWithTimestamps, patchWithTimestamps } from "./timestamps";

/** A claimed picture nobody saved into a field is deleted after this long. */
export const UNUSED_UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

/** An upload its uploader never claimed is deleted after this long (the app claims one at once). */
export const UNCLAIMED_UPLOAD_TTL_MS = 60 * 60 * 1000;

/** Where a picture is used: a field of one row. */
export type ImageSlot = `${"users" | "liveShops" | "streams"}:${string}:${string}`;

export function imageSlot(table: "users" | "liveShops" | "streams", id: string, field: string): ImageSlot {
  return `${table}:${id}:${field}`;
}

export type ClaimResult = { ok: true; url: string } | { ok: false; message: string };

/**
 * Records that `uploaderId` uploaded `storageId` (just stored by the upload HTTP action, which read
 * `contentType` from its bytes): theirs to claim for an hour, then deleted unless claimed.
 */
export async function recordUpload(
  ctx: MutationCtx,
  {
    storageId,
    uploaderId,
    contentType,
  }: Pick<Doc<"unclaimedUploads">, "storageId" | "uploaderId" | "contentType">,
  now = Date.now(),
): Promise<void> {
  await insertWithTimestamps(ctx, "unclaimedUploads", { storageId, uploaderId, contentType }, now);
  await ctx.scheduler.runAfter(UNCLAIMED_UPLOAD_TTL_MS, internal.images.deleteIfUnclaimed, { storageId });
}

/**
 * Claims a file `uploaderId` uploaded as a picture of `ownerId`'s (the same person, or the owner of what
 * an admin edits). Only an upload recorded as the caller's is claimed, or ever deleted, here: any other
 * storage id (another person's upload, a picture in use, a data export) is "not found" and left alone.
 * A refusal for a file that is not a picture within the limits deletes the file and is answered as a
 * value, not thrown, so the deletion is kept. Claiming a claimed picture of the same owner answers its
 * address again; another owner's is refused.
 */
export async function claimImageUpload(
  ctx: MutationCtx,
  storageId: Id<"_storage">,
  ownerId: Id<"users">,
  uploaderId: Id<"users">,
  now = Date.now(),
): Promise<ClaimResult> {
  const claimed = await uploadByStorageId(ctx, storageId);
  if (claimed) {
    if (claimed.userId !== ownerId) {
      throw appError("FORBIDDEN", "This picture was uploaded by someone else. Upload your own.");
    }
    return { ok: true, url: claimed.url };
  }
  const unclaimed = await unclaimedByStorageId(ctx, storageId);
  const file = unclaimed && (await ctx.db.system.get("_storage", storageId));
  if (unclaimed?.uploaderId !== uploaderId || !file) {
    throw appError("NOT_FOUND", "The upload was not found. Choose the picture again.");
  }
  await ctx.db.delete("unclaimedUploads", unclaimed._id);
  const problem = imageUploadProblem({ type: unclaimed.contentType, size: file.size });
  if (problem !== undefined) {
    await ctx.storage.delete(storageId);
    return { ok: false, message: problem };
  }
  const url = await ctx.storage.getUrl(storageId);
  if (url === null) throw appError("NOT_FOUND", "The upload was not found. Choose the picture again.");
  await insertWithTimestamps(ctx, "imageUploads", { storageId, userId: ownerId, url, usedIn: [] }, now);
  await ctx.scheduler.runAfter(UNUSED_UPLOAD_TTL_MS, internal.images.deleteIfUnused, { storageId });
  return { ok: true, url };
}

async function unclaimedByStorageId(ctx: MutationCtx, storageId: Id<"_storage">) {
  return await ctx.db
    .query("unclaimedUploads")
    .withIndex("by_storageId", (q) => q.eq("storageId", storageId))
    .unique();
}

/** Deletes an unclaimed upload's file (if it is still there) and its record. */
export async function deleteUnclaimedUpload(
  ctx: MutationCtx,
  upload: Doc<"unclaimedUploads">,
): Promise<void> {
  if (await ctx.db.system.get("_storage", upload.storageId)) await ctx.storage.delete(upload.storageId);
  await ctx.db.delete("unclaimedUploads", upload._id);
}

/** Deletes an upload still unclaimed (run an hour after it was made). */
export async function deleteIfUnclaimed(ctx: MutationCtx, storageId: Id<"_storage">): Promise<void> {
  const upload = await unclaimedByStorageId(ctx, storageId);
  if (upload) await deleteUnclaimedUpload(ctx, upload);
}

async function uploadByStorageId(ctx: MutationCtx, storageId: Id<"_storage">) {
  return await ctx.db
    .query("imageUploads")
    .withIndex("by_storageId", (q) => q.eq("storageId", storageId))
    .unique();
}

async function uploadByUrl(ctx: MutationCtx, url: string) {
  return await ctx.db
    .query("imageUploads")
    .withIndex("by_url", (q) => q.eq("url", url))
    .first();
}

/** Deletes the file and its row. */
export async function deleteImageUpload(ctx: MutationCtx, upload: Doc<"imageUploads">): Promise<void> {
  await ctx.storage.delete(upload.storageId);
  await ctx.db.delete("imageUploads", upload._id);
}

/** Deletes a claimed picture that no field has used since its upload. */
export async function deleteIfUnused(ctx: MutationCtx, storageId: Id<"_storage">): Promise<void> {
  const upload = await uploadByStorageId(ctx, storageId);
  if (upload && upload.usedIn.length === 0) await deleteImageUpload(ctx, upload);
}

/**
 * Keeps the uploads' use in step with one field of `ownerId`'s row changing from `before` to `after`
 * (the field's addresses; a typed link is no upload and is left alone). An uploaded picture newly used
 * must be the owner's; one no longer used anywhere is deleted.
 */
export async function syncImageSlot(
  ctx: MutationCtx,
  ownerId: Id<"users">,
  slot: ImageSlot,
  before: readonly (string | undefined)[],
  after: readonly (string | undefined)[],
  now = Date.now(),
): Promise<void> {
  const was = new Set(before.filter((url): url is string => url !== undefined));
  const is = new Set(after.filter((url): url is string => url !== undefined));
  for (const url of is) {
    if (was.has(url)) continue;
    const upload = await uploadByUrl(ctx, url);
    if (!upload) continue;
    if (upload.userId !== ownerId) {
      throw appError(
        "FORBIDDEN",
        "One of these pictures was uploaded for another account. Upload it again here.",
      );
    }
    if (!upload.usedIn.includes(slot)) {
      await patchWithTimestamps(ctx, "imageUploads", upload._id, { usedIn: [...upload.usedIn, slot] }, now);
    }
  }
  for (const url of was) {
    if (is.has(url)) continue;
    const upload = await uploadByUrl(ctx, url);
    if (!upload) continue;
    const usedIn = upload.usedIn.filter((other) => other !== slot);
    if (usedIn.length === 0) await deleteImageUpload(ctx, upload);
    else await patchWithTimestamps(ctx, "imageUploads", upload._id, { usedIn }, now);
  }
}

/** The image fields of a shop, by name. */
export const SHOP_IMAGE_FIELDS = ["logoUrl", "bannerImageUrl", "coverImageUrl"] as const;

/** Keeps a shop's uploads in step with its image fields changing from `before` to `after`. */
export async function syncShopImages(
  ctx: MutationCtx,
  shop: Pick<Doc<"liveShops">, "_id" | "userId">,
  before: Partial<Pick<Doc<"liveShops">, (typeof SHOP_IMAGE_FIELDS)[number]>>,
  after: Partial<Pick<Doc<"liveShops">, (typeof SHOP_IMAGE_FIELDS)[number]>>,
  now = Date.now(),
): Promise<void> {
  for (const field of SHOP_IMAGE_FIELDS) {
    if (!(field in after)) continue;
    await syncImageSlot(
      ctx,
      shop.userId,
      imageSlot("liveShops", shop._id, field),
      [before[field]],
      [after[field]],
      now,
    );
  }
}

/** Keeps a stream's uploads in step with its pictures changing from `before` to `after`. */
export async function syncStreamImages(
  ctx: MutationCtx,
  stream: Pick<Doc<"streams">, "_id" | "liveShopId">,
  before: readonly string[],
  after: readonly string[],
  now = Date.now(),
): Promise<void> {
  if (before.length === 0 && after.length === 0) return;
  const shop = await ctx.db.get("liveShops", stream.liveShopId);
  if (!shop) return;
  await syncImageSlot(
    ctx,
    shop.userId,
    imageSlot("streams", stream._id, "streamImageUrls"),
    before,
    after,
    now,
  );
}
