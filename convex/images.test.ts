import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { IMAGE_UPLOAD } from "./lib/limits";
import { UNUSED_UPLOAD_TTL_MS } from "./model/images";
import { insertLiveShop } from "./model/liveShops";
import { deleteAccount } from "./model/privacy";
import { insertUser } from "./model/users";
import { newTest, storeUpload } from "./test.setup";

const sarah = { subject: "user_sarah", email: "sarah@livelocal.test", name: "Sarah" };
const omar = { subject: "user_omar", email: "omar@livelocal.test", name: "Omar" };
const vera = { subject: "user_vera", email: "vera@livelocal.test", name: "Vera" };
const ada = { subject: "user_ada", email: "ada@livelocal.test", name: "Ada" };

type Backend = ReturnType<typeof newTest>;

const shopForm = (overrides: Record<string, unknown> = {}) => ({
  liveShopName: "Sarah's Vintage",
  slug: "sarahs-vintage",
  description: "Vintage denim.",
  faqSection: [],
  languages: [],
  products: [],
  ...overrides,
});

const streamForm = (streamImageUrls: string[]) => ({
  streamTitle: "Denim drop",
  streamImageUrls,
  timezone: "America/New_York" as const,
  products: [],
});

/** Sarah and Omar, sellers with a shop each; Vera, a viewer; Ada, an admin. */
async function setUp() {
  const t = newTest();
  const ids = await t.run(async (ctx) => {
    const sarahId = await insertUser(ctx, { clerkId: sarah.subject, email: sarah.email, role: "seller" });
    const omarId = await insertUser(ctx, { clerkId: omar.subject, email: omar.email, role: "seller" });
    await insertUser(ctx, { clerkId: vera.subject, email: vera.email });
    await insertUser(ctx, { clerkId: ada.subject, email: ada.email, role: "admin" });
    const liveShopId = await insertLiveShop(ctx, { ...shopForm(), userId: sarahId });
    const omarShopId = await insertLiveShop(ctx, { ...shopForm({ slug: "omars" }), userId: omarId });
    return { sarahId, omarId, liveShopId, omarShopId };
  });
  return {
    t,
    ...ids,
    seller: t.withIdentity(sarah),
    other: t.withIdentity(omar),
    admin: t.withIdentity(ada),
  };
}

async function fileExists(t: Backend, storageId: Id<"_storage">) {
  return await t.run(async (ctx) => (await ctx.storage.get(storageId)) !== null);
}

