/**
 * The export holds every row about a person and nothing about anyone else, and a deletion leaves no row
 * about them: both checked by scanning every table the schema declares (`schema.tables`), so a table
 * added later is covered without touching this file.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "../_generated/api";
import type { Doc, Id, TableNames } from "../_generated/dataModel";
import schema from "../schema";
import { newTest } from "../test.setup";
import { recordAdminAction } from "./adminLog";
import { insertLiveShop, linkShopCategory, linkShopMsa } from "./liveShops";
import { insertStream, insertStreamPlatform, linkStreamCategory, linkStreamMsa } from "./streams";
import { insertWithTimestamps } from "./timestamps";
import { insertUser } from "./users";
import { KEY_KINDS, scopeIds, USER_DATA, type UserScope } from "./userData";

type Backend = ReturnType<typeof newTest>;
type AnyDoc = Doc<TableNames>;
type Snapshot = Map<TableNames, AnyDoc[]>;

const TABLES = Object.keys(schema.tables) as TableNames[];

const SARAH = { subject: "user_sarah", email: "sarah@livelocal.test", name: "Sarah Seller" };
const ADA = { subject: "user_ada", email: "ada@livelocal.test", name: "Ada Admin" };
const OMAR = { subject: "user_omar", email: "omar@livelocal.test", name: "Omar Other" };

/** Every row of every table of the schema. */
async function scan(t: Backend): Promise<Snapshot> {
  const snapshot: Snapshot = new Map();
  for (const table of TABLES) {
    snapshot.set(table, await t.run(async (ctx) => await ctx.db.query(table).collect()));
  }
  return snapshot;
}

/** Every string anywhere in a value. */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

function mentions(value: unknown, ids: ReadonlySet<string>): boolean {
  return strings(value).some((text) => ids.has(text));
}

/**
 * The rows about a person: their user row, then (to a fixpoint) every row that references one of those
 * rows, unless the row belongs to another user (its `userId` is someone else's: their watch list, their
 * follows, their shops and requests).
 */
function rowsAbout(snapshot: Snapshot, userId: Id<"users">): Set<string> {
  const about = new Set<string>([userId]);
  for (let grew = true; grew;) {
    grew = false;
    for (const rows of snapshot.values()) {
      for (const row of rows) {
        if (about.has(row._id)) continue;
        const owner = (row as { userId?: string }).userId;
        if (owner !== undefined && owner !== userId) continue;
        const { _id, ...rest } = row;
        if (mentions(rest, about)) {
          about.add(_id);
          grew = true;
        }
      }
    }
  }
  return about;
}

/**
 * Sarah (an admin who also sells), with a shop, two streams and every kind of link; Omar (another seller)
 * and Ada (another admin) around her: each saves and follows the other's things, admins act on each
 * other, and each has privacy requests.
 */
/** A person's calendar feed token: 43 base64url characters, as real ones are. */
const feedToken = (name: string) => `${name}FeedToken`.padEnd(43, "x");

