/**
 * Privacy requests end to end through the public functions: asking, cancelling, deciding, the export's
 * download, restriction and retention. Which caller may call what is the authorization matrix's job;
 * what an export holds and what a deletion leaves are model/userData.test.ts's.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { DATA_EXPORT_TTL_MS } from "./lib/constants";
import {
  CORRECTION_NOTE_REQUIRED,
  LIMITS,
  NOTHING_CORRECTED,
  REJECTION_REASON_REQUIRED,
} from "./lib/validation";
import { insertLiveShop } from "./model/liveShops";
import { addCalendarMonths, deleteAccount } from "./model/privacy";
import { insertStream } from "./model/streams";
import { insertWithTimestamps } from "./model/timestamps";
import { insertUser, recordClerkUserDeleted, tombstoneKey } from "./model/users";
import { newTest } from "./test.setup";

type Backend = ReturnType<typeof newTest>;

const VERA = { subject: "user_vera", email: "vera@livelocal.test", name: "Vera Viewer" };
const SARAH = { subject: "user_sarah", email: "sarah@livelocal.test", name: "Sarah Seller" };
const ADA = { subject: "user_ada", email: "ada@livelocal.test", name: "Ada Admin" };

const FIRST_PAGE = { numItems: 20, cursor: null };
const EXPLORE = {
  filter: { categories: [], subcategories: [], states: [], msas: [] },
  paginationOpts: FIRST_PAGE,
};

async function setUp(t: Backend) {
  return await t.run(async (ctx) => {
    const veraId = await insertUser(ctx, { clerkId: VERA.subject, email: VERA.email, name: VERA.name });
    const sarahId = await insertUser(ctx, {
      clerkId: SARAH.subject,
      email: SARAH.email,
      name: SARAH.name,
      role: "seller",
    });
    const adaId = await insertUser(ctx, {
      clerkId: ADA.subject,
      email: ADA.email,
      name: ADA.name,
      role: "admin",
    });
    const liveShopId = await insertLiveShop(ctx, {
      userId: sarahId,
      liveShopName: "Sarah's Vintage",
      slug: "sarahs-vintage",
      status: "active",
    });
    const liveId = await insertStream(ctx, {
      liveShopId,
      streamTitle: "Denim live",
      streamStatus: "LIVE",
      streamStartUTC: Date.now() - 60_000,
    });
    return { veraId, sarahId, adaId, liveShopId, liveId };
  });
}

const as = (t: Backend, identity: typeof VERA) => t.withIdentity(identity);

async function runDueFunctions(t: Backend) {
  await t.finishAllScheduledFunctions(() => vi.advanceTimersByTime(0));
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date("2025-01-31T15:00:00Z"));
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

describe("due dates: one calendar month (GDPR article 12(3))", () => {
  test.each([
    ["2025-01-31T15:00:00.000Z", "2025-02-28T15:00:00.000Z"],
    ["2024-01-31T15:00:00.000Z", "2024-02-29T15:00:00.000Z"],
    ["2025-03-31T00:30:00.000Z", "2025-04-30T00:30:00.000Z"],
    ["2025-12-15T23:59:59.999Z", "2026-01-15T23:59:59.999Z"],
    ["2025-02-28T08:00:00.000Z", "2025-03-28T08:00:00.000Z"],
  ])("%s → %s", (from, due) => {
    expect(new Date(addCalendarMonths(Date.parse(from))).toISOString()).toBe(due);
  });

  test("a request is due one month after it was made", async () => {
    const t = newTest();
    await setUp(t);
    await as(t, VERA).mutation(api.privacy.requestPrivacy, { type: "access" });
    const mine = await as(t, VERA).query(api.privacy.myPrivacy, {});
    expect(mine?.open).toMatchObject({
      type: "access",
      status: "pending_export",
      requestedAt: Date.parse("2025-01-31T15:00:00Z"),
      dueAt: Date.parse("2025-02-28T15:00:00Z"),
    });
  });
});

describe("asking", () => {
  test("one open request at a time; the user row follows it", async () => {
    const t = newTest();
    const { veraId } = await setUp(t);
    await as(t, VERA).mutation(api.privacy.requestPrivacy, { type: "restriction", reason: "  Worried.  " });
    await expect(as(t, VERA).mutation(api.privacy.requestPrivacy, { type: "access" })).rejects.toMatchObject({
      data: { code: "CONFLICT" },
    });
    const user = await t.run(async (ctx) => await ctx.db.get("users", veraId));
    expect(user).toMatchObject({
      gdprRequestStatus: "pending_review",
      gdprRequestType: "restriction",
      gdprRequestCreatedAt: Date.now(),
      gdprRequestReason: "Worried.",
    });
    expect(user?.gdprRequestCompletedAt).toBeUndefined();
    const rows = await t.run(async (ctx) => await ctx.db.query("privacyRequests").collect());
    expect(rows).toHaveLength(1);
  });

  test("each type opens with its status", async () => {
    const t = newTest();
    await setUp(t);
    const expected = { access: "pending_export", deletion: "pending_deletion", correction: "pending_review" };
    for (const [type, status] of Object.entries(expected) as [keyof typeof expected, string][]) {
      const requestId = await as(t, VERA).mutation(api.privacy.requestPrivacy, { type, details: "My name." });
      expect((await as(t, VERA).query(api.privacy.myPrivacy, {}))?.open).toMatchObject({ type, status });
      await as(t, VERA).mutation(api.privacy.cancelPrivacyRequest, { requestId });
    }
  });

  test("limits and the correction's details are checked; a refused request writes nothing", async () => {
    const t = newTest();
    await setUp(t);
    const vera = as(t, VERA);
    await expect(vera.mutation(api.privacy.requestPrivacy, { type: "correction" })).rejects.toMatchObject({
      data: { code: "INVALID_ARGUMENT", fields: { details: "Tell us what should be corrected." } },
    });
    await expect(
      vera.mutation(api.privacy.requestPrivacy, {
        type: "access",
        reason: "x".repeat(LIMITS.gdprReason + 1),
      }),
    ).rejects.toMatchObject({
      data: { code: "INVALID_ARGUMENT", fields: { reason: expect.any(String) as unknown } },
    });
    await expect(
      vera.mutation(api.privacy.requestPrivacy, {
        type: "correction",
        details: "x".repeat(LIMITS.correctionDetails + 1),
      }),
    ).rejects.toMatchObject({ data: { code: "INVALID_ARGUMENT" } });
    // "none" is no request: Convex's own argument check refuses it.
    await expect(vera.mutation(api.privacy.requestPrivacy, { type: "none" as "access" })).rejects.toThrow(
      /Validator error/,
    );
    expect(await t.run(async (ctx) => await ctx.db.query("privacyRequests").collect())).toEqual([]);
    // At the limits, accepted; details are kept for a correction only.
    await vera.mutation(api.privacy.requestPrivacy, {
      type: "correction",
      reason: "x".repeat(LIMITS.gdprReason),
      details: "y".repeat(LIMITS.correctionDetails),
    });
  });

  test("cancelling: own open requests only; the history keeps it and the status is none again", async () => {
    const t = newTest();
    const { veraId } = await setUp(t);
    const requestId = await as(t, VERA).mutation(api.privacy.requestPrivacy, { type: "deletion" });
    await expect(
      as(t, SARAH).mutation(api.privacy.cancelPrivacyRequest, { requestId }),
    ).rejects.toMatchObject({
      data: { code: "FORBIDDEN" },
    });
    await as(t, VERA).mutation(api.privacy.cancelPrivacyRequest, { requestId });
    await expect(as(t, VERA).mutation(api.privacy.cancelPrivacyRequest, { requestId })).rejects.toMatchObject(
      {
        data: { code: "CONFLICT" },
      },
    );
    const user = await t.run(async (ctx) => await ctx.db.get("users", veraId));
    expect(user).toMatchObject({ gdprRequestStatus: "none", gdprRequestType: "none" });
    expect(user?.gdprRequestCreatedAt).toBeUndefined();
    const mine = await as(t, VERA).query(api.privacy.myPrivacy, {});
    expect(mine?.open).toBeNull();
    expect(mine?.history).toEqual([expect.objectContaining({ _id: requestId, status: "cancelled" })]);
    // A new request is allowed again.
    await as(t, VERA).mutation(api.privacy.requestPrivacy, { type: "access" });
  });
});

describe("deciding", () => {
  test("rejection needs a reason, which the person reads; the decision is logged", async () => {
    const t = newTest();
    const { veraId, adaId } = await setUp(t);
    const requestId = await as(t, VERA).mutation(api.privacy.requestPrivacy, {
      type: "correction",
      details: "My name is Vera, not Verа.",
    });
    for (const reason of [undefined, "   "]) {
      await expect(
        as(t, ADA).mutation(api.privacy.decidePrivacyRequest, { requestId, decision: "reject", reason }),
      ).rejects.toMatchObject({
        data: { code: "INVALID_ARGUMENT", fields: { reason: REJECTION_REASON_REQUIRED } },
      });
    }
    await expect(
      as(t, SARAH).mutation(api.privacy.decidePrivacyRequest, {
        requestId,
        decision: "reject",
        reason: "No.",
      }),
    ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
    vi.setSystemTime(Date.now() + 3_600_000);
    await as(t, ADA).mutation(api.privacy.decidePrivacyRequest, {
      requestId,
      decision: "reject",
      reason: "Both spellings are the same.",
    });
    const mine = await as(t, VERA).query(api.privacy.myPrivacy, {});
    expect(mine?.open).toBeNull();
    expect(mine?.history[0]).toMatchObject({
      status: "rejected",
      decidedAt: Date.now(),
      decisionReason: "Both spellings are the same.",
    });
    expect(await t.run(async (ctx) => await ctx.db.get("users", veraId))).toMatchObject({
      gdprRequestStatus: "rejected",
      gdprRequestType: "correction",
      gdprRequestCompletedAt: Date.now(),
    });
    expect(await t.run(async (ctx) => await ctx.db.get("privacyRequests", requestId))).toMatchObject({
      decidedBy: adaId,
    });
    const log = await t.run(async (ctx) => await ctx.db.query("adminActions").collect());
    expect(log).toEqual([
      expect.objectContaining({
        adminId: adaId,
        action: "reject_privacy_request",
        targetTable: "privacyRequests",
        targetId: requestId,
        reason: "Both spellings are the same.",
      }),
    ]);
    // Decided once.
    await expect(
      as(t, ADA).mutation(api.privacy.decidePrivacyRequest, {
        requestId,
        decision: "approve",
        reason: "Ok.",
      }),
    ).rejects.toMatchObject({ data: { code: "CONFLICT" } });
  });

  test("approving a correction needs something corrected, and a note of what changed", async () => {
    const t = newTest();
    await setUp(t);
    const requestId = await as(t, VERA).mutation(api.privacy.requestPrivacy, {
      type: "correction",
      details: "Wrong email.",
    });
    await expect(
      as(t, ADA).mutation(api.privacy.decidePrivacyRequest, { requestId, decision: "approve" }),
    ).rejects.toMatchObject({
      data: { code: "INVALID_ARGUMENT", fields: { reason: CORRECTION_NOTE_REQUIRED } },
    });
    // "Completed" without correcting anything is what issue 16 found: refused.
    await expect(
      as(t, ADA).mutation(api.privacy.decidePrivacyRequest, {
        requestId,
        decision: "approve",
        reason: "Done.",
      }),
    ).rejects.toMatchObject({
      data: { code: "CONFLICT", message: NOTHING_CORRECTED },
    });
    await as(t, ADA).mutation(api.privacy.correctProfile, {
      requestId,
      profile: { name: VERA.name, email: "vera@example.com", avatar: "" },
    });
    await as(t, ADA).mutation(api.privacy.decidePrivacyRequest, {
      requestId,
      decision: "approve",
      reason: "Email changed to vera@example.com.",
    });
    expect(
      (await as(t, { ...VERA, email: "vera@example.com" }).query(api.privacy.myPrivacy, {}))?.history[0],
    ).toMatchObject({
      status: "completed",
      decisionReason: "Email changed to vera@example.com.",
      corrections: [{ what: "Your email", from: VERA.email, to: "vera@example.com" }],
    });
  });

  test("the queue is oldest first with its people; decided requests newest first", async () => {
    const t = newTest();
    await setUp(t);
    const first = await as(t, SARAH).mutation(api.privacy.requestPrivacy, { type: "deletion" });
    vi.setSystemTime(Date.now() + 60_000);
    const second = await as(t, VERA).mutation(api.privacy.requestPrivacy, { type: "access" });
    const queue = await as(t, ADA).query(api.privacy.listOpenRequests, {});
    expect(queue.map((request) => [request._id, request.user?.email])).toEqual([
      [first, SARAH.email],
      [second, VERA.email],
    ]);
    await as(t, ADA).mutation(api.privacy.decidePrivacyRequest, {
      requestId: first,
      decision: "reject",
      reason: "A.",
    });
    vi.setSystemTime(Date.now() + 60_000);
    await as(t, VERA).mutation(api.privacy.cancelPrivacyRequest, { requestId: second });
    const decided = await as(t, ADA).query(api.privacy.listDecidedRequests, { paginationOpts: FIRST_PAGE });
    expect(decided.page.map((request) => [request._id, request.status, request.decidedByName])).toEqual([
      [second, "cancelled", undefined],
      [first, "rejected", ADA.name],
    ]);
  });

  test("the only admin's account cannot be deleted", async () => {
    const t = newTest();
    await setUp(t);
    const requestId = await as(t, ADA).mutation(api.privacy.requestPrivacy, { type: "deletion" });
    await expect(
      as(t, ADA).mutation(api.privacy.decidePrivacyRequest, { requestId, decision: "approve" }),
    ).rejects.toMatchObject({ data: { code: "CONFLICT" } });
  });
});

describe("the data export", () => {
  async function approvedExport(t: Backend) {
    const requestId = await as(t, VERA).mutation(api.privacy.requestPrivacy, { type: "access" });
    await as(t, ADA).mutation(api.privacy.decidePrivacyRequest, { requestId, decision: "approve" });
    return requestId;
  }

  test("is built in the background, then only its owner downloads it, until it expires", async () => {
    const t = newTest();
    const { veraId } = await setUp(t);
    const requestId = await approvedExport(t);
    // Approved, not built yet: still open, and not cancellable.
    expect((await as(t, VERA).query(api.privacy.myPrivacy, {}))?.open).toMatchObject({
      status: "pending_export",
      decidedAt: Date.now(),
    });
    await expect(as(t, VERA).mutation(api.privacy.cancelPrivacyRequest, { requestId })).rejects.toMatchObject(
      {
        data: { code: "CONFLICT" },
      },
    );
    await runDueFunctions(t);

    const mine = await as(t, VERA).query(api.privacy.myPrivacy, {});
    expect(mine?.open).toBeNull();
    expect(mine?.history[0]).toMatchObject({ status: "completed" });
    expect(mine?.dataExport).toMatchObject({
      createdAt: Date.now(),
      expiresAt: Date.now() + DATA_EXPORT_TTL_MS,
    });
    expect(await t.run(async (ctx) => await ctx.db.get("users", veraId))).toMatchObject({
      lastDataExportAt: Date.now(),
      gdprRequestStatus: "completed",
    });

    const response = await as(t, VERA).fetch("/privacy/export", {
      headers: { Origin: "http://127.0.0.1:5173" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(response.headers.get("Content-Disposition")).toBe(
      'attachment; filename="livelocal-data-export-2025-01-31.json"',
    );
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
    const body = (await response.json()) as {
      userId: string;
      tables: { users: object[]; privacyRequests: object[] };
    };
    expect(body.userId).toBe(veraId);
    // The file shows the request as it ends up, completed, not as it was while being built (issue 16 item 9).
    expect(body.tables.users).toEqual([
      expect.objectContaining({
        email: VERA.email,
        gdprRequestStatus: "completed",
        gdprRequestCompletedAt: Date.now(),
        lastDataExportAt: Date.now(),
      }),
    ]);
    expect(body.tables.privacyRequests).toEqual([
      expect.objectContaining({ _id: requestId, status: "completed" }),
    ]);
    expect(Number(mine?.dataExport?.byteLength)).toBeGreaterThan(0);

    // Nobody else: signed out, or another person with no export of their own.
    expect((await t.fetch("/privacy/export")).status).toBe(401);
    expect((await as(t, SARAH).fetch("/privacy/export")).status).toBe(404);
    expect((await as(t, ADA).fetch("/privacy/export")).status).toBe(404);

    // Past its expiry it cannot be downloaded, even before the deletion job has run.
    vi.setSystemTime(Date.now() + DATA_EXPORT_TTL_MS);
    expect((await as(t, VERA).fetch("/privacy/export")).status).toBe(404);
    expect((await as(t, VERA).query(api.privacy.myPrivacy, {}))?.dataExport).toBeNull();
    const [row] = await t.run(async (ctx) => await ctx.db.query("dataExports").collect());
    await t.finishAllScheduledFunctions(() => vi.runAllTimers());
    await t.run(async (ctx) => {
      expect(await ctx.db.query("dataExports").collect()).toEqual([]);
      expect(await ctx.db.system.get("_storage", row.storageId)).toBeNull();
    });
  });

  test("answers the browser's CORS preflight; APP_ORIGINS limits the origins", async () => {
    const t = newTest();
    const preflight = await t.fetch("/privacy/export", {
      method: "OPTIONS",
      headers: { Origin: "https://app.test", "Access-Control-Request-Headers": "authorization" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(preflight.headers.get("Access-Control-Allow-Headers")).toBe("Authorization");
    vi.stubEnv("APP_ORIGINS", "https://app.test, https://www.app.test/");
    const allowed = await t.fetch("/privacy/export", {
      method: "OPTIONS",
      headers: { Origin: "https://app.test" },
    });
    expect(allowed.headers.get("Access-Control-Allow-Origin")).toBe("https://app.test");
    const other = await t.fetch("/privacy/export", {
      method: "OPTIONS",
      headers: { Origin: "https://evil.test" },
    });
    expect(other.headers.get("Access-Control-Allow-Origin")).toBeNull();
  });

  test("a new export replaces the previous one", async () => {
    const t = newTest();
    await setUp(t);
    await approvedExport(t);
    await runDueFunctions(t);
    const [first] = await t.run(async (ctx) => await ctx.db.query("dataExports").collect());
    vi.setSystemTime(Date.now() + 86_400_000);
    await approvedExport(t);
    await runDueFunctions(t);
    await t.run(async (ctx) => {
      const rows = await ctx.db.query("dataExports").collect();
      expect(rows).toHaveLength(1);
      expect(rows[0]._id).not.toBe(first._id);
      expect(await ctx.db.system.get("_storage", first.storageId)).toBeNull();
    });
  });
});

describe("restriction (GDPR article 18)", () => {
  test("hides the user's shops and streams from every public surface until lifted", async () => {
    const t = newTest();
    const { sarahId, liveShopId, liveId } = await setUp(t);
    await t.mutation(internal.explore.rebuildListings, {});
    await runDueFunctions(t);
    const publicView = async () => ({
      shop: await t.query(api.liveShops.getPublicShop, { idOrSlug: "sarahs-vintage" }),
      stream: await t.query(api.streams.getPublicStream, { streamId: liveId }),
      liveNow: (await t.query(api.streams.listLiveNow, {})).length,
      featured: (await t.query(api.liveShops.listFeaturedShops, {})).length,
      exploreStreams: (await t.query(api.explore.listExploreStreams, EXPLORE)).page.length,
      exploreShops: (await t.query(api.explore.listExploreShops, EXPLORE)).page.length,
    });
    const visible = {
      shop: expect.anything() as unknown,
      stream: expect.anything() as unknown,
      liveNow: 1,
      featured: 1,
      exploreStreams: 1,
      exploreShops: 1,
    };
    expect(await publicView()).toMatchObject(visible);

    const requestId = await as(t, SARAH).mutation(api.privacy.requestPrivacy, { type: "restriction" });
    await as(t, ADA).mutation(api.privacy.decidePrivacyRequest, { requestId, decision: "approve" });
    await runDueFunctions(t);
    expect(await publicView()).toEqual({
      shop: null,
      stream: null,
      liveNow: 0,
      featured: 0,
      exploreStreams: 0,
      exploreShops: 0,
    });
    expect((await as(t, SARAH).query(api.privacy.myPrivacy, {}))?.restricted).toBe(true);
    expect(await as(t, ADA).query(api.privacy.listRestrictedUsers, {})).toEqual([
      { _id: sarahId, name: SARAH.name, email: SARAH.email, restrictedAt: Date.now() },
    ]);
    // The owner still manages them.
    expect(await as(t, SARAH).query(api.streams.getPublicStream, { streamId: liveId })).not.toBeNull();
    expect(await as(t, SARAH).query(api.liveShops.getMyShop, { liveShopId })).not.toBeNull();
    // A shop opened while restricted is hidden too.
    await t.run(async (ctx) => {
      const id = await insertLiveShop(ctx, {
        userId: sarahId,
        liveShopName: "Second",
        slug: "second",
        status: "active",
      });
      expect((await ctx.db.get("liveShops", id))?.ownerRestricted).toBe(true);
    });
    // Asking again while restricted is refused.
    await expect(
      as(t, SARAH).mutation(api.privacy.requestPrivacy, { type: "restriction" }),
    ).rejects.toMatchObject({
      data: { code: "CONFLICT" },
    });

    await expect(
      as(t, SARAH).mutation(api.privacy.liftRestriction, { userId: sarahId }),
    ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
    await as(t, ADA).mutation(api.privacy.liftRestriction, {
      userId: sarahId,
      reason: "Asked to be visible again.",
    });
    await runDueFunctions(t);
    expect(await publicView()).toMatchObject({ ...visible, featured: 2, exploreShops: 2 });
    expect((await as(t, SARAH).query(api.privacy.myPrivacy, {}))?.restricted).toBe(false);
    await expect(as(t, ADA).mutation(api.privacy.liftRestriction, { userId: sarahId })).rejects.toMatchObject(
      {
        data: { code: "CONFLICT" },
      },
    );
    const log = await t.run(async (ctx) => await ctx.db.query("adminActions").collect());
    expect(log.map((entry) => entry.action)).toEqual(["approve_privacy_request", "lift_restriction"]);
    expect(log[1]).toMatchObject({
      targetTable: "users",
      targetId: sarahId,
      reason: "Asked to be visible again.",
    });
  });
});

describe("a restricted seller's dashboard (issue 16 item 4)", () => {
  test("tells her, as her shops and streams come back, that they are hidden and since when", async () => {
    const t = newTest();
    const { liveShopId } = await setUp(t);
    const ownView = async () => ({
      restrictedAt: (await as(t, SARAH).query(api.users.viewer, {}))?.restrictedAt,
      shops: (await as(t, SARAH).query(api.liveShops.listMyShops, {})).map((shop) => shop.hiddenFromPublic),
      streams: (await as(t, SARAH).query(api.streams.listMyStreams, {})).map((shop) => shop.hiddenFromPublic),
    });
    expect(await ownView()).toEqual({ restrictedAt: undefined, shops: [false], streams: [false] });

    const requestId = await as(t, SARAH).mutation(api.privacy.requestPrivacy, { type: "restriction" });
    await as(t, ADA).mutation(api.privacy.decidePrivacyRequest, { requestId, decision: "approve" });
    await runDueFunctions(t);
    expect(await ownView()).toEqual({ restrictedAt: Date.now(), shops: [true], streams: [true] });
    // The shop itself says so too, for the admin who opens it.
    expect(await as(t, ADA).query(api.liveShops.getMyShop, { liveShopId })).toMatchObject({
      status: "active",
      ownerRestricted: true,
    });

    const { sarahId } = await t.run(async (ctx) => ({
      sarahId: (await ctx.db.get("liveShops", liveShopId))!.userId,
    }));
    await as(t, ADA).mutation(api.privacy.liftRestriction, { userId: sarahId, reason: "Resolved." });
    await runDueFunctions(t);
    expect(await ownView()).toEqual({ restrictedAt: undefined, shops: [false], streams: [false] });
  });
});

describe("an admin's corrections (a correction request)", () => {
  async function withCorrection(t: Backend) {
    const ids = await setUp(t);
    const { liveShopId, liveId } = ids;
    await t.run(async (ctx) => {
      await ctx.db.patch("liveShops", liveShopId, {
        headline: "Vintge denim",
        description: "Old description.",
      });
    });
    const requestId = await as(t, SARAH).mutation(api.privacy.requestPrivacy, {
      type: "correction",
      details: "My surname is Okafor, and my shop's headline has a typo.",
    });
    return { ...ids, requestId, liveId };
  }

  test("the profile, a shop's and a show's words are corrected, logged, and shown to the person", async () => {
    const t = newTest();
    const { requestId, liveShopId, liveId, sarahId } = await withCorrection(t);
    const admin = as(t, ADA);
    expect(
      await admin.mutation(api.privacy.correctProfile, {
        requestId,
        profile: { name: "Sarah Okafor", email: SARAH.email, avatar: "https://img.example/sarah.png" },
      }),
    ).toBe(2);
    expect(
      await admin.mutation(api.privacy.correctShopText, {
        requestId,
        liveShopId,
        shop: { liveShopName: "Sarah's Vintage", headline: "Vintage denim", description: "Old description." },
      }),
    ).toBe(1);
    await admin.mutation(api.privacy.correctStreamText, {
      requestId,
      streamId: liveId,
      stream: { streamTitle: "Denim live with Sarah Okafor" },
    });
    // Saving the same values again changes and records nothing.
    expect(
      await admin.mutation(api.privacy.correctShopText, {
        requestId,
        liveShopId,
        shop: { liveShopName: "Sarah's Vintage", headline: "Vintage denim", description: "Old description." },
      }),
    ).toBe(0);

    const data = await t.run(async (ctx) => ({
      user: await ctx.db.get("users", sarahId),
      shop: await ctx.db.get("liveShops", liveShopId),
      stream: await ctx.db.get("streams", liveId),
      log: await ctx.db.query("adminActions").collect(),
    }));
    expect(data.user).toMatchObject({ name: "Sarah Okafor", avatar: "https://img.example/sarah.png" });
    expect(data.shop?.headline).toBe("Vintage denim");
    expect(data.stream?.streamTitle).toBe("Denim live with Sarah Okafor");
    expect(data.log.map((entry) => [entry.action, entry.adminName, entry.reason])).toEqual([
      ["correct_personal_data", ADA.name, "Corrected the name and picture."],
      ["correct_personal_data", ADA.name, "Corrected the headline of a shop."],
      ["correct_personal_data", ADA.name, "Corrected the title of a show."],
    ]);
    // The reasons name the fields, never the values: the log's free text outlives a deleted account
    // (its labels, which name the person, are anonymised then).
    expect(data.log.map((entry) => entry.reason).join(" ")).not.toMatch(/Okafor|Vintage|Denim/);

    const mine = await as(t, SARAH).query(api.privacy.myPrivacy, {});
    expect(mine?.open?.corrections).toEqual([
      { at: Date.now(), what: "Your name", from: SARAH.name, to: "Sarah Okafor" },
      { at: Date.now(), what: "Your picture", to: "https://img.example/sarah.png", kind: "picture" },
      {
        at: Date.now(),
        what: "Headline of your shop “Sarah's Vintage”",
        from: "Vintge denim",
        to: "Vintage denim",
      },
      {
        at: Date.now(),
        what: "Title of your show “Denim live”",
        from: "Denim live",
        to: "Denim live with Sarah Okafor",
      },
    ]);
  });

  test("the person's next sign-in does not undo a corrected name or email", async () => {
    const t = newTest();
    const { requestId, sarahId } = await withCorrection(t);
    await as(t, ADA).mutation(api.privacy.correctProfile, {
      requestId,
      profile: { name: "Sarah Okafor", email: "sarah.okafor@livelocal.test", avatar: "" },
    });
    // The same token as before: it says what it always said.
    await as(t, SARAH).mutation(api.users.ensureUser, {});
    expect(await t.run(async (ctx) => await ctx.db.get("users", sarahId))).toMatchObject({
      name: "Sarah Okafor",
      email: "sarah.okafor@livelocal.test",
    });
    // A name changed where she signs in is news, and is followed.
    await as(t, { ...SARAH, name: "Sarah O." }).mutation(api.users.ensureUser, {});
    expect((await t.run(async (ctx) => await ctx.db.get("users", sarahId)))?.name).toBe("Sarah O.");
  });

  test("where Clerk manages sign-in, the email is not corrected here", async () => {
    vi.stubEnv("CLERK_JWT_ISSUER_DOMAIN", "https://example.clerk.accounts.dev");
    const t = newTest();
    const { requestId } = await withCorrection(t);
    expect((await as(t, ADA).query(api.privacy.getCorrection, { requestId }))?.person.emailEditable).toBe(
      false,
    );
    await expect(
      as(t, ADA).mutation(api.privacy.correctProfile, {
        requestId,
        profile: { name: SARAH.name, email: "other@livelocal.test", avatar: "" },
      }),
    ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
  });

  test("only an admin corrects, only the requester's own data, only while the request is open", async () => {
    const t = newTest();
    const { requestId, liveShopId } = await withCorrection(t);
    const profile = { name: "Sarah Okafor", email: SARAH.email, avatar: "" };
    await expect(t.mutation(api.privacy.correctProfile, { requestId, profile })).rejects.toMatchObject({
      data: { code: "UNAUTHENTICATED" },
    });
    for (const caller of [VERA, SARAH]) {
      await expect(
        as(t, caller).mutation(api.privacy.correctProfile, { requestId, profile }),
      ).rejects.toMatchObject({
        data: { code: "FORBIDDEN" },
      });
      expect(await as(t, caller).query(api.privacy.getCorrection, { requestId })).toBeNull();
    }
    // Vera's shop is not Sarah's: an admin cannot reach it through Sarah's request.
    const veraShop = await t.run(async (ctx) => {
      const vera = (await ctx.db.query("users").collect()).find((user) => user.email === VERA.email)!;
      return await insertLiveShop(ctx, { userId: vera._id, liveShopName: "Vera's", slug: "veras" });
    });
    await expect(
      as(t, ADA).mutation(api.privacy.correctShopText, {
        requestId,
        liveShopId: veraShop,
        shop: { liveShopName: "Hacked" },
      }),
    ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
    // docs/product.md#limits, and the picture's http(s) rule.
    for (const [shop, field] of [
      [{ liveShopName: "x".repeat(LIMITS.shopName + 1) }, "shop.liveShopName"],
      [{ liveShopName: "Ok", headline: "x".repeat(LIMITS.headline + 1) }, "shop.headline"],
    ] as const) {
      await expect(
        as(t, ADA).mutation(api.privacy.correctShopText, { requestId, liveShopId, shop }),
      ).rejects.toMatchObject({
        data: { code: "INVALID_ARGUMENT", fields: { [field]: expect.any(String) as unknown } },
      });
    }
    await expect(
      as(t, ADA).mutation(api.privacy.correctProfile, {
        requestId,
        profile: { name: "x".repeat(LIMITS.userName + 1), avatar: "javascript:alert(1)" },
      }),
    ).rejects.toMatchObject({
      data: { code: "INVALID_ARGUMENT", fields: { "profile.name": expect.any(String) as unknown } },
    });
    // Closed: no more corrections.
    await as(t, ADA).mutation(api.privacy.decidePrivacyRequest, {
      requestId,
      decision: "reject",
      reason: "No.",
    });
    await expect(
      as(t, ADA).mutation(api.privacy.correctProfile, { requestId, profile }),
    ).rejects.toMatchObject({
      data: { code: "CONFLICT" },
    });
    expect(await t.run(async (ctx) => await ctx.db.query("adminActions").collect())).toHaveLength(1);
  });

  test("a renamed shop's shows follow, and a deletion leaves none of the corrected words", async () => {
    const t = newTest();
    const { requestId, liveShopId, liveId, sarahId } = await withCorrection(t);
    await as(t, ADA).mutation(api.privacy.correctShopText, {
      requestId,
      liveShopId,
      shop: { liveShopName: "Okafor Vintage", headline: "Vintage denim", description: "Old description." },
    });
    expect((await t.run(async (ctx) => await ctx.db.get("streams", liveId)))?.liveShopName).toBe(
      "Okafor Vintage",
    );
    await t.run(async (ctx) => await deleteAccount(ctx, (await ctx.db.get("users", sarahId))!));
    await runDueFunctions(t);
    const request = await t.run(async (ctx) => await ctx.db.get("privacyRequests", requestId));
    expect(request?.corrections).toBeUndefined();
  });
});

describe("admins find requests by email and approve exports together", () => {
  test("a search finds a person's requests, open and closed, newest first", async () => {
    const t = newTest();
    await setUp(t);
    const first = await as(t, VERA).mutation(api.privacy.requestPrivacy, { type: "access" });
    await as(t, VERA).mutation(api.privacy.cancelPrivacyRequest, { requestId: first });
    vi.setSystemTime(Date.now() + 60_000);
    const second = await as(t, VERA).mutation(api.privacy.requestPrivacy, { type: "restriction" });
    await as(t, SARAH).mutation(api.privacy.requestPrivacy, { type: "access" });
    const found = await as(t, ADA).query(api.privacy.searchRequests, { email: "VERA@" });
    expect(found.map((request) => [request._id, request.status, request.user?.email])).toEqual([
      [second, "pending_review", VERA.email],
      [first, "cancelled", VERA.email],
    ]);
    expect(await as(t, ADA).query(api.privacy.searchRequests, { email: " " })).toEqual([]);
    for (const caller of [VERA, SARAH]) {
      expect(await as(t, caller).query(api.privacy.searchRequests, { email: "vera" })).toEqual([]);
    }
  });

  test("open export requests are approved together; anything else is left, saying why", async () => {
    const t = newTest();
    await setUp(t);
    const veraExport = await as(t, VERA).mutation(api.privacy.requestPrivacy, { type: "access" });
    const sarahDeletion = await as(t, SARAH).mutation(api.privacy.requestPrivacy, { type: "deletion" });
    const result = await as(t, ADA).mutation(api.privacy.approveExports, {
      requestIds: [veraExport, sarahDeletion],
    });
    expect(result).toEqual({
      approved: [veraExport],
      skipped: [
        {
          id: sarahDeletion,
          reason: "Only data exports are approved together; decide this one on its own.",
        },
      ],
    });
    await runDueFunctions(t);
    expect((await as(t, VERA).query(api.privacy.myPrivacy, {}))?.dataExport).not.toBeNull();
    expect((await as(t, SARAH).query(api.privacy.myPrivacy, {}))?.open?.status).toBe("pending_deletion");
    // Approved already: left alone the second time.
    expect(
      (await as(t, ADA).mutation(api.privacy.approveExports, { requestIds: [veraExport] })).skipped,
    ).toEqual([{ id: veraExport, reason: "This request has already been answered." }]);
  });

  test("approving exports together is for admins, at most 25 at once", async () => {
    const t = newTest();
    await setUp(t);
    const requestId = await as(t, VERA).mutation(api.privacy.requestPrivacy, { type: "access" });
    await expect(t.mutation(api.privacy.approveExports, { requestIds: [requestId] })).rejects.toMatchObject({
      data: { code: "UNAUTHENTICATED" },
    });
    await expect(
      as(t, SARAH).mutation(api.privacy.approveExports, { requestIds: [requestId] }),
    ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
    const many = await t.run(async (ctx) => {
      const ids = [];
      for (let i = 0; i < 26; i++) {
        ids.push(
          await insertWithTimestamps(ctx, "privacyRequests", {
            type: "access",
            status: "pending_export",
            requestedAt: Date.now(),
            dueAt: Date.now(),
          }),
        );
      }
      return ids;
    });
    await expect(as(t, ADA).mutation(api.privacy.approveExports, { requestIds: many })).rejects.toMatchObject(
      {
        data: { code: "INVALID_ARGUMENT" },
      },
    );
  });
});

describe("deletion with Clerk configured", () => {
  test("deletes the Clerk user through Clerk's Backend API and tombstones its id", async () => {
    vi.stubEnv("CLERK_SECRET_KEY", "sk_test_secret");
    const calls: { url: string; method?: string; authorization?: string | null }[] = [];
    vi.stubGlobal("fetch", (url: string, init?: RequestInit) => {
      calls.push({
        url,
        method: init?.method,
        authorization: new Headers(init?.headers).get("Authorization"),
      });
      return Promise.resolve(new Response("{}", { status: 200 }));
    });
    const t = newTest();
    const { veraId } = await setUp(t);
    const requestId = await as(t, VERA).mutation(api.privacy.requestPrivacy, { type: "deletion" });
    await as(t, ADA).mutation(api.privacy.decidePrivacyRequest, { requestId, decision: "approve" });
    await runDueFunctions(t);
    expect(calls).toEqual([
      {
        url: "https://api.clerk.com/v1/users/user_vera",
        method: "DELETE",
        authorization: "Bearer sk_test_secret",
      },
    ]);
    expect(await t.run(async (ctx) => await ctx.db.get("users", veraId))).toBeNull();
    expect(await t.run(async (ctx) => await ctx.db.query("deletedClerkUsers").collect())).toEqual([
      expect.objectContaining({ clerkId: await tombstoneKey(VERA.subject) }),
    ]);
    // A token issued before the deletion cannot bring the account back, not even by choice.
    for (const signIn of [api.users.ensureUser, api.users.startNewAccount]) {
      await expect(as(t, VERA).mutation(signIn, {})).rejects.toMatchObject({
        data: { code: "ACCOUNT_DELETED", restartable: false },
      });
    }
  });

  test("retries when Clerk fails", async () => {
    vi.stubEnv("CLERK_SECRET_KEY", "sk_test_secret");
    const statuses = [503, 200];
    vi.stubGlobal("fetch", () => Promise.resolve(new Response("", { status: statuses.shift() ?? 200 })));
    const t = newTest();
    await setUp(t);
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const requestId = await as(t, VERA).mutation(api.privacy.requestPrivacy, { type: "deletion" });
    await as(t, ADA).mutation(api.privacy.decidePrivacyRequest, { requestId, decision: "approve" });
    await t.finishAllScheduledFunctions(() => vi.runAllTimers());
    expect(statuses).toEqual([]);
  });

  test("without Clerk's key, nothing is sent; the same sign-in starts a new account only when asked to", async () => {
    const fetchSpy = vi.fn();
    vi.stubGlobal("fetch", fetchSpy);
    const t = newTest();
    const { veraId } = await setUp(t);
    const requestId = await as(t, VERA).mutation(api.privacy.requestPrivacy, { type: "deletion" });
    await as(t, ADA).mutation(api.privacy.decidePrivacyRequest, { requestId, decision: "approve" });
    await runDueFunctions(t);
    expect(fetchSpy).not.toHaveBeenCalled();
    // Reloading the page signs in again: refused, saying a new account is the person's choice.
    const refusal = as(t, VERA).mutation(api.users.ensureUser, {});
    await expect(refusal).rejects.toMatchObject({ data: { code: "ACCOUNT_DELETED", restartable: true } });
    await expect(refusal).rejects.toThrow(/start a new, empty account/);
    expect(await t.run(async (ctx) => await ctx.db.get("users", veraId))).toBeNull();
    expect(
      (await t.run(async (ctx) => await ctx.db.query("users").collect())).map((user) => user.email),
    ).not.toContain(VERA.email);

    const newId = await as(t, VERA).mutation(api.users.startNewAccount, {});
    expect(newId).not.toBe(veraId);
    expect(await as(t, VERA).mutation(api.users.ensureUser, {})).toBe(newId);
    expect(await as(t, VERA).query(api.users.viewer, {})).toMatchObject({ role: "viewer" });
    expect((await as(t, VERA).query(api.privacy.myPrivacy, {}))?.history).toEqual([]);
    expect(await t.run(async (ctx) => await ctx.db.query("deletedClerkUsers").collect())).toEqual([]);
  });

  test("starting a new account needs a sign-in, and with a live account changes nothing", async () => {
    const t = newTest();
    const { veraId } = await setUp(t);
    await expect(t.mutation(api.users.startNewAccount, {})).rejects.toMatchObject({
      data: { code: "UNAUTHENTICATED" },
    });
    expect(await as(t, VERA).mutation(api.users.startNewAccount, {})).toBe(veraId);
  });

  test("Clerk deleting the user later makes the deletion final", async () => {
    const t = newTest();
    await setUp(t);
    const requestId = await as(t, VERA).mutation(api.privacy.requestPrivacy, { type: "deletion" });
    await as(t, ADA).mutation(api.privacy.decidePrivacyRequest, { requestId, decision: "approve" });
    await runDueFunctions(t);
    await t.run(async (ctx) => await recordClerkUserDeleted(ctx, VERA.subject, Date.now()));
    await expect(as(t, VERA).mutation(api.users.startNewAccount, {})).rejects.toMatchObject({
      data: { code: "ACCOUNT_DELETED", restartable: false },
    });
  });
});

describe("retention (the daily job)", () => {
  async function withRetention(t: Backend, userId: Id<"users">, policy: string, endsInMs: number) {
    await t.run(async (ctx) => {
      await ctx.db.patch("users", userId, {
        dataRetentionPolicy: policy,
        dataRetentionEndDate: Date.now() + endsInMs,
      });
    });
  }

  test("delete_account deletes the account once its end date has passed", async () => {
    const t = newTest();
    const { sarahId, veraId, liveShopId } = await setUp(t);
    await withRetention(t, sarahId, "delete_account", -1);
    await withRetention(t, veraId, "delete_account", 86_400_000);
    await t.mutation(internal.retention.applyRetention, {});
    await runDueFunctions(t);
    await t.run(async (ctx) => {
      expect(await ctx.db.get("users", sarahId)).toBeNull();
      expect(await ctx.db.get("liveShops", liveShopId)).toBeNull();
      expect(await ctx.db.get("users", veraId)).toMatchObject({ dataRetentionPolicy: "delete_account" });
    });
  });

  test("anonymize_activity removes the activity, keeps the account, and is applied once", async () => {
    const t = newTest();
    const { veraId, liveShopId, liveId } = await setUp(t);
    await t.run(async (ctx) => {
      await insertWithTimestamps(ctx, "savedStreams", { userId: veraId, streamId: liveId });
      await insertWithTimestamps(ctx, "shopFollows", { userId: veraId, liveShopId });
      await insertWithTimestamps(ctx, "goLiveAlerts", {
        userId: veraId,
        streamId: liveId,
        liveShopId,
        reason: "saved",
      });
      await insertWithTimestamps(ctx, "calendarFeeds", {
        userId: veraId,
        token: "veraFeedToken".padEnd(43, "x"),
        appOrigin: "https://app.test",
      });
    });
    const requestId = await as(t, VERA).mutation(api.privacy.requestPrivacy, {
      type: "access",
      reason: "Mine.",
    });
    await as(t, ADA).mutation(api.privacy.decidePrivacyRequest, {
      requestId,
      decision: "approve",
      reason: "Here.",
    });
    await runDueFunctions(t);
    await withRetention(t, veraId, "anonymize_activity", 0);
    await t.mutation(internal.retention.applyRetention, {});
    await runDueFunctions(t);
    await t.run(async (ctx) => {
      expect(await ctx.db.query("savedStreams").collect()).toEqual([]);
      expect(await ctx.db.query("shopFollows").collect()).toEqual([]);
      expect(await ctx.db.query("goLiveAlerts").collect()).toEqual([]);
      expect(await ctx.db.query("calendarFeeds").collect()).toEqual([]);
      expect(await ctx.db.query("dataExports").collect()).toEqual([]);
      const request = await ctx.db.get("privacyRequests", requestId);
      expect(request).toMatchObject({ type: "access", status: "completed", userId: veraId });
      expect(request?.reason).toBeUndefined();
      expect(request?.decisionReason).toBeUndefined();
      const user = await ctx.db.get("users", veraId);
      expect(user?.email).toBe(VERA.email);
      expect(user?.dataRetentionPolicy).toBeUndefined();
      expect(user?.dataRetentionEndDate).toBeUndefined();
    });
  });

  test("no policy removes nothing; expired exports are swept", async () => {
    const t = newTest();
    const { veraId, liveId } = await setUp(t);
    await t.run(async (ctx) => {
      await insertWithTimestamps(ctx, "savedStreams", { userId: veraId, streamId: liveId });
      await insertWithTimestamps(ctx, "calendarFeeds", {
        userId: veraId,
        token: "veraFeedToken".padEnd(43, "x"),
        appOrigin: "https://app.test",
      });
    });
    const requestId = await as(t, VERA).mutation(api.privacy.requestPrivacy, { type: "access" });
    await as(t, ADA).mutation(api.privacy.decidePrivacyRequest, { requestId, decision: "approve" });
    await runDueFunctions(t);
    await withRetention(t, veraId, "none", -1);
    // The export's own deletion is missed (cancelled here): the daily job still removes it.
    await t.run(async (ctx) => {
      for (const job of await ctx.db.system.query("_scheduled_functions").collect()) {
        if (job.state.kind === "pending") await ctx.scheduler.cancel(job._id);
      }
    });
    vi.setSystemTime(Date.now() + DATA_EXPORT_TTL_MS + 1);
    await t.mutation(internal.retention.applyRetention, {});
    await runDueFunctions(t);
    await t.run(async (ctx) => {
      expect(await ctx.db.query("dataExports").collect()).toEqual([]);
      expect(await ctx.db.query("savedStreams").collect()).toHaveLength(1);
      expect(await ctx.db.query("calendarFeeds").collect()).toHaveLength(1);
      expect((await ctx.db.get("users", veraId))?.dataRetentionEndDate).toBeUndefined();
    });
  });
});
