import { afterEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Doc, Id } from "./_generated/dataModel";
import type { ShopStatus, StreamStatus } from "./lib/constants";
import { insertLiveShop, linkShopCategory, linkShopMsa } from "./model/liveShops";
import { EDIT_ENTRY_WINDOW_MS } from "./model/ownership";
import { insertStream } from "./model/streams";
import { insertWithTimestamps } from "./model/timestamps";
import { insertUser } from "./model/users";
import { newTest } from "./test.setup";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const FIRST_PAGE = { paginationOpts: { numItems: 20, cursor: null } };

const sarah = { subject: "user_sarah", email: "sarah@livelocal.test", name: "Sarah Seller" };
const omar = { subject: "user_omar", email: "omar@livelocal.test", name: "Omar Other" };
const vera = { subject: "user_vera", email: "vera@livelocal.test", name: "Vera Viewer" };
const ada = { subject: "user_ada", email: "ada@livelocal.test", name: "Ada Admin" };

type Backend = ReturnType<typeof newTest>;

/** What the shop form sends. */
const shopForm = (liveShopName: string, slug: string) => ({
  liveShopName,
  slug,
  description: "Vintage denim and jackets.",
  faqSection: [],
  timezone: "America/New_York" as const,
  languages: [],
  products: [],
  schemaType: "Organization" as const,
});

const streamForm = (streamTitle: string) => ({
  streamTitle,
  streamImageUrls: [],
  streamStartUTC: Date.now() + 3 * HOUR,
  streamStopUTC: Date.now() + 4 * HOUR,
  timezone: "America/New_York" as const,
  products: [],
});

/**
 * Sarah (a seller) with a complete shop in `status` and a stream in `streamStatus`; Omar, another
 * seller; Vera, a viewer; Ada, an admin who also owns a shop of her own.
 */
async function setUp(status: ShopStatus = "active", streamStatus: StreamStatus = "LIVE") {
  const t = newTest();
  const ids = await t.run(async (ctx) => {
    const sarahId = await insertUser(ctx, {
      clerkId: sarah.subject,
      email: sarah.email,
      name: sarah.name,
      role: "seller",
    });
    await insertUser(ctx, { clerkId: omar.subject, email: omar.email, name: omar.name, role: "seller" });
    const veraId = await insertUser(ctx, { clerkId: vera.subject, email: vera.email, name: vera.name });
    const adaId = await insertUser(ctx, {
      clerkId: ada.subject,
      email: ada.email,
      name: ada.name,
      role: "admin",
    });
    await insertWithTimestamps(ctx, "categories", { categoryId: "fashion_apparel", label: "Fashion" });
    const msaId = await insertWithTimestamps(ctx, "msas", {
      cbsaCode: "12420",
      msaLabel: "Austin-Round Rock-San Marcos, TX",
      states: ["TX"],
      coordinatesLat: 30,
      coordinatesLng: -97,
    });
    const liveShopId = await insertLiveShop(ctx, {
      ...shopForm("Sarah's Vintage", "sarahs-vintage"),
      userId: sarahId,
      status,
    });
    await linkShopCategory(ctx, liveShopId, { categoryId: "fashion_apparel" });
    await linkShopMsa(ctx, liveShopId, msaId);
    const streamId = await insertStream(ctx, {
      liveShopId,
      streamTitle: "Denim drop",
      streamStatus,
      streamStartUTC: Date.now() - HOUR,
      streamStopUTC: Date.now() + HOUR,
    });
    const draftId = await insertStream(ctx, { liveShopId, streamTitle: "Untimed draft" });
    const adaShopId = await insertLiveShop(ctx, {
      ...shopForm("Ada's Attic", "adas-attic"),
      userId: adaId,
      status: "active",
    });
    const adaStreamId = await insertStream(ctx, {
      liveShopId: adaShopId,
      streamTitle: "Attic clear-out",
      streamStatus: "LIVE",
      streamStartUTC: Date.now() - HOUR,
    });
    return { sarahId, veraId, adaId, msaId, liveShopId, streamId, draftId, adaShopId, adaStreamId };
  });
  return {
    t,
    ...ids,
    seller: t.withIdentity(sarah),
    other: t.withIdentity(omar),
    viewer: t.withIdentity(vera),
    admin: t.withIdentity(ada),
  };
}