async function setUp(t: Backend) {
  return await t.run(async (ctx) => {
    await insertWithTimestamps(ctx, "categories", { categoryId: "fashion_apparel", label: "Fashion" });
    await insertWithTimestamps(ctx, "categories", {
      categoryId: "clothing",
      label: "Clothing",
      parentCategoryId: "fashion_apparel",
    });
    const msaId = await insertWithTimestamps(ctx, "msas", {
      cbsaCode: "35620",
      msaLabel: "New York-Newark-Jersey City, NY-NJ-PA",
      states: ["NY", "NJ", "PA"],
      coordinatesLat: 40.7,
      coordinatesLng: -74,
    });
    const user = (identity: typeof SARAH, role: "admin" | "seller") =>
      insertUser(ctx, { clerkId: identity.subject, email: identity.email, name: identity.name, role });
    const sarahId = await user(SARAH, "admin");
    const adaId = await user(ADA, "admin");
    const omarId = await user(OMAR, "seller");

    const shop = async (userId: Id<"users">, slug: string) => {
      const liveShopId = await insertLiveShop(ctx, { userId, liveShopName: slug, slug, status: "active" });
      await linkShopCategory(ctx, liveShopId, { categoryId: "fashion_apparel" });
      await linkShopMsa(ctx, liveShopId, msaId);
      const streamIds: Id<"streams">[] = [];
      for (const streamStatus of ["SCHEDULED", "ENDED"] as const) {
        const streamId = await insertStream(ctx, {
          liveShopId,
          streamTitle: `${slug} ${streamStatus}`,
          streamStatus,
          streamStartUTC: Date.now() + (streamStatus === "ENDED" ? -7_200_000 : 3_600_000),
          streamStopUTC: Date.now() + (streamStatus === "ENDED" ? -3_600_000 : 7_200_000),
        });
        await insertStreamPlatform(ctx, streamId, { platformType: "whatnot" });
        await linkStreamCategory(ctx, streamId, { categoryId: "fashion_apparel", subcategoryId: "clothing" });
        await linkStreamMsa(ctx, streamId, msaId);
        streamIds.push(streamId);
      }
      // Its insights: an hour's settled count of views.
      await ctx.db.insert("insightHours", {
        liveShopId,
        streamId: streamIds[0],
        metric: "view",
        hourStart: 0,
        count: 3,
        settled: true,
      });
      return { liveShopId, streamIds };
    };
    const sarahShop = await shop(sarahId, "sarahs-vintage");
    const omarShop = await shop(omarId, "omars-records");

    // Each saves and follows the other's.
    for (const [name, userId, other] of [
      ["sarah", sarahId, omarShop],
      ["omar", omarId, sarahShop],
      ["ada", adaId, sarahShop],
    ] as const) {
      await insertWithTimestamps(ctx, "savedStreams", { userId, streamId: other.streamIds[0] });
      await insertWithTimestamps(ctx, "shopFollows", { userId, liveShopId: other.liveShopId });
      // Told when it went live, and each with a calendar feed.
      await insertWithTimestamps(ctx, "goLiveAlerts", {
        userId,
        streamId: other.streamIds[0],
        liveShopId: other.liveShopId,
        reason: "saved",
      });
      await insertWithTimestamps(ctx, "calendarFeeds", {
        userId,
        token: feedToken(name),
        appOrigin: "https://app.test",
      });
      // A notice e-mailed (caught in the local inbox) and a device for pushes.
      const notificationId = await insertWithTimestamps(ctx, "notifications", {
        userId,
        kind: "goLive",
        eventKey: `goLive:${other.streamIds[0]}`,
        channel: "email",
        status: "sent",
        title: "Live",
        body: "Live now",
        path: `/stream/${other.streamIds[0]}`,
      });
      await insertWithTimestamps(ctx, "localInbox", {
        userId,
        notificationId,
        from: "LiveLocal <n@livelocal.test>",
        to: `${name}@livelocal.test`,
        subject: "Live",
        html: "<p>Live</p>",
        text: "Live",
        headers: [],
      });
      await insertWithTimestamps(ctx, "pushSubscriptions", {
        userId,
        endpoint: `https://push.example/${name}`,
        p256dh: "BPublicKey",
        auth: "authSecret",
        label: "Chrome on Linux",
      });
      // And a picture each uploaded as their profile picture.
      const storageId = await ctx.storage.store(new Blob([name], { type: "image/png" }));
      await insertWithTimestamps(ctx, "imageUploads", {
        storageId,
        userId,
        url: `https://files.test/${name}.png`,
        usedIn: [`users:${userId}:avatar`],
      });
      // And one uploaded, not claimed yet.
      const pending = await ctx.storage.store(new Blob([name], { type: "image/png" }));
      await insertWithTimestamps(ctx, "unclaimedUploads", {
        storageId: pending,
        uploaderId: userId,
        contentType: "image/png",
      });
    }

    // Admins acting on each other: Ada on Sarah, her shop and her stream; Sarah on Omar.
    const admin = async (id: Id<"users">) => (await ctx.db.get("users", id))!;
    await recordAdminAction(ctx, await admin(adaId), {
      action: "change_role",
      targetTable: "users",
      targetId: sarahId,
      targetLabel: SARAH.email,
      reason: "Runs the moderation team.",
    });
    await recordAdminAction(ctx, await admin(adaId), {
      action: "suspend_shop",
      targetTable: "liveShops",
      targetId: sarahShop.liveShopId,
      targetLabel: "sarahs-vintage",
      reason: "Counterfeit listings.",
    });
    await recordAdminAction(ctx, await admin(adaId), {
      action: "end_stream",
      targetTable: "streams",
      targetId: sarahShop.streamIds[1],
      targetLabel: "sarahs-vintage ENDED",
    });
    await recordAdminAction(ctx, await admin(sarahId), {
      action: "change_role",
      targetTable: "users",
      targetId: omarId,
      targetLabel: OMAR.email,
    });
    return { sarahId, adaId, omarId, sarahShop, omarShop };
  });
}

