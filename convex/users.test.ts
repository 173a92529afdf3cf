import { afterEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Doc, Id } from "./_generated/dataModel";
import type { Role } from "./lib/constants";
import { LIMITS } from "./lib/validation";
import { insertLiveShop, linkShopCategory, linkShopMsa } from "./model/liveShops";
import { insertStream } from "./model/streams";
import { insertWithTimestamps } from "./model/timestamps";
import { insertUser } from "./model/users";
import { newTest } from "./test.setup";

const sarah = { subject: "user_sarah", email: "Sarah@LiveLocal.test", name: "Sarah" };

describe("users", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  test("ensureUser creates a viewer from the token, once", async () => {
    const t = newTest().withIdentity(sarah);
    const first = await t.mutation(api.users.ensureUser, {});
    const second = await t.mutation(api.users.ensureUser, {});
    expect(second).toBe(first);
    expect(await t.query(api.users.viewer, {})).toMatchObject({
      _id: first,
      email: "sarah@livelocal.test",
      name: "Sarah",
      role: "viewer",
    });
  });

  test("ensureUser refreshes name and email from the token but never the role", async () => {
    const base = newTest();
    const id = await base.withIdentity(sarah).mutation(api.users.ensureUser, {});
    await base.run(async (ctx) => await ctx.db.patch("users", id, { role: "seller" }));
    await base
      .withIdentity({ ...sarah, name: "Sarah K.", email: "sk@livelocal.test" })
      .mutation(api.users.ensureUser, {});
    expect(await base.withIdentity(sarah).query(api.users.viewer, {})).toMatchObject({
      name: "Sarah K.",
      email: "sk@livelocal.test",
      role: "seller",
    });
  });

  test("an email listed in ADMIN_EMAILS becomes an admin when the user is created", async () => {
    vi.stubEnv("ADMIN_EMAILS", "ops@livelocal.test, sarah@livelocal.test");
    const t = newTest().withIdentity(sarah);
    await t.mutation(api.users.ensureUser, {});
    expect(await t.query(api.users.viewer, {})).toMatchObject({ role: "admin" });
  });

  test("a token without an email is refused with a sentence", async () => {
    const t = newTest().withIdentity({ subject: "user_noemail" });
    await expect(t.mutation(api.users.ensureUser, {})).rejects.toMatchObject({
      data: { code: "INVALID_ARGUMENT" },
    });
  });

  test("a token's name over the limit is cut and a javascript: picture is left out, not refused", async () => {
    const t = newTest().withIdentity({
      ...sarah,
      name: `  ${"N".repeat(5000)}`,
      pictureUrl: "javascript:alert(1)",
    });
    const id = await t.mutation(api.users.ensureUser, {});
    const user = await t.run(async (ctx) => await ctx.db.get("users", id));
    expect(user?.name).toBe("N".repeat(LIMITS.userName));
    expect(user?.avatar).toBeUndefined();
    expect(user?.email).toBe("sarah@livelocal.test");
  });

  test.each([
    ["not an email", { email: "not-an-email" }],
    ["an email over 255 characters", { email: `${"x".repeat(300)}@livelocal.test` }],
    ["a subject over 255 characters", { subject: `user_${"x".repeat(5000)}` }],
  ])("a new account from a token with %s is refused, and nothing is written", async (_label, claims) => {
    const base = newTest();
    await expect(
      base.withIdentity({ ...sarah, ...claims }).mutation(api.users.ensureUser, {}),
    ).rejects.toMatchObject({ data: { code: "INVALID_ARGUMENT" } });
    expect(await base.run(async (ctx) => await ctx.db.query("users").collect())).toEqual([]);
  });

  test("an existing account keeps its email when the token's is unusable, and still signs in", async () => {
    const base = newTest();
    const id = await base.withIdentity(sarah).mutation(api.users.ensureUser, {});
    await base.run(async (ctx) => await ctx.db.patch("users", id, { avatar: undefined }));
    for (const email of ["not-an-email", `${"x".repeat(300)}@livelocal.test`]) {
      const again = await base
        .withIdentity({ ...sarah, email, pictureUrl: "javascript:alert(1)" })
        .mutation(api.users.ensureUser, {});
      expect(again).toBe(id);
    }
    const user = await base.run(async (ctx) => await ctx.db.get("users", id));
    expect(user).toMatchObject({ email: "sarah@livelocal.test", name: "Sarah" });
    expect(user?.avatar).toBeUndefined();
    // A usable picture from the token fills the empty one.
    await base
      .withIdentity({ ...sarah, pictureUrl: "https://img.clerk.com/sarah.png" })
      .mutation(api.users.ensureUser, {});
    expect((await base.run(async (ctx) => await ctx.db.get("users", id)))?.avatar).toBe(
      "https://img.clerk.com/sarah.png",
    );
  });

  test("signed in but before ensureUser, the viewer is null (the client shows loading)", async () => {
    const t = newTest().withIdentity(sarah);
    expect(await t.query(api.users.viewer, {})).toBeNull();
  });
});

