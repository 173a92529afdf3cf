import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { IMAGE_UPLOAD, pictureTypeOf } from "./lib/limits";
import { UNCLAIMED_UPLOAD_TTL_MS, UNUSED_UPLOAD_TTL_MS } from "./model/images";
import { insertLiveShop } from "./model/liveShops";
import { deleteAccount } from "./model/privacy";
import { RATE_LIMITS } from "./model/rateLimits";
import { insertUser } from "./model/users";
import { newTest, pictureBytes, postUpload, uploadPicture } from "./test.setup";

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

async function unclaimed(t: Backend) {
  return await t.run(async (ctx) => await ctx.db.query("unclaimedUploads").collect());
}

async function storedFiles(t: Backend) {
  return await t.run(async (ctx) => (await ctx.db.system.query("_storage").collect()).length);
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

describe("the upload HTTP action", () => {
  test("takes a picture from a signed-in person only, and records it as theirs", async () => {
    const { t, sarahId } = await setUp();
    const refused = await postUpload(t, null, pictureBytes());
    expect(refused.status).toBe(401);
    expect(await refused.text()).toBe("Sign in to upload a picture.");
    expect(await storedFiles(t)).toBe(0);

    const storageId = await uploadPicture(t, sarah, { type: "image/webp" });
    expect(await unclaimed(t)).toMatchObject([{ storageId, uploaderId: sarahId, contentType: "image/webp" }]);
    const file = await t.run(async (ctx) => await ctx.db.system.get("_storage", storageId));
    expect(file?.size).toBe(64);
  });

  // Real 2×2 pictures as an image editor writes them (made with sharp), each named a PNG by the browser.
  const REAL_PICTURES = {
    "image/png":
      "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWM4IRd1Qi6KAUIBACTGBQFoaYMtAAAAAElFTkSuQmCC",
    "image/jpeg":
      "/9j/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAACAAIDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAb/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAAAQf/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCKAKtv/9k=",
    "image/webp": "UklGRjQAAABXRUJQVlA4ICgAAABQAQCdASoCAAIAAUAmJaAABDOAAP7wmyP//ucD//ZwP/9nA/iQAAAA",
  } as const;

  test.each(Object.entries(REAL_PICTURES))(
    "a real %s is taken, stored as what its bytes are",
    async (type, base64) => {
      const { t } = await setUp();
      const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      const response = await postUpload(t, sarah, bytes, "image/png");
      expect(response.status).toBe(200);
      const { storageId } = (await response.json()) as { storageId: Id<"_storage"> };
      expect(await unclaimed(t)).toMatchObject([{ storageId, contentType: type }]);
    },
  );

  test.each([
    ["a text file renamed .png", "Shopping list: yarn, needles, buttons.\n", "image/png", 415],
    [
      "an SVG with a script renamed .png",
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>',
      "image/png",
      415,
    ],
    ["an HTML page called a PNG", "<!doctype html><script>alert(1)</script>", "image/png", 415],
    ["an SVG (scripts)", '<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>', "image/svg+xml", 415],
    ["a picture over 5 MB", pictureBytes("image/png", IMAGE_UPLOAD.maxBytes + 1), "image/png", 413],
    ["an empty file", "", "image/png", 400],
  ])("%s is refused in words and nothing is stored", async (_label, body, type, status) => {
    const { t } = await setUp();
    const response = await postUpload(t, sarah, body, type);
    expect(response.status).toBe(status);
    expect(await response.text()).toMatch(
      /^(Choose a PNG, JPEG, WebP, GIF or AVIF picture\.|Choose a picture of at most 5 MB\.|This file is empty; choose another picture\.)$/,
    );
    expect(await storedFiles(t)).toBe(0);
    expect(await unclaimed(t)).toEqual([]);
  });

  test("reads a picture's type from its bytes", () => {
    for (const type of IMAGE_UPLOAD.types) expect(pictureTypeOf(pictureBytes(type))).toBe(type);
    expect(pictureTypeOf(new TextEncoder().encode("<svg/>"))).toBeUndefined();
    expect(pictureTypeOf(new Uint8Array(0))).toBeUndefined();
  });

  test("a person uploading in a burst is stopped, told when to try again, and nothing is stored", async () => {
    const { t } = await setUp();
    for (let i = 0; i < RATE_LIMITS.pictureUpload.capacity; i++) await uploadPicture(t, sarah);
    const before = await storedFiles(t);
    const refused = await postUpload(t, sarah, pictureBytes());
    expect(refused.status).toBe(429);
    expect(await refused.text()).toMatch(
      /^That was a lot of pictures in a short time\. Please try again in \d+ seconds?\.$/,
    );
    expect(await storedFiles(t)).toBe(before);
    // Another person has an allowance of their own; Sarah gets one more a minute later.
    await uploadPicture(t, omar);
    vi.advanceTimersByTime(61_000);
    await uploadPicture(t, sarah);
  });

  test("answers the browser's preflight, for the app's origins once APP_ORIGINS names them", async () => {
    const { t } = await setUp();
    const preflight = async (origin: string) =>
      await t.fetch("/images/upload", { method: "OPTIONS", headers: { Origin: origin } });
    const open = await preflight("https://livelocal.example");
    expect(open.status).toBe(204);
    expect(open.headers.get("Access-Control-Allow-Methods")).toBe("POST, OPTIONS");
    expect(open.headers.get("Access-Control-Allow-Headers")).toBe("Authorization, Content-Type");
    vi.stubEnv("APP_ORIGINS", "https://livelocal.example");
    try {
      expect((await preflight("https://livelocal.example")).headers.get("Access-Control-Allow-Origin")).toBe(
        "https://livelocal.example",
      );
      expect((await preflight("https://evil.example")).headers.get("Access-Control-Allow-Origin")).toBeNull();
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe("nobody claims or deletes a file they did not upload", () => {
  test("a stranger claiming another's upload is refused, and the file stays hers to claim", async () => {
    const { t, seller, other, liveShopId } = await setUp();
    const storageId = await uploadPicture(t, sarah);
    for (const target of [{ kind: "me" as const }, { kind: "shop" as const, liveShopId: liveShopId }]) {
      await expect(other.mutation(api.images.claimUpload, { storageId, target })).rejects.toMatchObject({
        data: { code: expect.stringMatching(/^(NOT_FOUND|FORBIDDEN)$/) as string },
      });
    }
    expect(await fileExists(t, storageId)).toBe(true);
    const claim = await seller.mutation(api.images.claimUpload, { storageId, target: { kind: "me" } });
    expect(claim.ok).toBe(true);
  });

  test("a new account stepping through every storage id deletes no data export, picture or upload", async () => {
    const { t, seller, admin, liveShopId } = await setUp();
    vi.stubEnv("NOTIFICATIONS_SECRET", "test-secret");
    // Sarah's data export, a picture she uses, and one she has just uploaded.
    const requestId = await seller.mutation(api.privacy.requestPrivacy, { type: "access" });
    await admin.mutation(api.privacy.decidePrivacyRequest, { requestId, decision: "approve" });
    await t.finishAllScheduledFunctions(() => vi.advanceTimersByTime(0));
    const exportRow = await t.run(async (ctx) => await ctx.db.query("dataExports").first());
    expect(exportRow).not.toBeNull();
    const logo = await uploadPicture(t, sarah);
    const claim = await seller.mutation(api.images.claimUpload, {
      storageId: logo,
      target: { kind: "shop", liveShopId },
    });
    if (!claim.ok) throw new Error(claim.message);
    await seller.mutation(api.liveShops.updateLiveShop, {
      liveShopId,
      shop: shopForm({ logoUrl: claim.url }),
    });
    await uploadPicture(t, sarah);

    // Mallory signs up and tries every id there is (more than guessing could find).
    const mallory = { subject: "user_mallory", email: "mallory@livelocal.test", name: "Mallory" };
    await t.run(async (ctx) => await insertUser(ctx, { clerkId: mallory.subject, email: mallory.email }));
    const everyId = await t.run(async (ctx) =>
      (await ctx.db.system.query("_storage").collect()).map((file) => file._id),
    );
    expect(everyId).toHaveLength(3);
    for (const storageId of everyId) {
      const outcome = await t
        .withIdentity(mallory)
        .mutation(api.images.claimUpload, { storageId, target: { kind: "me" } })
        .then(
          (answer) => answer,
          (error: { data?: { code?: string } }) => error.data?.code,
        );
      expect(outcome).toMatch(/^(NOT_FOUND|FORBIDDEN)$/);
    }
    expect(await storedFiles(t)).toBe(3);
    // Sarah's export still downloads.
    const download = await t.withIdentity(sarah).fetch("/privacy/export");
    expect(download.status).toBe(200);
  });

  test("in a race, a stranger claiming each fresh upload first takes none of 20", async () => {
    const { t, seller, other } = await setUp();
    let stolen = 0;
    for (let i = 0; i < 20; i++) {
      const storageId = await uploadPicture(t, sarah);
      const [theirs, hers] = await Promise.allSettled([
        other.mutation(api.images.claimUpload, { storageId, target: { kind: "me" } }),
        seller.mutation(api.images.claimUpload, { storageId, target: { kind: "me" } }),
      ]);
      if (theirs.status === "fulfilled") stolen += 1;
      expect(hers).toMatchObject({ status: "fulfilled", value: { ok: true } });
    }
    expect(stolen).toBe(0);
    expect(await uploads(t)).toHaveLength(20);
  });

  test("an upload nobody claims is deleted, with its record, an hour later; a claimed one stays", async () => {
    const { t, seller } = await setUp();
    const abandoned = await uploadPicture(t, sarah);
    const claimedId = await uploadPicture(t, sarah);
    await seller.mutation(api.images.claimUpload, { storageId: claimedId, target: { kind: "me" } });
    vi.advanceTimersByTime(UNCLAIMED_UPLOAD_TTL_MS - 1_000);
    expect(await fileExists(t, abandoned)).toBe(true);
    vi.advanceTimersByTime(1_000);
    await t.finishInProgressScheduledFunctions();
    expect(await unclaimed(t)).toEqual([]);
    expect(await fileExists(t, abandoned)).toBe(false);
    expect(await fileExists(t, claimedId)).toBe(true);
    // Claiming it now finds nothing to claim.
    await expect(
      seller.mutation(api.images.claimUpload, { storageId: abandoned, target: { kind: "me" } }),
    ).rejects.toMatchObject({ data: { code: "NOT_FOUND" } });
  });
});

describe("pictures by upload", () => {
  test("a shop's logo by upload: claimed, saved, and deleted once replaced by a link", async () => {
    const { t, seller, liveShopId } = await setUp();
    const storageId = await uploadPicture(t, sarah, { type: "image/webp" });
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

  test("a file claimed by someone else, or someone else's picture in a field, is refused", async () => {
    const { t, seller, other, liveShopId, omarShopId } = await setUp();
    const storageId = await uploadPicture(t, sarah);
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
    const storageId = await uploadPicture(t, sarah);
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
    const storageId = await uploadPicture(t, ada, { type: "image/jpeg" });
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
    const storageId = await uploadPicture(t, sarah, { type: "image/gif" });
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
    const kept = await uploadPicture(t, sarah);
    const keptClaim = await seller.mutation(api.images.claimUpload, {
      storageId: kept,
      target: { kind: "me" },
    });
    if (!keptClaim.ok) throw new Error(keptClaim.message);
    await seller.mutation(api.settings.setAvatar, { avatar: keptClaim.url });
    const abandoned = await uploadPicture(t, sarah);
    await seller.mutation(api.images.claimUpload, { storageId: abandoned, target: { kind: "me" } });

    vi.advanceTimersByTime(UNUSED_UPLOAD_TTL_MS);
    await t.finishAllScheduledFunctions(() => vi.runAllTimers());
    expect(await fileExists(t, abandoned)).toBe(false);
    expect(await fileExists(t, kept)).toBe(true);
    expect(await seller.query(api.users.viewer, {})).toMatchObject({ avatar: keptClaim.url });
    await seller.mutation(api.settings.setAvatar, { avatar: "" });
    expect(await fileExists(t, kept)).toBe(false);
  });

  test("a deleted account's pictures, claimed or not, are deleted with it", async () => {
    const { t, seller, liveShopId, sarahId } = await setUp();
    const storageId = await uploadPicture(t, sarah);
    const claim = await seller.mutation(api.images.claimUpload, {
      storageId,
      target: { kind: "shop", liveShopId },
    });
    if (!claim.ok) throw new Error(claim.message);
    await seller.mutation(api.liveShops.updateLiveShop, {
      liveShopId,
      shop: shopForm({ coverImageUrl: claim.url }),
    });
    const pending = await uploadPicture(t, sarah);
    await t.run(async (ctx) => await deleteAccount(ctx, (await ctx.db.get("users", sarahId))!));
    await t.finishAllScheduledFunctions(() => vi.runAllTimers());
    expect(await fileExists(t, storageId)).toBe(false);
    expect(await fileExists(t, pending)).toBe(false);
    expect(await uploads(t)).toEqual([]);
    expect(await unclaimed(t)).toEqual([]);
  });
});