async function logOf(t: Backend): Promise<Doc<"adminActions">[]> {
  return await t.run(async (ctx) => await ctx.db.query("adminActions").collect());
}

async function shopOf(t: Backend, liveShopId: Id<"liveShops">) {
  return await t.run(async (ctx) => await ctx.db.get("liveShops", liveShopId));
}

describe("the activity log: shop decisions", () => {
  test("approving a pending shop writes one entry: who, what, which shop", async () => {
    const { t, admin, adaId, liveShopId } = await setUp("pending_verification");
    await admin.mutation(api.liveShops.setShopStatus, { liveShopId, status: "active" });
    expect(await logOf(t)).toEqual([
      expect.objectContaining({
        adminId: adaId,
        adminName: "Ada Admin",
        action: "approve_shop",
        targetTable: "liveShops",
        targetId: liveShopId,
        targetLabel: "Sarah's Vintage",
      }),
    ]);
    expect((await logOf(t))[0]?.reason).toBeUndefined();
  });

  test("rejecting records the reason; without one it is refused and nothing is written", async () => {
    const { t, admin, liveShopId } = await setUp("pending_verification");
    await expect(
      admin.mutation(api.liveShops.setShopStatus, { liveShopId, status: "draft" }),
    ).rejects.toMatchObject({ data: { code: "REASON_REQUIRED" } });
    expect(await logOf(t)).toEqual([]);
    expect((await shopOf(t, liveShopId))?.status).toBe("pending_verification");

    await admin.mutation(api.liveShops.setShopStatus, {
      liveShopId,
      status: "draft",
      reason: "Add photos of the items you sell.",
    });
    expect(await logOf(t)).toEqual([
      expect.objectContaining({
        action: "reject_shop",
        targetId: liveShopId,
        reason: "Add photos of the items you sell.",
      }),
    ]);
  });

  test("suspending (with its reason) and reinstating write one entry each", async () => {
    const { t, admin, liveShopId } = await setUp("active");
    await admin.mutation(api.liveShops.setShopStatus, {
      liveShopId,
      status: "suspended",
      reason: "Counterfeit goods reported.",
    });
    await admin.mutation(api.liveShops.setShopStatus, { liveShopId, status: "active" });
    const log = await logOf(t);
    expect(log.map(({ action, reason }) => ({ action, reason }))).toEqual([
      { action: "suspend_shop", reason: "Counterfeit goods reported." },
      { action: "reinstate_shop", reason: undefined },
    ]);
  });

  test("an admin approving her own shop is still an admin action", async () => {
    const { t, admin, adaShopId } = await setUp();
    await t.run(
      async (ctx) => await ctx.db.patch("liveShops", adaShopId, { status: "pending_verification" }),
    );
    await admin.mutation(api.liveShops.setShopStatus, { liveShopId: adaShopId, status: "active" });
    expect((await logOf(t)).map((entry) => entry.action)).toEqual(["approve_shop"]);
  });

  test("the owner's own moves and refused moves write nothing", async () => {
    const { t, seller, other, liveShopId } = await setUp("active");
    await seller.mutation(api.liveShops.setShopStatus, { liveShopId, status: "maintenance" });
    await seller.mutation(api.liveShops.setShopStatus, { liveShopId, status: "active" });
    await expect(
      other.mutation(api.liveShops.setShopStatus, { liveShopId, status: "suspended", reason: "Mine now." }),
    ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
    await expect(
      seller.mutation(api.liveShops.setShopStatus, { liveShopId, status: "suspended", reason: "Myself." }),
    ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
    expect(await logOf(t)).toEqual([]);
  });
});

describe("the activity log: streams", () => {
  test.each([
    { from: "LIVE", to: "ENDED", action: "end_stream" },
    { from: "LIVE", to: "PAUSED", action: "pause_stream" },
    { from: "PAUSED", to: "ENDED", action: "end_stream" },
    { from: "SCHEDULED", to: "CANCELLED", action: "cancel_stream" },
    { from: "PAUSED", to: "CANCELLED", action: "cancel_stream" },
  ] as const)("an admin's $from → $to writes one $action entry", async ({ from, to, action }) => {
    const { t, admin, adaId, streamId } = await setUp("active", from);
    const reason = to === "PAUSED" ? undefined : "Counterfeit goods on air.";
    await admin.mutation(api.streams.setStreamStatus, { streamId, status: to, reason });
    expect(await logOf(t)).toEqual([
      expect.objectContaining({
        adminId: adaId,
        action,
        targetTable: "streams",
        targetId: streamId,
        targetLabel: "Denim drop",
        ...(reason && { reason }),
      }),
    ]);
  });

  test("the owner's moves, an admin's moves on her own stream and refused moves write nothing", async () => {
    const { t, seller, admin, streamId, adaStreamId } = await setUp("active", "LIVE");
    await seller.mutation(api.streams.setStreamStatus, { streamId, status: "PAUSED" });
    await expect(
      admin.mutation(api.streams.setStreamStatus, { streamId, status: "LIVE" }),
    ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
    await seller.mutation(api.streams.setStreamStatus, { streamId, status: "ENDED" });
    await admin.mutation(api.streams.setStreamStatus, { streamId: adaStreamId, status: "ENDED" });
    expect(await logOf(t)).toEqual([]);
  });

  test("deleting someone else's draft writes one delete_stream entry; the owner's delete none", async () => {
    const { t, seller, admin, liveShopId, draftId } = await setUp();
    const ownDraft = await t.run(async (ctx) => await insertStream(ctx, { liveShopId, streamTitle: "Mine" }));
    await seller.mutation(api.streams.deleteStream, { streamId: ownDraft });
    expect(await logOf(t)).toEqual([]);

    await admin.mutation(api.streams.deleteStream, { streamId: draftId });
    expect(await logOf(t)).toEqual([
      expect.objectContaining({ action: "delete_stream", targetId: draftId, targetLabel: "Untimed draft" }),
    ]);
  });

  test("a refused delete (not a draft) writes nothing", async () => {
    const { t, admin, streamId } = await setUp();
    await expect(admin.mutation(api.streams.deleteStream, { streamId })).rejects.toMatchObject({
      data: { code: "NOT_EDITABLE" },
    });
    expect(await logOf(t)).toEqual([]);
  });
});

describe("the activity log: edits", () => {
  test("an admin saving someone else's shop form writes one edit_shop entry", async () => {
    const { t, admin, liveShopId, adaId } = await setUp();
    // Two saves of the form within the window: one entry.
    for (const priority of [0, 1]) {
      await admin.mutation(api.liveShops.updateLiveShop, {
        liveShopId,
        shop: shopForm("Sarah's Vintage", "sarahs-vintage"),
        categories: [{ categoryId: "fashion_apparel", priority }],
        cbsaCodes: ["12420"],
      });
    }
    expect(await logOf(t)).toEqual([
      expect.objectContaining({
        adminId: adaId,
        action: "edit_shop",
        targetId: liveShopId,
        targetLabel: "Sarah's Vintage",
      }),
    ]);
  });

  test("an edit after the window is a new entry; another action in between is too", async () => {
    const { t, admin, liveShopId } = await setUp();
    const save = () =>
      admin.mutation(api.liveShops.updateLiveShop, {
        liveShopId,
        shop: shopForm("Sarah's Vintage", "sarahs-vintage"),
      });
    await save();
    await t.run(async (ctx) => {
      const [entry] = await ctx.db.query("adminActions").collect();
      await ctx.db.patch("adminActions", entry._id, { updatedAt: Date.now() - EDIT_ENTRY_WINDOW_MS - 1 });
    });
    await save();
    await admin.mutation(api.liveShops.setShopStatus, { liveShopId, status: "suspended", reason: "Review." });
    await save();
    expect((await logOf(t)).map((entry) => entry.action)).toEqual([
      "edit_shop",
      "edit_shop",
      "suspend_shop",
      "edit_shop",
    ]);
  });

  test("an admin editing someone else's stream writes one edit_stream entry", async () => {
    const { t, admin, draftId } = await setUp();
    await admin.mutation(api.streams.updateStream, {
      streamId: draftId,
      stream: streamForm("Untimed draft"),
      categories: [{ categoryId: "fashion_apparel", priority: 0 }],
      cbsaCodes: ["12420"],
      platforms: [],
    });
    expect(await logOf(t)).toEqual([
      expect.objectContaining({ action: "edit_stream", targetTable: "streams", targetId: draftId }),
    ]);
  });

  test("owners' edits (an admin's of her own shop included) and refused edits write nothing", async () => {
    const { t, seller, admin, other, liveShopId, draftId, adaShopId } = await setUp();
    await seller.mutation(api.liveShops.updateLiveShop, {
      liveShopId,
      shop: shopForm("Sarah's Denim", "sarahs-vintage"),
    });
    await seller.mutation(api.streams.updateStream, { streamId: draftId, stream: streamForm("Mine") });
    await admin.mutation(api.liveShops.updateLiveShop, {
      liveShopId: adaShopId,
      shop: shopForm("Ada's Attic", "adas-attic"),
    });
    await expect(
      other.mutation(api.liveShops.updateLiveShop, { liveShopId, shop: shopForm("Omar's now", "omars-now") }),
    ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
    // An admin's edit the rules refuse (a submitted shop keeps its metro area) leaves no entry.
    await expect(
      admin.mutation(api.liveShops.updateLiveShop, {
        liveShopId,
        shop: shopForm("Sarah's Vintage", "sarahs-vintage"),
        cbsaCodes: [],
      }),
    ).rejects.toMatchObject({ data: { code: "MISSING_SHOP_DETAILS" } });
    expect(await logOf(t)).toEqual([]);
  });
});

describe("the activity log: roles", () => {
  test("changing a role writes one change_role entry naming the person and both roles", async () => {
    const { t, admin, veraId, adaId } = await setUp();
    await admin.mutation(api.users.setUserRole, { userId: veraId, role: "seller" });
    expect(await logOf(t)).toEqual([
      expect.objectContaining({
        adminId: adaId,
        action: "change_role",
        targetTable: "users",
        targetId: veraId,
        targetLabel: "Vera Viewer (viewer → seller)",
      }),
    ]);
  });

  test("an unchanged role, a refused demotion and a non-admin's attempt write nothing", async () => {
    const { t, admin, viewer, veraId, adaId } = await setUp();
    await admin.mutation(api.users.setUserRole, { userId: veraId, role: "viewer" });
    await expect(
      admin.mutation(api.users.setUserRole, { userId: adaId, role: "viewer" }),
    ).rejects.toMatchObject({ data: { code: "CONFLICT" } });
    await expect(
      viewer.mutation(api.users.setUserRole, { userId: veraId, role: "admin" }),
    ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
    expect(await logOf(t)).toEqual([]);
  });
});

describe("the activity log: role changes from anywhere (decision 025)", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  test("a viewer's first shop making her a seller is logged as her own doing, without the shop's name", async () => {
    const { t, viewer, veraId } = await setUp();
    await viewer.mutation(api.liveShops.createLiveShop, { shop: shopForm("Vera's Plants", "veras-plants") });
    expect(await logOf(t)).toEqual([
      expect.objectContaining({
        adminId: veraId,
        adminName: "Vera Viewer",
        action: "change_role",
        targetTable: "users",
        targetId: veraId,
        targetLabel: "Vera Viewer (viewer → seller)",
        reason: "Opened their first shop.",
      }),
    ]);
    // A seller's next shop changes no role and logs nothing.
    await viewer.mutation(api.liveShops.createLiveShop, { shop: shopForm("Vera's Pots", "veras-pots") });
    expect(await logOf(t)).toHaveLength(1);
  });

  test("users:makeAdmin from the command line is logged", async () => {
    const { t, veraId } = await setUp();
    await t.mutation(internal.users.makeAdmin, { email: vera.email });
    expect(await logOf(t)).toEqual([
      expect.objectContaining({
        adminName: "Command line",
        action: "change_role",
        targetId: veraId,
        targetLabel: "Vera Viewer (viewer → admin)",
        reason: "users:makeAdmin was run.",
      }),
    ]);
    expect((await logOf(t))[0]?.adminId).toBeUndefined();
  });

  test("an account made an admin by ADMIN_EMAILS is logged when it is created; a viewer's is not", async () => {
    vi.stubEnv("ADMIN_EMAILS", "olga@livelocal.test");
    const { t } = await setUp();
    const olgaId = await t
      .withIdentity({ subject: "user_olga", email: "olga@livelocal.test", name: "Olga Ops" })
      .mutation(api.users.ensureUser, {});
    await t
      .withIdentity({ subject: "user_nia", email: "nia@livelocal.test", name: "Nia New" })
      .mutation(api.users.ensureUser, {});
    expect(await logOf(t)).toEqual([
      expect.objectContaining({
        adminName: "ADMIN_EMAILS setting",
        action: "change_role",
        targetId: olgaId,
        targetLabel: "Olga Ops (new account → admin)",
      }),
    ]);
  });
});
describe("the activity log after a deletion (GDPR; decision 065)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  async function deleteAccountOf(t: Backend, identity: typeof vera) {
    const requestId = await t
      .withIdentity(identity)
      .mutation(api.privacy.requestPrivacy, { type: "deletion", reason: "Moving away." });
    await t.withIdentity(ada).mutation(api.privacy.decidePrivacyRequest, { requestId, decision: "approve" });
    await t.finishAllScheduledFunctions(vi.runAllTimers);
  }

  test("keeps no word of a deleted seller's and names her by the role she had", async () => {
    vi.useFakeTimers();
    const { t, viewer, admin } = await setUp();
    const liveShopId = await viewer.mutation(api.liveShops.createLiveShop, {
      shop: shopForm("Vera's Neon Knits", "veras-neon-knits"),
    });
    // Approved meanwhile (the approval's own entry is not what this test is about).
    await t.run(async (ctx) => await ctx.db.patch("liveShops", liveShopId, { status: "active" }));
    await admin.mutation(api.liveShops.setShopStatus, {
      liveShopId,
      status: "suspended",
      reason: "Vera Viewer's knits are reported as counterfeit.",
    });
    expect(JSON.stringify(await logOf(t))).toMatch(/Vera/);

    await deleteAccountOf(t, vera);

    const log = await logOf(t);
    for (const entry of log) expect(JSON.stringify(entry)).not.toMatch(/vera|neon|knits/i);
    const about = log.filter((entry) => entry.action === "change_role" || entry.action === "suspend_shop");
    expect(
      about.map(({ adminName, action, targetLabel, reason }) => ({ adminName, action, targetLabel, reason })),
    ).toEqual([
      // She was never an admin: her own first shop made her a seller.
      {
        adminName: "A deleted seller",
        action: "change_role",
        targetLabel: "A deleted account",
        reason: undefined,
      },
      // Ada's decision keeps who took it and what it was, not the words about her.
      {
        adminName: ada.name,
        action: "suspend_shop",
        targetLabel: "A deleted account's shop",
        reason: undefined,
      },
    ]);
  });

  test("an admin who is deleted is named a deleted admin on what she did to others, which keeps its reason", async () => {
    vi.useFakeTimers();
    const { t, adaShopId } = await setUp();
    await t.mutation(internal.users.makeAdmin, { email: sarah.email });
    await t.withIdentity(sarah).mutation(api.liveShops.setShopStatus, {
      liveShopId: adaShopId,
      status: "suspended",
      reason: "Counterfeit goods reported.",
    });

    await deleteAccountOf(t, sarah);

    const log = await logOf(t);
    for (const entry of log) expect(JSON.stringify(entry)).not.toMatch(/sarah/i);
    expect(log.find((entry) => entry.action === "suspend_shop")).toMatchObject({
      adminName: "A deleted admin",
      targetLabel: "Ada's Attic",
      reason: "Counterfeit goods reported.",
    });
  });
});

describe("the console's reads", () => {
  test("anyone but an admin gets null or an empty page", async () => {
    const { t, seller, viewer, liveShopId } = await setUp("pending_verification");
    await t.run(
      async (ctx) => await ctx.db.patch("liveShops", liveShopId, { status: "pending_verification" }),
    );
    for (const caller of [t, seller, viewer]) {
      expect(await caller.query(api.admin.getOverview, { now: Date.now() })).toBeNull();
      expect((await caller.query(api.admin.listVerificationQueue, FIRST_PAGE)).page).toEqual([]);
      expect((await caller.query(api.admin.listShops, FIRST_PAGE)).page).toEqual([]);
      expect((await caller.query(api.admin.listStreams, { ...FIRST_PAGE, status: "LIVE" })).page).toEqual([]);
      expect((await caller.query(api.admin.listActivity, FIRST_PAGE)).page).toEqual([]);
    }
  });

  test("the overview counts pending shops, open and overdue privacy requests, and live streams", async () => {
    const { t, admin, sarahId, veraId } = await setUp("pending_verification", "LIVE");
    const now = Date.now();
    await t.run(async (ctx) => {
      const request = (userId: Id<"users">, status: Doc<"privacyRequests">["status"], requestedAt: number) =>
        insertWithTimestamps(ctx, "privacyRequests", {
          userId,
          type: "access",
          status,
          requestedAt,
          dueAt: requestedAt + 30 * DAY,
        });
      await request(sarahId, "pending_export", now - 40 * DAY); // overdue
      await request(veraId, "pending_review", now - 2 * DAY);
      await request(veraId, "completed", now - 50 * DAY); // decided: neither open nor overdue
      await request(veraId, "cancelled", now - 45 * DAY);
      // A paused stream counts as live now; a scheduled one does not.
      const shop = await insertLiveShop(ctx, {
        userId: sarahId,
        liveShopName: "Second",
        slug: "second",
        status: "active",
      });
      await insertStream(ctx, { liveShopId: shop, streamTitle: "Paused", streamStatus: "PAUSED" });
      await insertStream(ctx, { liveShopId: shop, streamTitle: "Later", streamStatus: "SCHEDULED" });
    });
    expect(await admin.query(api.admin.getOverview, { now })).toEqual({
      shopsAwaitingVerification: { count: 1, more: false },
      openPrivacyRequests: { count: 2, more: false },
      overduePrivacyRequests: { count: 1, more: false },
      // Sarah's live stream, Ada's live stream, the paused one.
      liveStreams: { count: 3, more: false },
    });
  });

  test("the verification queue lists pending shops waiting longest first, with what decides them", async () => {
    const { t, admin, sarahId, liveShopId } = await setUp("pending_verification");
    const now = Date.now();
    const newer = await t.run(async (ctx) => {
      // Sarah's shop waits since two days ago; a newer one since an hour ago; an active one is not queued.
      await ctx.db.patch("liveShops", liveShopId, { updatedAt: now - 2 * DAY });
      await insertLiveShop(ctx, { userId: sarahId, liveShopName: "Live", slug: "live", status: "active" });
      return await insertLiveShop(
        ctx,
        { userId: sarahId, liveShopName: "Newer", slug: "newer", status: "pending_verification" },
        now - HOUR,
      );
    });
    const { page } = await admin.query(api.admin.listVerificationQueue, FIRST_PAGE);
    expect(page.map((shop) => shop._id)).toEqual([liveShopId, newer]);
    expect(page[0]).toMatchObject({
      liveShopName: "Sarah's Vintage",
      description: "Vintage denim and jackets.",
      waitingSince: now - 2 * DAY,
      owner: { name: "Sarah Seller", email: "sarah@livelocal.test" },
      categories: [{ categoryId: "fashion_apparel", label: "Fashion & Apparel" }],
      areas: [{ cbsaCode: "12420", msaLabel: "Austin-Round Rock-San Marcos, TX" }],
    });
  });

  test("shops for moderation: all, or of one status, with their owner and reason", async () => {
    const { admin, liveShopId, adaShopId } = await setUp("active");
    await admin.mutation(api.liveShops.setShopStatus, {
      liveShopId,
      status: "suspended",
      reason: "Counterfeit goods reported.",
    });
    const all = await admin.query(api.admin.listShops, FIRST_PAGE);
    expect(all.page.map((shop) => shop._id).sort()).toEqual([liveShopId, adaShopId].sort());
    const suspended = await admin.query(api.admin.listShops, { ...FIRST_PAGE, status: "suspended" });
    expect(suspended.page).toEqual([
      expect.objectContaining({
        _id: liveShopId,
        status: "suspended",
        statusReason: "Counterfeit goods reported.",
        owner: { name: "Sarah Seller", email: "sarah@livelocal.test" },
      }),
    ]);
    expect((await admin.query(api.admin.listShops, { ...FIRST_PAGE, status: "draft" })).page).toEqual([]);
  });

  test("streams for moderation by status, earliest start first, with their shop", async () => {
    const { t, admin, streamId, adaStreamId, liveShopId } = await setUp("active", "LIVE");
    const scheduled = await t.run(
      async (ctx) =>
        await insertStream(ctx, {
          liveShopId,
          streamTitle: "Tomorrow",
          streamStatus: "SCHEDULED",
          streamStartUTC: Date.now() + DAY,
          streamStopUTC: Date.now() + DAY + HOUR,
        }),
    );
    const live = await admin.query(api.admin.listStreams, { ...FIRST_PAGE, status: "LIVE" });
    expect(live.page.map((stream) => stream._id).sort()).toEqual([streamId, adaStreamId].sort());
    expect(live.page.find((stream) => stream._id === streamId)).toMatchObject({
      streamTitle: "Denim drop",
      liveShopName: "Sarah's Vintage",
      liveShopSlug: "sarahs-vintage",
      shopStatus: "active",
    });
    const upcoming = await admin.query(api.admin.listStreams, { ...FIRST_PAGE, status: "SCHEDULED" });
    expect(upcoming.page.map((stream) => stream._id)).toEqual([scheduled]);
  });

  test("the activity log lists entries newest first, a page at a time", async () => {
    const { admin, liveShopId, streamId } = await setUp("active", "LIVE");
    await admin.mutation(api.streams.setStreamStatus, { streamId, status: "ENDED", reason: "Off-topic." });
    await admin.mutation(api.liveShops.setShopStatus, {
      liveShopId,
      status: "suspended",
      reason: "Counterfeit goods reported.",
    });
    const first = await admin.query(api.admin.listActivity, {
      paginationOpts: { numItems: 1, cursor: null },
    });
    expect(first.page).toEqual([
      expect.objectContaining({
        adminName: "Ada Admin",
        action: "suspend_shop",
        targetLabel: "Sarah's Vintage",
        reason: "Counterfeit goods reported.",
      }),
    ]);
    expect(first.isDone).toBe(false);
    const second = await admin.query(api.admin.listActivity, {
      paginationOpts: { numItems: 1, cursor: first.continueCursor },
    });
    expect(second.page).toEqual([
      expect.objectContaining({ action: "end_stream", targetLabel: "Denim drop" }),
    ]);
  });
});

describe("searching and approving in bulk", () => {
  test("shops are found by name words or by the owner's email, within a status", async () => {
    const { admin, liveShopId } = await setUp("pending_verification");
    const names = async (text: string, status?: ShopStatus) =>
      (await admin.query(api.admin.searchShops, { text, ...(status && { status }) })).map(
        (shop) => shop.liveShopName,
      );
    expect(await names("vintage")).toEqual(["Sarah's Vintage"]);
    expect(await names("SARAH@")).toEqual(["Sarah's Vintage"]);
    expect(await names("ada")).toEqual(["Ada's Attic"]);
    expect(await names("vintage", "active")).toEqual([]);
    expect(await names("   ")).toEqual([]);
    expect((await admin.query(api.admin.searchShops, { text: "vintage" }))[0]).toMatchObject({
      _id: liveShopId,
      status: "pending_verification",
      owner: { name: sarah.name, email: sarah.email },
    });
  });

  test("only admins search", async () => {
    const { t, seller, viewer } = await setUp();
    for (const caller of [t, seller, viewer]) {
      expect(await caller.query(api.admin.searchShops, { text: "vintage" })).toEqual([]);
    }
  });

  test("approving in bulk approves what waits, logs each, and says why the rest was left", async () => {
    const { t, admin, liveShopId, adaShopId } = await setUp("pending_verification");
    const draft = await t.run(async (ctx) => {
      const owner = (await ctx.db.query("users").collect()).find((user) => user.email === omar.email)!;
      return await insertLiveShop(ctx, {
        userId: owner._id,
        liveShopName: "Omar's Records",
        slug: "omars-records",
        status: "draft",
      });
    });
    const result = await admin.mutation(api.admin.approveShops, {
      liveShopIds: [liveShopId, adaShopId, draft, liveShopId],
    });
    expect(result.approved).toEqual([liveShopId]);
    expect(result.skipped).toEqual([
      { id: adaShopId, reason: expect.stringMatching(/active/) as unknown },
      { id: draft, reason: expect.stringMatching(/draft/) as unknown },
    ]);
    const after = await t.run(async (ctx) => ({
      shop: await ctx.db.get("liveShops", liveShopId),
      omars: await ctx.db.get("liveShops", draft),
      log: await ctx.db.query("adminActions").collect(),
    }));
    expect(after.shop?.status).toBe("active");
    expect(after.omars?.status).toBe("draft");
    expect(after.log.map((entry) => [entry.action, entry.targetId])).toEqual([["approve_shop", liveShopId]]);
  });

  test("approving in bulk is for admins, a page at a time", async () => {
    const { t, seller, viewer, admin, liveShopId } = await setUp("pending_verification");
    await expect(t.mutation(api.admin.approveShops, { liveShopIds: [liveShopId] })).rejects.toMatchObject({
      data: { code: "UNAUTHENTICATED" },
    });
    for (const caller of [seller, viewer]) {
      await expect(
        caller.mutation(api.admin.approveShops, { liveShopIds: [liveShopId] }),
      ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
    }
    await expect(
      admin.mutation(api.admin.approveShops, { liveShopIds: Array.from({ length: 26 }, () => liveShopId) }),
    ).resolves.toMatchObject({ approved: [liveShopId] });
  });
});