const ada = { subject: "user_ada", email: "ada@livelocal.test", name: "Ada Admin" };
const vera = { subject: "user_vera", email: "vera@livelocal.test", name: "Vera Viewer" };

/** Ada the admin, Vera a viewer, and sellers Omar and Bea. */
async function setUpPeople() {
  const t = newTest();
  const ids = await t.run(async (ctx) => {
    const people: [string, string, Role][] = [
      [ada.subject, ada.email, "admin"],
      [vera.subject, vera.email, "viewer"],
      ["user_omar", "omar@livelocal.test", "seller"],
      ["user_bea", "bea@livelocal.test", "seller"],
    ];
    const [adaId, veraId, omarId, beaId] = await Promise.all(
      people.map(([clerkId, email, role]) => insertUser(ctx, { clerkId, email, role })),
    );
    return { adaId, veraId, omarId, beaId };
  });
  return { t, ...ids, asAda: t.withIdentity(ada), asVera: t.withIdentity(vera) };
}

async function roleOf(t: ReturnType<typeof newTest>, userId: Id<"users">) {
  return await t.run(async (ctx) => (await ctx.db.get("users", userId))?.role);
}

describe("roles", () => {
  test("an admin makes a viewer a seller and a seller an admin", async () => {
    const { t, asAda, veraId, omarId } = await setUpPeople();
    await asAda.mutation(api.users.setUserRole, { userId: veraId, role: "seller" });
    await asAda.mutation(api.users.setUserRole, { userId: omarId, role: "admin" });
    expect(await roleOf(t, veraId)).toBe("seller");
    expect(await roleOf(t, omarId)).toBe("admin");
  });

  test("a viewer cannot change anyone's role, not even their own", async () => {
    const { t, asVera, veraId } = await setUpPeople();
    await expect(
      asVera.mutation(api.users.setUserRole, { userId: veraId, role: "admin" }),
    ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
    expect(await roleOf(t, veraId)).toBe("viewer");
  });

  test("the last admin cannot demote themself; once there is a second admin, they can", async () => {
    const { t, asAda, adaId, omarId } = await setUpPeople();
    await expect(
      asAda.mutation(api.users.setUserRole, { userId: adaId, role: "viewer" }),
    ).rejects.toMatchObject({
      data: { code: "CONFLICT" },
    });
    expect(await roleOf(t, adaId)).toBe("admin");
    await asAda.mutation(api.users.setUserRole, { userId: omarId, role: "admin" });
    await asAda.mutation(api.users.setUserRole, { userId: adaId, role: "seller" });
    expect(await roleOf(t, adaId)).toBe("seller");
  });

  test("a user who no longer exists cannot be given a role", async () => {
    const { t, asAda, beaId } = await setUpPeople();
    await t.run(async (ctx) => await ctx.db.delete("users", beaId));
    await expect(
      asAda.mutation(api.users.setUserRole, { userId: beaId, role: "admin" }),
    ).rejects.toMatchObject({
      data: { code: "NOT_FOUND" },
    });
  });

  test("admins page through users by email, by role and by email prefix", async () => {
    const { asAda } = await setUpPeople();
    const all = await asAda.query(api.users.listUsers, { paginationOpts: { numItems: 3, cursor: null } });
    expect(all.page.map((user) => user.email)).toEqual([
      "ada@livelocal.test",
      "bea@livelocal.test",
      "omar@livelocal.test",
    ]);
    // Only what the admin console shows: no sign-in id, preferences or privacy data.
    expect(Object.keys(all.page[0]).sort()).toEqual(["_id", "createdAt", "email", "role"]);
    const rest = await asAda.query(api.users.listUsers, {
      paginationOpts: { numItems: 3, cursor: all.continueCursor },
    });
    expect(rest.page.map((user) => user.email)).toEqual(["vera@livelocal.test"]);

    const sellers = await asAda.query(api.users.listUsers, {
      paginationOpts: { numItems: 10, cursor: null },
      role: "seller",
    });
    expect(sellers.page.map((user) => user.email)).toEqual(["bea@livelocal.test", "omar@livelocal.test"]);

    const byPrefix = await asAda.query(api.users.listUsers, {
      paginationOpts: { numItems: 10, cursor: null },
      emailPrefix: " O",
    });
    expect(byPrefix.page.map((user) => user.email)).toEqual(["omar@livelocal.test"]);

    const sellersByPrefix = await asAda.query(api.users.listUsers, {
      paginationOpts: { numItems: 10, cursor: null },
      role: "seller",
      emailPrefix: "b",
    });
    expect(sellersByPrefix.page.map((user) => user.email)).toEqual(["bea@livelocal.test"]);
  });

  test("anyone but an admin gets an empty list of users", async () => {
    const { t, asVera } = await setUpPeople();
    const args = { paginationOpts: { numItems: 10, cursor: null } };
    expect((await asVera.query(api.users.listUsers, args)).page).toEqual([]);
    expect((await t.query(api.users.listUsers, args)).page).toEqual([]);
  });

  test("makeAdmin promotes an existing user by email, whatever its capitalisation", async () => {
    const { t, veraId } = await setUpPeople();
    expect(await t.mutation(internal.users.makeAdmin, { email: "Vera@LiveLocal.test" })).toBe(veraId);
    expect(await roleOf(t, veraId)).toBe("admin");
  });

  test("makeAdmin for an email nobody has says so", async () => {
    const { t } = await setUpPeople();
    const error: unknown = await t
      .mutation(internal.users.makeAdmin, { email: "nobody@livelocal.test" })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ data: { code: "NOT_FOUND" } });
    expect((error as { data: { message: string } }).data.message).toMatch(/sign in once first/);
  });
});