/** A closed correction of Sarah's (her shop's headline corrected), then Omar's restriction rejected by Sarah. */
async function addRequestHistory(t: Backend) {
  const sarahRequest = await t
    .withIdentity(SARAH)
    .mutation(api.privacy.requestPrivacy, { type: "correction", details: "My shop's city is wrong." });
  const sarahShop = await t.run(
    async (ctx) =>
      (await ctx.db
        .query("liveShops")
        .withIndex("by_slug", (q) => q.eq("slug", "sarahs-vintage"))
        .unique())!,
  );
  await t.withIdentity(ADA).mutation(api.privacy.correctShopText, {
    requestId: sarahRequest,
    liveShopId: sarahShop._id,
    shop: { liveShopName: sarahShop.liveShopName, headline: "Vintage from Brooklyn, Sarah's city" },
  });
  await t.withIdentity(ADA).mutation(api.privacy.decidePrivacyRequest, {
    requestId: sarahRequest,
    decision: "approve",
    reason: "Changed the city to Brooklyn.",
  });
  const omarRequest = await t
    .withIdentity(OMAR)
    .mutation(api.privacy.requestPrivacy, { type: "restriction", reason: "Taking a break." });
  await t.withIdentity(SARAH).mutation(api.privacy.decidePrivacyRequest, {
    requestId: omarRequest,
    decision: "reject",
    reason: "Close the shop temporarily instead.",
  });
}

async function runDueFunctions(t: Backend) {
  await t.finishAllScheduledFunctions(() => vi.advanceTimersByTime(0));
}

async function exportOf(t: Backend, identity: typeof SARAH) {
  const requestId = await t.withIdentity(identity).mutation(api.privacy.requestPrivacy, { type: "access" });
  await t.withIdentity(ADA).mutation(api.privacy.decidePrivacyRequest, { requestId, decision: "approve" });
}

describe("the user-data map", () => {
  test("decides about every table of the schema", () => {
    expect(Object.keys(USER_DATA).sort()).toEqual([...TABLES].sort());
  });
});

describe("the data export", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test("holds every row about the user in every table and nothing about anyone else", async () => {
    const t = newTest();
    const { sarahId, adaId, omarId } = await setUp(t);
    await t.mutation(internal.explore.rebuildListings, {});
    await runDueFunctions(t);
    await addRequestHistory(t);
    // A first export, so the second holds a data-export row too.
    await exportOf(t, SARAH);
    await runDueFunctions(t);

    await exportOf(t, SARAH);
    // What the export reads: the database once the approval is in, before the export is built.
    const snapshot = await scan(t);
    await runDueFunctions(t);

    const response = await t.withIdentity(SARAH).fetch("/privacy/export");
    expect(response.status).toBe(200);
    const text = await response.text();
    const document = JSON.parse(text) as { userId: string; tables: Record<string, AnyDoc[]> };
    expect(document.userId).toBe(sarahId);

    const about = rowsAbout(snapshot, sarahId);
    const exportedIds = new Set<string>(
      Object.values(document.tables).flatMap((rows) => rows.map((row) => row._id)),
    );
    for (const table of TABLES) {
      const entry = USER_DATA[table];
      const reached = snapshot.get(table)!.filter((row) => about.has(row._id));
      if (entry.about === "the user") {
        // Every row about her, and only those, in this table.
        expect(document.tables[table]?.map((row) => row._id).sort(), table).toEqual(
          reached.map((row) => row._id).sort(),
        );
      } else if (entry.about === "copies") {
        // Copies of rows the export holds in full.
        for (const row of reached) {
          expect(
            strings(row).some((text) => exportedIds.has(text) && text !== row._id),
            `${table} ${row._id}`,
          ).toBe(true);
        }
      } else {
        expect(reached, table).toEqual([]);
      }
    }
    // The fixture touches every kind of personal table, so none is checked vacuously.
    for (const [table, entry] of Object.entries(USER_DATA)) {
      if (entry.about === "the user") expect(document.tables[table]?.length, table).toBeGreaterThan(0);
    }

    // Nothing about anyone else: no other person's id, no id of a row about someone else (shops and
    // streams they follow or saved, and the reference data they point at, are public), no other name.
    const forbidden = new Set<string>([adaId, omarId]);
    for (const [table, rows] of snapshot) {
      if (table === "liveShops" || table === "streams" || table === "msas") continue;
      for (const row of rows) if (!about.has(row._id)) forbidden.add(row._id);
    }
    expect(strings(document).filter((value) => forbidden.has(value))).toEqual([]);
    for (const name of [ADA.email, ADA.name, OMAR.email, OMAR.name]) expect(text).not.toContain(name);
    // Her calendar feed is there without its token: a kept file must not hold a live credential.
    expect(document.tables.calendarFeeds).toEqual([
      expect.objectContaining({ userId: sarahId, appOrigin: "https://app.test" }),
    ]);
    expect(text).not.toContain(feedToken("sarah"));
  });

  test("reads a large account in pages", async () => {
    const t = newTest();
    const { sarahId, sarahShop } = await setUp(t);
    await t.run(async (ctx) => {
      for (let i = 0; i < 250; i++) {
        await insertStream(ctx, { liveShopId: sarahShop.liveShopId, streamTitle: `Show ${i}` });
      }
    });
    await exportOf(t, SARAH);
    await runDueFunctions(t);
    const response = await t.withIdentity(SARAH).fetch("/privacy/export");
    const document = (await response.json()) as { userId: string; tables: Record<string, AnyDoc[]> };
    expect(document.userId).toBe(sarahId);
    expect(document.tables.streams).toHaveLength(252);
    expect(document.tables.liveShopStreams).toHaveLength(252);
  });
});