async function uploads(t: Backend) {
  return await t.run(async (ctx) => await ctx.db.query("imageUploads").collect());
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("pictures by upload", () => {
  test("an upload URL is for a signed-in person only", async () => {
    const { t, seller } = await setUp();
    await expect(t.mutation(api.images.generateUploadUrl, {})).rejects.toMatchObject({
      data: { code: "UNAUTHENTICATED" },
    });
    expect(await seller.mutation(api.images.generateUploadUrl, {})).toMatch(/^https?:\/\/.+upload/);
  });

  test("a shop's logo by upload: claimed, saved, and deleted once replaced by a link", async () => {
    const { t, seller, liveShopId } = await setUp();
    const storageId = await storeUpload(t, { type: "image/webp" });
    const claim = await seller.mutation(api.images.claimUpload, {
      storageId,
      target: { kind: "shop", liveShopId },
    });
    if (!claim.ok) throw new Error(claim.message);
    // Claiming again answers the same address.
    expect(await seller.mutation(api.images.claimUpload, { storageId, target: { kind: "me" } })).toEqual(
      claim,
    );

    await seller.mutation(api.liveShops.updateLiveShop, {
      liveShopId,
      shop: shopForm({ logoUrl: claim.url }),
    });
    expect(await uploads(t)).toMatchObject([
      { storageId, url: claim.url, usedIn: [`liveShops:${liveShopId}:logoUrl`] },
    ]);
    // The public page shows it as it shows a link.
    expect((await t.run(async (ctx) => await ctx.db.get("liveShops", liveShopId)))?.logoUrl).toBe(claim.url);

    await seller.mutation(api.liveShops.updateLiveShop, {
      liveShopId,
      shop: shopForm({ logoUrl: "https://cdn.example/logo.png" }),
    });
    expect(await uploads(t)).toEqual([]);
    expect(await fileExists(t, storageId)).toBe(false);
  });

  test.each([
    ["an HTML page", { type: "text/html" }, "Choose a PNG, JPEG, WebP, GIF or AVIF picture."],
    ["an SVG (scripts)", { type: "image/svg+xml" }, "Choose a PNG, JPEG, WebP, GIF or AVIF picture."],
    ["a picture over 5 MB", { size: IMAGE_UPLOAD.maxBytes + 1 }, "Choose a picture of at most 5 MB."],
  ])("%s is refused in words and its file deleted", async (_label, file, message) => {
    const { t, seller } = await setUp();
    const storageId = await storeUpload(t, file);
    expect(await seller.mutation(api.images.claimUpload, { storageId, target: { kind: "me" } })).toEqual({
      ok: false,
      message,
    });
    expect(await fileExists(t, storageId)).toBe(false);
    expect(await uploads(t)).toEqual([]);
  });

  test("a file claimed by someone else, or someone else's picture in a field, is refused", async () => {
    const { t, seller, other, liveShopId, omarShopId } = await setUp();
    const storageId = await storeUpload(t);
    const claim = await seller.mutation(api.images.claimUpload, {
      storageId,
      target: { kind: "shop", liveShopId },
    });
    if (!claim.ok) throw new Error(claim.message);
    await expect(
      other.mutation(api.images.claimUpload, { storageId, target: { kind: "me" } }),
    ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
    await expect(
      other.mutation(api.liveShops.updateLiveShop, {
        liveShopId: omarShopId,
        shop: shopForm({ slug: "omars", bannerImageUrl: claim.url }),
      }),
    ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
    expect(await fileExists(t, storageId)).toBe(true);
  });

  test("whose picture it is is checked: signed out, another seller's shop, a viewer's correction", async () => {
    const { t, other, liveShopId } = await setUp();
    const storageId = await storeUpload(t);
    await expect(
      t.mutation(api.images.claimUpload, { storageId, target: { kind: "me" } }),
    ).rejects.toMatchObject({ data: { code: "UNAUTHENTICATED" } });
    await expect(
      other.mutation(api.images.claimUpload, { storageId, target: { kind: "shop", liveShopId } }),
    ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
    const requestId = await t
      .withIdentity(sarah)
      .mutation(api.privacy.requestPrivacy, { type: "correction", details: "My picture." });
    await expect(
      t.withIdentity(vera).mutation(api.images.claimUpload, {
        storageId,
        target: { kind: "correction", requestId },
      }),
    ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
    expect(await uploads(t)).toEqual([]);
  });

  test("an admin uploads a person's picture for their correction request; it is theirs", async () => {
    const { t, admin, sarahId } = await setUp();
    const requestId = await t
      .withIdentity(sarah)
      .mutation(api.privacy.requestPrivacy, { type: "correction", details: "My picture." });
    const storageId = await storeUpload(t, { type: "image/jpeg" });
    const claim = await admin.mutation(api.images.claimUpload, {
      storageId,
      target: { kind: "correction", requestId },
    });
    if (!claim.ok) throw new Error(claim.message);
    await admin.mutation(api.privacy.correctProfile, { requestId, profile: { avatar: claim.url } });
    expect(await uploads(t)).toMatchObject([{ userId: sarahId, usedIn: [`users:${sarahId}:avatar`] }]);
  });

  test("a show's pictures: shared by its copy, kept while one still uses them, gone with the last", async () => {
    const { t, seller, liveShopId } = await setUp();
    const storageId = await storeUpload(t, { type: "image/gif" });
    const claim = await seller.mutation(api.images.claimUpload, {
      storageId,
      target: { kind: "shop", liveShopId },
    });
    if (!claim.ok) throw new Error(claim.message);
    const streamId = await seller.mutation(api.streams.createStream, {
      liveShopId,
      stream: streamForm([claim.url, "https://cdn.example/b.png"]),
    });
    const copyId = await seller.mutation(api.streams.duplicateStream, { streamId });
    expect((await uploads(t))[0]?.usedIn.sort()).toEqual(
      [`streams:${streamId}:streamImageUrls`, `streams:${copyId}:streamImageUrls`].sort(),
    );
    await seller.mutation(api.streams.deleteStream, { streamId: copyId });
    expect(await fileExists(t, storageId)).toBe(true);
    await seller.mutation(api.streams.updateStream, {
      streamId,
      stream: streamForm(["https://cdn.example/b.png"]),
    });
    expect(await fileExists(t, storageId)).toBe(false);
    expect(await uploads(t)).toEqual([]);
  });

  test("a profile picture by upload; a picture never saved is deleted a day later", async () => {
    const { t, seller } = await setUp();
    const kept = await storeUpload(t);
    const keptClaim = await seller.mutation(api.images.claimUpload, {
      storageId: kept,
      target: { kind: "me" },
    });
    if (!keptClaim.ok) throw new Error(keptClaim.message);
    await seller.mutation(api.settings.setAvatar, { avatar: keptClaim.url });
    const abandoned = await storeUpload(t);
    await seller.mutation(api.images.claimUpload, { storageId: abandoned, target: { kind: "me" } });

    vi.advanceTimersByTime(UNUSED_UPLOAD_TTL_MS);
    await t.finishAllScheduledFunctions(() => vi.runAllTimers());
    expect(await fileExists(t, abandoned)).toBe(false);
    expect(await fileExists(t, kept)).toBe(true);
    expect(await seller.query(api.users.viewer, {})).toMatchObject({ avatar: keptClaim.url });
    await seller.mutation(api.settings.setAvatar, { avatar: "" });
    expect(await fileExists(t, kept)).toBe(false);
  });

  test("a deleted account's pictures are deleted with it", async () => {
    const { t, seller, liveShopId, sarahId } = await setUp();
    const storageId = await storeUpload(t);
    const claim = await seller.mutation(api.images.claimUpload, {
      storageId,
      target: { kind: "shop", liveShopId },
    });
    if (!claim.ok) throw new Error(claim.message);
    await seller.mutation(api.liveShops.updateLiveShop, {
      liveShopId,
      shop: shopForm({ coverImageUrl: claim.url }),
    });
    await t.run(async (ctx) => await deleteAccount(ctx, (await ctx.db.get("users", sarahId))!));
    await t.finishAllScheduledFunctions(() => vi.runAllTimers());
    expect(await fileExists(t, storageId)).toBe(false);
    expect(await uploads(t)).toEqual([]);
  });
});