const sarahSeller = { subject: "user_sarah", email: "sarah@livelocal.test", name: "Sarah Seller" };
const HOUR = 3_600_000;
const FILTER = { categories: [], subcategories: [], states: [], msas: [] };

/**
 * Ada the admin; Sarah, a seller with an active shop listed in Austin under Fashion and a show in
 * every status; explore's listings derived.
 */
async function setUpSarahsShop() {
  const t = newTest();
  const ids = await t.run(async (ctx) => {
    const adaId = await insertUser(ctx, { clerkId: ada.subject, email: ada.email, role: "admin" });
    const sarahId = await insertUser(ctx, {
      clerkId: sarahSeller.subject,
      email: sarahSeller.email,
      name: sarahSeller.name,
      role: "seller",
    });
    await insertWithTimestamps(ctx, "categories", { categoryId: "fashion_apparel", label: "Fashion" });
    const msaId = await insertWithTimestamps(ctx, "msas", {
      cbsaCode: "12420",
      msaLabel: "Austin",
      states: ["TX"],
      coordinatesLat: 30,
      coordinatesLng: -97,
    });
    const liveShopId = await insertLiveShop(ctx, {
      userId: sarahId,
      liveShopName: "Sarah's Vintage",
      slug: "sarahs-vintage",
      status: "active",
      description: "Denim.",
    });
    await linkShopCategory(ctx, liveShopId, { categoryId: "fashion_apparel" });
    await linkShopMsa(ctx, liveShopId, msaId);
    const now = Date.now();
    const stream = (streamTitle: string, streamStatus: Doc<"streams">["streamStatus"]) =>
      insertStream(ctx, {
        liveShopId,
        streamTitle,
        streamStatus,
        streamStartUTC: now + (streamStatus === "SCHEDULED" ? HOUR : -HOUR),
        streamStopUTC: now + 2 * HOUR,
      });
    return {
      adaId,
      sarahId,
      liveShopId,
      live: await stream("Denim live", "LIVE"),
      paused: await stream("Denim paused", "PAUSED"),
      scheduled: await stream("Denim next", "SCHEDULED"),
      draft: await stream("Denim draft", "CREATED"),
      ended: await stream("Denim ended", "ENDED"),
    };
  });
  await t.mutation(internal.explore.rebuildListings, {});
  await t.finishAllScheduledFunctions(() => undefined);
  return { t, asAda: t.withIdentity(ada), asSarah: t.withIdentity(sarahSeller), ...ids };
}