describe("an approved deletion", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test("leaves no row in any table about the user, their shops or streams", async () => {
    const t = newTest();
    const { sarahId, sarahShop } = await setUp(t);
    await t.mutation(internal.explore.rebuildListings, {});
    await runDueFunctions(t);
    await addRequestHistory(t);
    await exportOf(t, SARAH);
    await runDueFunctions(t);
    await t.run(async (ctx) => {
      await ctx.db.patch("users", sarahId, { restrictedAt: Date.now() });
    });

    // Everything about her before, for the map's check below.
    const before = await scan(t);
    const scope: UserScope = {
      userId: sarahId,
      liveShopIds: [sarahShop.liveShopId],
      streamIds: sarahShop.streamIds,
      // Her requests survive without her, and so do the log's entries about them (without her name).
      privacyRequestIds: [],
    };
    const storageIds = (before.get("dataExports") as Doc<"dataExports">[]).map((row) => row.storageId);
    expect(storageIds).toHaveLength(1);
    expect(before.get("streamListings")!.length).toBeGreaterThan(0);

    const requestId = await t
      .withIdentity(SARAH)
      .mutation(api.privacy.requestPrivacy, { type: "deletion", reason: "Moving away." });
    await t.withIdentity(ADA).mutation(api.privacy.decidePrivacyRequest, { requestId, decision: "approve" });
    await runDueFunctions(t);

    const after = await scan(t);
    const gone = new Set<string>([sarahId, scope.liveShopIds[0], ...scope.streamIds]);
    for (const [table, rows] of after) {
      for (const row of rows) {
        expect(mentions(row, gone), `${table} ${row._id} still references the user`).toBe(false);
        // Nor her name or email, in the log's labels or anywhere else.
        for (const text of strings(row)) {
          expect(text.toLowerCase(), `${table} ${row._id}`).not.toContain("sarah");
        }
      }
    }
    // Her request history survives, without her.
    const requests = after.get("privacyRequests") as Doc<"privacyRequests">[];
    const deletion = requests.find((row) => row._id === requestId)!;
    expect(deletion).toMatchObject({ type: "deletion", status: "completed" });
    expect(deletion.userId).toBeUndefined();
    expect(deletion.reason).toBeUndefined();
    // Omar's request she decided keeps the decision, not her id.
    const omars = requests.find((row) => row.type === "restriction")!;
    expect(omars).toMatchObject({
      status: "rejected",
      decisionReason: "Close the shop temporarily instead.",
    });
    expect(omars.decidedBy).toBeUndefined();
    // The export's file is gone with its row.
    await t.run(async (ctx) => {
      for (const storageId of storageIds) expect(await ctx.db.system.get("_storage", storageId)).toBeNull();
    });
    // The map finds nothing left for her (one paginated read per transaction, as Convex allows).
    for (const kind of KEY_KINDS) {
      for (const [table, entry] of Object.entries(USER_DATA)) {
        if (entry.about !== "the user") continue;
        for (const finder of entry.find) {
          if (finder.by !== kind) continue;
          const page = finder.page as unknown as (
            ctx: unknown,
            id: string,
            opts: { numItems: number; cursor: null },
          ) => Promise<{ page: AnyDoc[] }>;
          for (const id of scopeIds(scope, kind)) {
            const found = await t.run(
              async (ctx) => (await page(ctx, id, { numItems: 10, cursor: null })).page,
            );
            expect(found, `${table} by ${kind}`).toEqual([]);
          }
        }
      }
    }
  });
});