/** What the public sees of Sarah's shop: its page, her live show on the board, explore's listings. */
async function publicView(t: ReturnType<typeof newTest>, live: Id<"streams">) {
  const listed = await t.query(api.explore.listExploreStreams, {
    filter: FILTER,
    paginationOpts: { numItems: 20, cursor: null },
  });
  return {
    shopPage: (await t.query(api.liveShops.getPublicShop, { idOrSlug: "sarahs-vintage" })) !== null,
    streamPage: (await t.query(api.streams.getPublicStream, { streamId: live })) !== null,
    liveNow: (await t.query(api.streams.listLiveNow, {})).some((card) => card._id === live),
    explore: listed.page.length,
  };
}

/** Every row a shop or stream change could touch, to show a refused call changed nothing. */
async function shopRows(t: ReturnType<typeof newTest>) {
  return await t.run(async (ctx) => {
    const tables = [
      "users",
      "liveShops",
      "streams",
      "liveShopStreams",
      "liveShopCategories",
      "liveShopMsas",
      "streamCategories",
      "streamMsas",
      "streamPlatforms",
      "adminActions",
    ] as const;
    return await Promise.all(tables.map(async (table) => await ctx.db.query(table).collect()));
  });
}

describe("a seller made a viewer (decision 025)", () => {
  test("her shop and its shows leave every public surface, and come back when she is a seller again", async () => {
    const { t, asAda, sarahId, live } = await setUpSarahsShop();
    // Explore lists her live, paused and upcoming shows (the ended one is under replays).
    const visible = { shopPage: true, streamPage: true, liveNow: true, explore: 3 };
    expect(await publicView(t, live)).toEqual(visible);

    await asAda.mutation(api.users.setUserRole, { userId: sarahId, role: "viewer" });
    await t.finishAllScheduledFunctions(() => undefined);
    expect(await publicView(t, live)).toEqual({
      shopPage: false,
      streamPage: false,
      liveNow: false,
      explore: 0,
    });
    // Kept as it was: nothing is deleted or closed.
    const shop = await t.run(async (ctx) => (await ctx.db.query("liveShops").first())!);
    expect(shop).toMatchObject({ status: "active", ownerIsViewer: true });

    await asAda.mutation(api.users.setUserRole, { userId: sarahId, role: "seller" });
    await t.finishAllScheduledFunctions(() => undefined);
    expect(await publicView(t, live)).toEqual(visible);
    expect(
      (await t.run(async (ctx) => await ctx.db.get("liveShops", shop._id)))?.ownerIsViewer,
    ).toBeUndefined();
  });

  test("every change she tries through the API is refused and changes nothing; she still sees her shop", async () => {
    const { t, asAda, asSarah, sarahId, liveShopId, live, paused, scheduled, draft, ended } =
      await setUpSarahsShop();
    await asAda.mutation(api.users.setUserRole, { userId: sarahId, role: "viewer" });
    await t.finishAllScheduledFunctions(() => undefined);
    const before = await shopRows(t);

    const shop = {
      liveShopName: "Sarah's Denim",
      slug: "sarahs-denim",
      description: "Denim.",
      faqSection: [],
      languages: [],
      products: [],
    };
    const stream = {
      streamTitle: "Again",
      streamImageUrls: [],
      streamStartUTC: Date.now() + 3 * HOUR,
      streamStopUTC: Date.now() + 4 * HOUR,
      timezone: "America/New_York" as const,
      products: [],
    };
    const attempts: [string, () => Promise<unknown>][] = [
      [
        "updateLiveShop",
        () =>
          asSarah.mutation(api.liveShops.updateLiveShop, { liveShopId, shop, categories: [], cbsaCodes: [] }),
      ],
      [
        "setShopStatus",
        () => asSarah.mutation(api.liveShops.setShopStatus, { liveShopId, status: "maintenance" }),
      ],
      ["createLiveShop", () => asSarah.mutation(api.liveShops.createLiveShop, { shop })],
      ["createStream", () => asSarah.mutation(api.streams.createStream, { liveShopId, stream })],
      [
        "updateStream",
        () =>
          asSarah.mutation(api.streams.updateStream, {
            streamId: scheduled,
            stream,
            categories: [],
            cbsaCodes: [],
            platforms: [],
          }),
      ],
      ["pause", () => asSarah.mutation(api.streams.setStreamStatus, { streamId: live, status: "PAUSED" })],
      ["resume", () => asSarah.mutation(api.streams.setStreamStatus, { streamId: paused, status: "LIVE" })],
      ["end", () => asSarah.mutation(api.streams.setStreamStatus, { streamId: live, status: "ENDED" })],
      [
        "setReplayUrl",
        () =>
          asSarah.mutation(api.streams.setReplayUrl, {
            streamId: ended,
            replayVideoUrl: "https://example.com/replay",
          }),
      ],
      ["duplicateStream", () => asSarah.mutation(api.streams.duplicateStream, { streamId: scheduled })],
      ["deleteStream", () => asSarah.mutation(api.streams.deleteStream, { streamId: draft })],
    ];
    for (const [name, attempt] of attempts) {
      const error: unknown = await attempt().then(
        () => new Error(`${name} was allowed`),
        (caught: unknown) => caught,
      );
      expect(error, name).toMatchObject({
        data: {
          code: "FORBIDDEN",
          message: expect.stringMatching(/Ask an admin to make you a seller again/) as unknown,
        },
      });
    }
    expect(await shopRows(t)).toEqual(before);

    // Her own shops are still hers to see, as a viewer who may not change them.
    expect((await asSarah.query(api.liveShops.listMyShops, {})).map((row) => row._id)).toEqual([liveShopId]);
    expect(await asSarah.query(api.liveShops.getMyShop, { liveShopId })).toMatchObject({ _id: liveShopId });
  });

  test("an admin can still moderate her shows", async () => {
    const { t, asAda, sarahId, live } = await setUpSarahsShop();
    await asAda.mutation(api.users.setUserRole, { userId: sarahId, role: "viewer" });
    await asAda.mutation(api.streams.setStreamStatus, {
      streamId: live,
      status: "ENDED",
      reason: "The seller no longer sells here.",
    });
    expect((await t.run(async (ctx) => await ctx.db.get("streams", live)))?.streamStatus).toBe("ENDED");
  });

  test("hideViewersShops hides the shops of viewers who owned them before the rule", async () => {
    const { t, sarahId, live } = await setUpSarahsShop();
    // Demoted before decision 025: the role changed, the shop's flag did not.
    await t.run(async (ctx) => await ctx.db.patch("users", sarahId, { role: "viewer" }));
    expect((await publicView(t, live)).shopPage).toBe(true);
    await t.mutation(internal.users.hideViewersShops, {});
    await t.finishAllScheduledFunctions(() => undefined);
    expect(await publicView(t, live)).toEqual({
      shopPage: false,
      streamPage: false,
      liveNow: false,
      explore: 0,
    });
  });

  test("admins see which shops a person owns and whether a show is live in them", async () => {
    const { t, asAda, asSarah, sarahId, liveShopId } = await setUpSarahsShop();
    const quiet = await t.run(
      async (ctx) =>
        await insertLiveShop(ctx, { userId: sarahId, liveShopName: "Quiet", slug: "quiet", status: "draft" }),
    );
    const owned = await asAda.query(api.admin.listUserShops, { userId: sarahId });
    expect(owned).toEqual({
      shops: expect.arrayContaining([
        { _id: liveShopId, liveShopName: "Sarah's Vintage", status: "active", liveNow: true },
        { _id: quiet, liveShopName: "Quiet", status: "draft", liveNow: false },
      ]) as unknown,
      more: false,
    });
    expect(await asSarah.query(api.admin.listUserShops, { userId: sarahId })).toBeNull();
    expect(await t.query(api.admin.listUserShops, { userId: sarahId })).toBeNull();
  });
});
