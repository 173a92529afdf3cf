import { getFunctionName } from "convex/server";
import { describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import crons from "./crons";
import type { StreamStatus } from "./lib/constants";
import { LIMITS, TIME_RANGE, TIME_RANGE_MESSAGE, type StreamInput } from "./lib/validation";
import { insertLiveShop, patchLiveShop } from "./model/liveShops";
import {
  AUTO_END_BATCH_SIZE,
  insertStream,
  linkStreamCategory,
  linkStreamMsa,
  upsertStreamPlatform,
} from "./model/streams";
import { insertWithTimestamps } from "./model/timestamps";
import { insertUser } from "./model/users";
import { newTest } from "./test.setup";

const HOUR = 3_600_000;
/** A fixed moment for times the tests give: Sat, Jan 10 2026, 1 PM in New York. */
const T = Date.UTC(2026, 0, 10, 18);
const sarah = { subject: "user_sarah", email: "sarah@livelocal.test" };

async function setUp() {
  const t = newTest();
  const ids = await t.run(async (ctx) => {
    const userId = await insertUser(ctx, { clerkId: sarah.subject, email: sarah.email, role: "seller" });
    const liveShopId = await insertLiveShop(ctx, {
      userId,
      liveShopName: "Sarah's Vintage",
      slug: "sarahs-vintage",
      status: "active",
    });
    const scheduled = await insertStream(ctx, {
      liveShopId,
      streamTitle: "Denim drop",
      streamStatus: "SCHEDULED",
      streamStartUTC: Date.now() + HOUR,
      streamStopUTC: Date.now() + 2 * HOUR,
    });
    const draft = await insertStream(ctx, { liveShopId, streamTitle: "Untimed draft" });
    return { liveShopId, scheduled, draft };
  });
  return { t, ...ids, seller: t.withIdentity(sarah) };
}

async function statusOf(t: ReturnType<typeof newTest>, streamId: Id<"streams">) {
  return await t.run(async (ctx) => (await ctx.db.get("streams", streamId))?.streamStatus);
}

describe("streams", () => {
  test("the owner takes a scheduled stream live and it appears on the live-now board", async () => {
    const { t, seller, scheduled } = await setUp();
    expect(await t.query(api.streams.listLiveNow, {})).toEqual([]);
    await seller.mutation(api.streams.setStreamStatus, { streamId: scheduled, status: "LIVE" });
    const live = await t.query(api.streams.listLiveNow, {});
    expect(live.map((card) => [card.streamTitle, card.streamStatus])).toEqual([["Denim drop", "LIVE"]]);
  });

  test("a transition the lifecycle forbids is refused with its code and changes nothing", async () => {
    const { t, seller, draft } = await setUp();
    await expect(
      seller.mutation(api.streams.setStreamStatus, { streamId: draft, status: "SCHEDULED" }),
    ).rejects.toMatchObject({ data: { code: "MISSING_TIMES" } });
    await expect(
      seller.mutation(api.streams.setStreamStatus, { streamId: draft, status: "ENDED" }),
    ).rejects.toMatchObject({ data: { code: "INVALID_TRANSITION" } });
    expect(await statusOf(t, draft)).toBe("CREATED");
  });

  test("going live without a start time records now as the start", async () => {
    const { t, seller, draft } = await setUp();
    const before = Date.now();
    await seller.mutation(api.streams.setStreamStatus, { streamId: draft, status: "LIVE" });
    const start = await t.run(async (ctx) => (await ctx.db.get("streams", draft))?.streamStartUTC);
    expect(start).toBeGreaterThanOrEqual(before);
  });

  test("streams of a shop that is not active are not on the live-now board", async () => {
    const { t, seller, scheduled, liveShopId } = await setUp();
    await seller.mutation(api.streams.setStreamStatus, { streamId: scheduled, status: "LIVE" });
    await t.run(async (ctx) => await patchLiveShop(ctx, liveShopId, { status: "suspended" }));
    expect(await t.query(api.streams.listLiveNow, {})).toEqual([]);
  });

  test("live shows of a hidden shop do not push a public live show off the board, and the board stops when full", async () => {
    const { t, liveShopId } = await setUp();
    await t.run(async (ctx) => {
      const userId = await insertUser(ctx, { clerkId: "user_hidden", email: "hidden@livelocal.test" });
      const hidden = await insertLiveShop(ctx, {
        userId,
        liveShopName: "Suspended Shop",
        slug: "suspended-shop",
        status: "suspended",
      });
      // 48 live shows of a suspended shop, all starting before the public one.
      for (let i = 0; i < 48; i++) {
        await insertStream(ctx, {
          liveShopId: hidden,
          streamTitle: `Hidden ${i}`,
          streamStatus: "LIVE",
          streamStartUTC: T - 10 * HOUR + i,
          streamStopUTC: T + HOUR,
        });
      }
      await insertStream(ctx, {
        liveShopId,
        streamTitle: "Public live",
        streamStatus: "LIVE",
        streamStartUTC: T - HOUR,
        streamStopUTC: T + HOUR,
      });
      for (let i = 0; i < 60; i++) {
        await insertStream(ctx, {
          liveShopId,
          streamTitle: `Paused ${i}`,
          streamStatus: "PAUSED",
          streamStartUTC: T - 2 * HOUR + i,
          streamStopUTC: T + HOUR,
        });
      }
    });
    const board = await t.query(api.streams.listLiveNow, {});
    expect(board[0]).toMatchObject({ streamTitle: "Public live", streamStatus: "LIVE" });
    expect(board).toHaveLength(48);
    expect(board.slice(1).every((card) => card.streamStatus === "PAUSED")).toBe(true);
    expect(board.some((card) => card.streamTitle.startsWith("Hidden"))).toBe(false);
  });

  test("a seller's dashboard lists their own shops and streams only", async () => {
    const { t, seller } = await setUp();
    await t.run(async (ctx) => {
      const omar = await insertUser(ctx, { clerkId: "user_omar", email: "omar@livelocal.test" });
      const shop = await insertLiveShop(ctx, { userId: omar, liveShopName: "Omar's", slug: "omars" });
      await insertStream(ctx, { liveShopId: shop, streamTitle: "Not Sarah's" });
    });
    const mine = await seller.query(api.streams.listMyStreams, {});
    expect(mine.map((shop) => shop.liveShopName)).toEqual(["Sarah's Vintage"]);
    expect(mine[0]?.streams.map((stream) => stream.streamTitle).sort()).toEqual([
      "Denim drop",
      "Untimed draft",
    ]);
  });

  test("an admin may cancel any shop's stream but not take it live", async () => {
    const { t, scheduled } = await setUp();
    await t.run(
      async (ctx) =>
        await insertUser(ctx, { clerkId: "user_ada", email: "ada@livelocal.test", role: "admin" }),
    );
    const admin = t.withIdentity({ subject: "user_ada", email: "ada@livelocal.test" });
    await expect(
      admin.mutation(api.streams.setStreamStatus, { streamId: scheduled, status: "LIVE" }),
    ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
    await admin.mutation(api.streams.setStreamStatus, {
      streamId: scheduled,
      status: "CANCELLED",
      reason: "Listed twice.",
    });
    expect(await statusOf(t, scheduled)).toBe("CANCELLED");
  });
});

describe("an admin ending or cancelling someone else's stream gives a reason", () => {
  async function setUpModeration() {
    const base = await setUp();
    await base.t.run(async (ctx) => {
      await insertUser(ctx, { clerkId: ada.subject, email: ada.email, name: "Ada Admin", role: "admin" });
      await insertUser(ctx, { clerkId: omar.subject, email: omar.email, role: "seller" });
      await insertUser(ctx, { clerkId: vera.subject, email: vera.email });
    });
    await base.seller.mutation(api.streams.setStreamStatus, { streamId: base.scheduled, status: "LIVE" });
    const live = base.scheduled;
    return { ...base, live, admin: base.t.withIdentity(ada) };
  }

  async function activity(t: ReturnType<typeof newTest>) {
    return await t.run(async (ctx) => await ctx.db.query("adminActions").collect());
  }

  test("without a reason, or with one over the limit, it is refused and nothing changes", async () => {
    const { t, admin, live, draft } = await setUpModeration();
    const before = { live: await streamOf(t, live), draft: await streamOf(t, draft) };
    for (const [streamId, status] of [
      [live, "ENDED"],
      [draft, "CANCELLED"],
    ] as const) {
      for (const reason of [undefined, "   "]) {
        await expect(
          admin.mutation(api.streams.setStreamStatus, { streamId, status, reason }),
        ).rejects.toMatchObject({
          data: { code: "REASON_REQUIRED", message: "Give a reason; the stream's owner will see it." },
        });
      }
      await expect(
        admin.mutation(api.streams.setStreamStatus, {
          streamId,
          status,
          reason: "x".repeat(LIMITS.statusReason + 1),
        }),
      ).rejects.toMatchObject({
        data: { code: "INVALID_ARGUMENT", message: "Reason must be at most 500 characters." },
      });
    }
    expect({ live: await streamOf(t, live), draft: await streamOf(t, draft) }).toEqual(before);
    expect(await activity(t)).toEqual([]);
  });

  test("with a reason it is kept on the stream, logged, and shown to the owner but not the public", async () => {
    const { t, admin, seller, live } = await setUpModeration();
    await admin.mutation(api.streams.setStreamStatus, {
      streamId: live,
      status: "ENDED",
      reason: "  Counterfeit goods on air.  ",
    });
    expect(await streamOf(t, live)).toMatchObject({
      streamStatus: "ENDED",
      statusReason: "Counterfeit goods on air.",
    });
    expect(await activity(t)).toEqual([
      expect.objectContaining({ action: "end_stream", targetId: live, reason: "Counterfeit goods on air." }),
    ]);
    const [shop] = await seller.query(api.streams.listMyStreams, {});
    expect(shop?.streams.find((stream) => stream._id === live)).toMatchObject({
      streamStatus: "ENDED",
      statusReason: "Counterfeit goods on air.",
    });
    expect(await t.query(api.streams.getPublicStream, { streamId: live })).not.toHaveProperty("statusReason");
  });

  test("the owner ends or cancels her own stream without one, and a reason she sends is not kept", async () => {
    const { t, seller, live, draft } = await setUpModeration();
    await seller.mutation(api.streams.setStreamStatus, { streamId: live, status: "ENDED", reason: "Done." });
    await seller.mutation(api.streams.setStreamStatus, { streamId: draft, status: "CANCELLED" });
    expect(await streamOf(t, live)).not.toHaveProperty("statusReason");
    expect(await statusOf(t, draft)).toBe("CANCELLED");
    expect(await activity(t)).toEqual([]);
  });

  test("another seller, a viewer and a signed-out caller are refused even with a reason", async () => {
    const { t, live } = await setUpModeration();
    const args = { streamId: live, status: "ENDED" as const, reason: "Mine now." };
    for (const identity of [omar, vera]) {
      await expect(
        t.withIdentity(identity).mutation(api.streams.setStreamStatus, args),
      ).rejects.toMatchObject({
        data: { code: "FORBIDDEN" },
      });
    }
    await expect(t.mutation(api.streams.setStreamStatus, args)).rejects.toMatchObject({
      data: { code: "UNAUTHENTICATED" },
    });
    expect(await statusOf(t, live)).toBe("LIVE");
  });
});

// ---------------------------------------------------------------------------------------------------
// Editing streams (createStream, updateStream, setReplayUrl, duplicateStream, deleteStream, links)

const omar = { subject: "user_omar", email: "omar@livelocal.test" };
const vera = { subject: "user_vera", email: "vera@livelocal.test" };
const ada = { subject: "user_ada", email: "ada@livelocal.test" };

/** What the stream form sends: every list present, blank fields left out. */
function streamForm(overrides: Partial<StreamInput> = {}) {
  return {
    streamTitle: "Denim drop",
    streamImageUrls: [],
    timezone: "America/New_York" as const,
    products: [],
    ...overrides,
  };
}

/** The usual set-up plus another seller (Omar), a viewer (Vera), an admin (Ada) and, on request, reference data. */
async function setUpEditing(options: { reference?: boolean } = {}) {
  const base = await setUp();
  if (options.reference) await base.t.mutation(internal.seed.seedReferenceData, {});
  await base.t.run(async (ctx) => {
    const omarId = await insertUser(ctx, { clerkId: omar.subject, email: omar.email, role: "seller" });
    await insertLiveShop(ctx, { userId: omarId, liveShopName: "Omar's", slug: "omars", status: "active" });
    await insertUser(ctx, { clerkId: vera.subject, email: vera.email });
    await insertUser(ctx, { clerkId: ada.subject, email: ada.email, role: "admin" });
  });
  return {
    ...base,
    other: base.t.withIdentity(omar),
    viewer: base.t.withIdentity(vera),
    admin: base.t.withIdentity(ada),
  };
}

async function streamOf(t: ReturnType<typeof newTest>, streamId: Id<"streams">) {
  return await t.run(async (ctx) => await ctx.db.get("streams", streamId));
}

async function withStatus(
  t: ReturnType<typeof newTest>,
  liveShopId: Id<"liveShops">,
  streamStatus: StreamStatus,
  times: { streamStartUTC?: number; streamStopUTC?: number } = {},
) {
  return await t.run(
    async (ctx) => await insertStream(ctx, { liveShopId, streamTitle: "Denim drop", streamStatus, ...times }),
  );
}

async function countRows(t: ReturnType<typeof newTest>) {
  return await t.run(async (ctx) => ({
    streams: (await ctx.db.query("streams").collect()).length,
    liveShopStreams: (await ctx.db.query("liveShopStreams").collect()).length,
    streamCategories: (await ctx.db.query("streamCategories").collect()).length,
    streamMsas: (await ctx.db.query("streamMsas").collect()).length,
    streamPlatforms: (await ctx.db.query("streamPlatforms").collect()).length,
    savedStreams: (await ctx.db.query("savedStreams").collect()).length,
  }));
}

describe("creating a stream", () => {
  test("Sarah adds a draft to her own shop; it carries the shop's name and address", async () => {
    const { t, seller, liveShopId } = await setUpEditing();
    const streamId = await seller.mutation(api.streams.createStream, {
      liveShopId,
      stream: streamForm({ streamTitle: "  Jackets  ", streamStartUTC: T, streamStopUTC: T + 1_000 }),
    });
    expect(await streamOf(t, streamId)).toMatchObject({
      streamTitle: "Jackets",
      streamStatus: "CREATED",
      liveShopName: "Sarah's Vintage",
      liveShopSlug: "sarahs-vintage",
      streamStartUTC: T,
    });
    const link = await t.run(
      async (ctx) =>
        await ctx.db
          .query("liveShopStreams")
          .withIndex("by_streamId", (q) => q.eq("streamId", streamId))
          .unique(),
    );
    expect(link).toMatchObject({ liveShopId, streamStatus: "CREATED" });
  });

  test("not into another seller's shop, not by a viewer, not by an admin", async () => {
    const { t, other, viewer, admin, liveShopId } = await setUpEditing();
    const before = await countRows(t);
    for (const caller of [other, viewer, admin]) {
      await expect(
        caller.mutation(api.streams.createStream, { liveShopId, stream: streamForm() }),
      ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
    }
    expect(await countRows(t)).toEqual(before);
  });

  test.each([
    ["streamTitle", "x".repeat(LIMITS.streamTitle + 1), "Title must be at most 200 characters."],
    ["streamTitle", "   ", "Title is required."],
    [
      "streamDescription",
      "x".repeat(LIMITS.streamDescription + 1),
      "Description must be at most 2,000 characters.",
    ],
    ["streamVideoUrl", "javascript:alert(1)", "Only http:// and https:// links are allowed."],
    ["streamImageUrls", Array(LIMITS.streamImageUrls + 1).fill("/demo/a.svg"), "Add at most 10 images."],
    ["streamStopUTC", T - 500, "The stop time must be after the start time."],
    ["streamStartUTC", 8.64e15 + 10, TIME_RANGE_MESSAGE],
    ["streamStartUTC", Number.MAX_SAFE_INTEGER, TIME_RANGE_MESSAGE],
    ["streamStartUTC", TIME_RANGE.minUtc - 1, TIME_RANGE_MESSAGE],
    ["streamStopUTC", Number.MAX_SAFE_INTEGER, TIME_RANGE_MESSAGE],
  ])(
    "a %s the form refuses is refused with its message, and nothing is written",
    async (field, value, message) => {
      const { t, seller, liveShopId } = await setUpEditing();
      const before = await countRows(t);
      await expect(
        seller.mutation(api.streams.createStream, {
          liveShopId,
          stream: streamForm({ streamStartUTC: T, [field]: value }),
        }),
      ).rejects.toMatchObject({ data: { code: "INVALID_ARGUMENT", message } });
      expect(await countRows(t)).toEqual(before);
    },
  );

  test("a new stream cannot have a replay link yet", async () => {
    const { seller, liveShopId } = await setUpEditing();
    await expect(
      seller.mutation(api.streams.createStream, {
        liveShopId,
        stream: streamForm({ replayVideoUrl: "https://example.com/replay" }),
      }),
    ).rejects.toMatchObject({ data: { code: "NOT_EDITABLE" } });
  });
});

describe("editing a stream", () => {
  test("a draft's fields are replaced; a blank field is cleared", async () => {
    const { t, seller, liveShopId } = await setUpEditing();
    const streamId = await seller.mutation(api.streams.createStream, {
      liveShopId,
      stream: streamForm({ streamDescription: "Old", streamStartUTC: T }),
    });
    await seller.mutation(api.streams.updateStream, {
      streamId,
      stream: streamForm({ streamTitle: "New title", streamDescription: "" }),
    });
    const stream = await streamOf(t, streamId);
    expect(stream?.streamTitle).toBe("New title");
    expect(stream).not.toHaveProperty("streamDescription");
    expect(stream).not.toHaveProperty("streamStartUTC");
  });

  test("a time outside TIME_RANGE is refused with the form's sentence, and the stream is unchanged", async () => {
    const { t, seller, admin, scheduled } = await setUpEditing();
    const before = await streamOf(t, scheduled);
    const start = before!.streamStartUTC!;
    for (const caller of [seller, admin]) {
      for (const times of [
        { streamStartUTC: start, streamStopUTC: 8.64e15 + 10 },
        { streamStartUTC: Number.MAX_SAFE_INTEGER, streamStopUTC: Number.MAX_SAFE_INTEGER },
        { streamStartUTC: -1, streamStopUTC: start },
      ]) {
        await expect(
          caller.mutation(api.streams.updateStream, {
            streamId: scheduled,
            stream: streamForm({ streamTitle: "Moved", ...times }),
          }),
        ).rejects.toMatchObject({ data: { code: "INVALID_ARGUMENT", message: TIME_RANGE_MESSAGE } });
      }
    }
    expect(await streamOf(t, scheduled)).toEqual(before);
  });

  test("a scheduled stream keeps a complete schedule", async () => {
    const { t, seller, scheduled } = await setUpEditing();
    const start = Date.now() + 3 * HOUR;
    await expect(
      seller.mutation(api.streams.updateStream, {
        streamId: scheduled,
        stream: streamForm({ streamStartUTC: start }),
      }),
    ).rejects.toMatchObject({ data: { code: "MISSING_TIMES", message: "Set a stop time first." } });
    await seller.mutation(api.streams.updateStream, {
      streamId: scheduled,
      stream: streamForm({ streamStartUTC: start, streamStopUTC: start + HOUR }),
    });
    expect((await streamOf(t, scheduled))?.streamStartUTC).toBe(start);
  });

  test("live and paused streams can be edited but keep their start time", async () => {
    const { t, seller, liveShopId } = await setUpEditing();
    for (const status of ["LIVE", "PAUSED"] as const) {
      const streamId = await withStatus(t, liveShopId, status, { streamStartUTC: T });
      await seller.mutation(api.streams.updateStream, {
        streamId,
        stream: streamForm({ streamTitle: "Still going", streamStartUTC: T, streamStopUTC: T + 8_000 }),
      });
      expect(await streamOf(t, streamId)).toMatchObject({
        streamTitle: "Still going",
        streamStopUTC: T + 8_000,
      });
      await expect(
        seller.mutation(api.streams.updateStream, { streamId, stream: streamForm() }),
      ).rejects.toMatchObject({ data: { code: "MISSING_TIMES" } });
    }
  });

  test("an ended stream takes only a new replay link; a cancelled one nothing", async () => {
    const { t, seller, liveShopId } = await setUpEditing();
    const times = { streamStartUTC: T, streamStopUTC: T + 1_000 };
    const ended = await withStatus(t, liveShopId, "ENDED", times);
    await expect(
      seller.mutation(api.streams.updateStream, {
        streamId: ended,
        stream: streamForm({ ...times, streamTitle: "Rewritten" }),
      }),
    ).rejects.toMatchObject({
      data: { code: "NOT_EDITABLE", message: "An ended stream can't be changed, except its replay link." },
    });
    await seller.mutation(api.streams.updateStream, {
      streamId: ended,
      stream: streamForm({ ...times, replayVideoUrl: "https://example.com/replay" }),
    });
    expect((await streamOf(t, ended))?.replayVideoUrl).toBe("https://example.com/replay");

    const cancelled = await withStatus(t, liveShopId, "CANCELLED");
    await expect(
      seller.mutation(api.streams.updateStream, { streamId: cancelled, stream: streamForm() }),
    ).rejects.toMatchObject({ data: { code: "NOT_EDITABLE" } });
  });

  test("another seller and a viewer are refused; an admin may moderate", async () => {
    const { t, other, viewer, admin, draft } = await setUpEditing();
    for (const caller of [other, viewer]) {
      await expect(
        caller.mutation(api.streams.updateStream, {
          streamId: draft,
          stream: streamForm({ streamTitle: "Mine" }),
        }),
      ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
    }
    expect((await streamOf(t, draft))?.streamTitle).toBe("Untimed draft");
    await admin.mutation(api.streams.updateStream, {
      streamId: draft,
      stream: streamForm({ streamTitle: "Tidy" }),
    });
    expect((await streamOf(t, draft))?.streamTitle).toBe("Tidy");
  });
});

describe("the replay link", () => {
  test("only an ended stream gets one; an empty value removes it", async () => {
    const { t, seller, other, liveShopId, scheduled } = await setUpEditing();
    const ended = await withStatus(t, liveShopId, "ENDED");
    await seller.mutation(api.streams.setReplayUrl, {
      streamId: ended,
      replayVideoUrl: "https://example.com/r",
    });
    expect((await streamOf(t, ended))?.replayVideoUrl).toBe("https://example.com/r");
    await seller.mutation(api.streams.setReplayUrl, { streamId: ended, replayVideoUrl: "" });
    expect(await streamOf(t, ended)).not.toHaveProperty("replayVideoUrl");

    await expect(
      seller.mutation(api.streams.setReplayUrl, {
        streamId: scheduled,
        replayVideoUrl: "https://example.com/r",
      }),
    ).rejects.toMatchObject({ data: { code: "NOT_EDITABLE" } });
    await expect(
      seller.mutation(api.streams.setReplayUrl, { streamId: ended, replayVideoUrl: "javascript:alert(1)" }),
    ).rejects.toMatchObject({ data: { message: "Only http:// and https:// links are allowed." } });
    await expect(
      other.mutation(api.streams.setReplayUrl, { streamId: ended, replayVideoUrl: "https://example.com/x" }),
    ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
  });
});

describe("saving the stream form: one mutation, all or nothing", () => {
  const whatnot = {
    platformType: "whatnot" as const,
    platformStreamUrl: "https://www.whatnot.com/live/sarah",
  };

  async function stateOf(t: ReturnType<typeof newTest>, streamId: Id<"streams">) {
    return await t.run(async (ctx) => ({
      stream: await ctx.db.get("streams", streamId),
      categories: await ctx.db.query("streamCategories").collect(),
      msas: await ctx.db.query("streamMsas").collect(),
      platforms: await ctx.db.query("streamPlatforms").collect(),
      listings: await ctx.db.query("streamListings").collect(),
    }));
  }

  test("fields, categories, metro areas and platform links are saved together", async () => {
    const { seller, scheduled } = await setUpEditing({ reference: true });
    const stream = await seller.query(api.streams.getMyStream, { streamId: scheduled });
    await seller.mutation(api.streams.updateStream, {
      streamId: scheduled,
      stream: streamForm({
        streamTitle: "Denim drop, part 2",
        streamStartUTC: stream?.streamStartUTC,
        streamStopUTC: stream?.streamStopUTC,
      }),
      categories: [{ categoryId: "fashion_apparel", subcategoryId: "clothing", priority: 0 }],
      cbsaCodes: ["12420"],
      platforms: [whatnot],
    });
    expect(await seller.query(api.streams.getMyStream, { streamId: scheduled })).toMatchObject({
      streamTitle: "Denim drop, part 2",
      categories: [{ categoryId: "fashion_apparel", subcategoryId: "clothing", priority: 0 }],
      cbsaCodes: ["12420"],
      platforms: [whatnot],
    });
  });

  test("a save whose metro areas (its last part) name an unknown one writes nothing", async () => {
    const { t, seller, scheduled } = await setUpEditing({ reference: true });
    const stream = await seller.query(api.streams.getMyStream, { streamId: scheduled });
    const times = { streamStartUTC: stream?.streamStartUTC, streamStopUTC: stream?.streamStopUTC };
    await seller.mutation(api.streams.updateStream, {
      streamId: scheduled,
      stream: streamForm(times),
      categories: [{ categoryId: "home_goods", priority: 0 }],
      cbsaCodes: ["12420"],
      platforms: [whatnot],
    });
    const before = await stateOf(t, scheduled);

    await expect(
      seller.mutation(api.streams.updateStream, {
        streamId: scheduled,
        stream: streamForm({ ...times, streamTitle: "Renamed" }),
        categories: [{ categoryId: "fashion_apparel", priority: 0 }],
        platforms: [{ platformType: "tiktok", platformStreamUrl: "https://www.tiktok.com/@sarah/live" }],
        cbsaCodes: ["16980", "99999"],
      }),
    ).rejects.toMatchObject({ data: { code: "INVALID_ARGUMENT", message: 'Unknown metro area "99999".' } });

    const after = await stateOf(t, scheduled);
    expect(after).toEqual(before);
    expect(after.stream?.streamTitle).toBe("Denim drop");
  });

  test("a new stream whose metro areas are refused is not created", async () => {
    const { t, seller, liveShopId } = await setUpEditing({ reference: true });
    const before = await countRows(t);
    await expect(
      seller.mutation(api.streams.createStream, {
        liveShopId,
        stream: streamForm({ streamTitle: "New show" }),
        categories: [{ categoryId: "home_goods", priority: 0 }],
        platforms: [whatnot],
        cbsaCodes: ["99999"],
      }),
    ).rejects.toMatchObject({ data: { message: 'Unknown metro area "99999".' } });
    expect(await countRows(t)).toEqual(before);
  });

  test("a new stream is created with its categories, metro areas and platform links", async () => {
    const { seller, liveShopId } = await setUpEditing({ reference: true });
    const streamId = await seller.mutation(api.streams.createStream, {
      liveShopId,
      stream: streamForm({ streamTitle: "New show" }),
      categories: [{ categoryId: "home_goods", priority: 0 }],
      cbsaCodes: ["12420"],
      platforms: [whatnot],
    });
    expect(await seller.query(api.streams.getMyStream, { streamId })).toMatchObject({
      streamStatus: "CREATED",
      categories: [{ categoryId: "home_goods", priority: 0 }],
      cbsaCodes: ["12420"],
      platforms: [whatnot],
    });
  });
});

describe("a stream's categories, metro areas and platforms", () => {
  test("each set is replaced; duplicates and unknown values are refused with nothing written", async () => {
    const { seller, draft } = await setUpEditing({ reference: true });
    await seller.mutation(api.streams.updateStream, {
      streamId: draft,
      stream: streamForm({ streamTitle: "Untimed draft" }),
      categories: [
        { categoryId: "fashion_apparel", subcategoryId: "clothing" },
        { categoryId: "home_goods" },
      ],
    });
    await seller.mutation(api.streams.updateStream, {
      streamId: draft,
      stream: streamForm({ streamTitle: "Untimed draft" }),
      categories: [{ categoryId: "home_goods", priority: 0 }],
    });
    await seller.mutation(api.streams.updateStream, {
      streamId: draft,
      stream: streamForm({ streamTitle: "Untimed draft" }),
      cbsaCodes: ["12420"],
    });
    await expect(
      seller.mutation(api.streams.updateStream, {
        streamId: draft,
        stream: streamForm({ streamTitle: "Untimed draft" }),
        categories: [{ categoryId: "home_goods", subcategoryId: "shoes" }],
      }),
    ).rejects.toMatchObject({ data: { code: "INVALID_ARGUMENT" } });
    await expect(
      seller.mutation(api.streams.updateStream, {
        streamId: draft,
        stream: streamForm({ streamTitle: "Untimed draft" }),
        cbsaCodes: ["12420", "12420"],
      }),
    ).rejects.toMatchObject({ data: { message: "List each metro area only once." } });
    expect(await seller.query(api.streams.getMyStream, { streamId: draft })).toMatchObject({
      categories: [{ categoryId: "home_goods", priority: 0 }],
      cbsaCodes: ["12420"],
    });
  });

  test("one link per platform: a second Whatnot link is refused with a sentence", async () => {
    const { t, seller, draft } = await setUpEditing();
    const whatnot = {
      platformType: "whatnot" as const,
      platformStreamUrl: "https://www.whatnot.com/live/sarah",
    };
    await expect(
      seller.mutation(api.streams.updateStream, {
        streamId: draft,
        stream: streamForm({ streamTitle: "Untimed draft" }),
        platforms: [whatnot, { ...whatnot, platformStreamUrl: "https://whatnot.com/live/other" }],
      }),
    ).rejects.toMatchObject({
      data: {
        code: "INVALID_ARGUMENT",
        message: "Whatnot is listed twice; a stream has one link per platform.",
        fields: {
          "platforms.1.platformType": "Whatnot is listed twice; a stream has one link per platform.",
        },
      },
    });
    expect((await countRows(t)).streamPlatforms).toBe(0);
  });

  test("platform links are held to the platform's hosts and replaced as a set", async () => {
    const { seller, draft } = await setUpEditing();
    await expect(
      seller.mutation(api.streams.updateStream, {
        streamId: draft,
        stream: streamForm({ streamTitle: "Untimed draft" }),
        platforms: [{ platformType: "tiktok", platformStreamUrl: "https://evil.example/live" }],
      }),
    ).rejects.toMatchObject({ data: { message: "A TikTok Shop link must be on tiktok.com." } });
    await seller.mutation(api.streams.updateStream, {
      streamId: draft,
      stream: streamForm({ streamTitle: "Untimed draft" }),
      platforms: [
        { platformType: "whatnot", platformStreamUrl: "https://www.whatnot.com/live/sarah" },
        { platformType: "tiktok", platformStreamUrl: "https://www.tiktok.com/@sarah/live" },
      ],
    });
    await seller.mutation(api.streams.updateStream, {
      streamId: draft,
      stream: streamForm({ streamTitle: "Untimed draft" }),
      platforms: [
        {
          platformType: "tiktok",
          platformStreamUrl: "https://www.tiktok.com/@sarah/live",
          platformActionUrl: "https://sarahs.example/shop",
        },
      ],
    });
    expect((await seller.query(api.streams.getMyStream, { streamId: draft }))?.platforms).toEqual([
      {
        platformType: "tiktok",
        platformStreamUrl: "https://www.tiktok.com/@sarah/live",
        platformActionUrl: "https://sarahs.example/shop",
      },
    ]);
  });

  test("an ended stream's links cannot change; others cannot change them at all", async () => {
    const { t, seller, other, viewer, liveShopId, draft } = await setUpEditing();
    const ended = await withStatus(t, liveShopId, "ENDED");
    await expect(
      seller.mutation(api.streams.updateStream, { streamId: ended, stream: streamForm(), platforms: [] }),
    ).rejects.toMatchObject({ data: { code: "NOT_EDITABLE" } });
    for (const caller of [other, viewer]) {
      await expect(
        caller.mutation(api.streams.updateStream, {
          streamId: draft,
          stream: streamForm({ streamTitle: "Untimed draft" }),
          categories: [],
        }),
      ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
      await expect(
        caller.mutation(api.streams.updateStream, {
          streamId: draft,
          stream: streamForm({ streamTitle: "Untimed draft" }),
          cbsaCodes: [],
        }),
      ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
      await expect(
        caller.mutation(api.streams.updateStream, {
          streamId: draft,
          stream: streamForm({ streamTitle: "Untimed draft" }),
          platforms: [],
        }),
      ).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
    }
  });

  test("getMyStream is null for anyone but the owner and admins", async () => {
    const { t, other, viewer, admin, draft } = await setUpEditing();
    expect(await admin.query(api.streams.getMyStream, { streamId: draft })).toMatchObject({
      streamTitle: "Untimed draft",
      categories: [],
      cbsaCodes: [],
      platforms: [],
    });
    for (const caller of [t, other, viewer]) {
      expect(await caller.query(api.streams.getMyStream, { streamId: draft })).toBeNull();
    }
  });
});

describe("duplicating and deleting", () => {
  test("a copy is a draft with '(copy)', no times or replay, and the same links", async () => {
    const { t, seller, liveShopId } = await setUpEditing({ reference: true });
    const ended = await withStatus(t, liveShopId, "ENDED", { streamStartUTC: T, streamStopUTC: T + 1_000 });
    await seller.mutation(api.streams.setReplayUrl, {
      streamId: ended,
      replayVideoUrl: "https://example.com/r",
    });
    await t.run(async (ctx) => {
      await linkStreamCategory(ctx, ended, { categoryId: "home_goods" });
      const msa = await ctx.db
        .query("msas")
        .withIndex("by_cbsaCode", (q) => q.eq("cbsaCode", "12420"))
        .unique();
      if (msa) await linkStreamMsa(ctx, ended, msa._id);
      await upsertStreamPlatform(ctx, ended, {
        platformType: "whatnot",
        platformStreamUrl: "https://www.whatnot.com/live/sarah",
      });
    });
    const copyId = await seller.mutation(api.streams.duplicateStream, { streamId: ended });
    const copy = await seller.query(api.streams.getMyStream, { streamId: copyId });
    expect(copy).toMatchObject({
      streamTitle: "Denim drop (copy)",
      streamStatus: "CREATED",
      categories: [{ categoryId: "home_goods", priority: 0 }],
      cbsaCodes: ["12420"],
      platforms: [{ platformType: "whatnot", platformStreamUrl: "https://www.whatnot.com/live/sarah" }],
    });
    expect(copy).not.toHaveProperty("streamStartUTC");
    expect(copy).not.toHaveProperty("replayVideoUrl");
  });

  test("a copy's title stays within 200 characters", async () => {
    const { t, seller, liveShopId } = await setUpEditing();
    const streamId = await t.run(
      async (ctx) => await insertStream(ctx, { liveShopId, streamTitle: "x".repeat(LIMITS.streamTitle) }),
    );
    const copyId = await seller.mutation(api.streams.duplicateStream, { streamId });
    const title = (await streamOf(t, copyId))?.streamTitle ?? "";
    expect(title).toHaveLength(LIMITS.streamTitle);
    expect(title.endsWith(" (copy)")).toBe(true);
  });

  test("only the owner duplicates", async () => {
    const { t, other, viewer, admin, draft } = await setUpEditing();
    const before = await countRows(t);
    for (const caller of [other, viewer, admin]) {
      await expect(caller.mutation(api.streams.duplicateStream, { streamId: draft })).rejects.toMatchObject({
        data: { code: "FORBIDDEN" },
      });
    }
    expect(await countRows(t)).toEqual(before);
  });

  test("deleting a draft removes its link rows, platforms and watch-list entries", async () => {
    const { t, seller, draft } = await setUpEditing({ reference: true });
    await seller.mutation(api.streams.updateStream, {
      streamId: draft,
      stream: streamForm({ streamTitle: "Untimed draft" }),
      categories: [{ categoryId: "home_goods" }],
    });
    await seller.mutation(api.streams.updateStream, {
      streamId: draft,
      stream: streamForm({ streamTitle: "Untimed draft" }),
      cbsaCodes: ["12420"],
    });
    await seller.mutation(api.streams.updateStream, {
      streamId: draft,
      stream: streamForm({ streamTitle: "Untimed draft" }),
      platforms: [{ platformType: "whatnot", platformStreamUrl: "https://www.whatnot.com/live/sarah" }],
    });
    await t.run(async (ctx) => {
      const vera = await ctx.db
        .query("users")
        .withIndex("by_clerkId", (q) => q.eq("clerkId", "user_vera"))
        .unique();
      if (vera) await insertWithTimestamps(ctx, "savedStreams", { userId: vera._id, streamId: draft });
    });
    const before = await countRows(t);
    await seller.mutation(api.streams.deleteStream, { streamId: draft });
    expect(await countRows(t)).toEqual({
      ...before,
      streams: before.streams - 1,
      liveShopStreams: before.liveShopStreams - 1,
      streamCategories: 0,
      streamMsas: 0,
      streamPlatforms: 0,
      savedStreams: 0,
    });
  });

  test("only drafts are deleted, and only by their owner or an admin", async () => {
    const { t, seller, other, viewer, scheduled, draft } = await setUpEditing();
    await expect(seller.mutation(api.streams.deleteStream, { streamId: scheduled })).rejects.toMatchObject({
      data: { code: "NOT_EDITABLE" },
    });
    for (const caller of [other, viewer]) {
      await expect(caller.mutation(api.streams.deleteStream, { streamId: draft })).rejects.toMatchObject({
        data: { code: "FORBIDDEN" },
      });
    }
    expect(await streamOf(t, draft)).not.toBeNull();
    expect(await streamOf(t, scheduled)).not.toBeNull();
  });
});

describe("lifecycle conditions through setStreamStatus", () => {
  test("scheduling needs both times; going live needs an active shop", async () => {
    const { t, seller, draft, liveShopId } = await setUpEditing();
    await expect(
      seller.mutation(api.streams.setStreamStatus, { streamId: draft, status: "SCHEDULED" }),
    ).rejects.toMatchObject({ data: { code: "MISSING_TIMES" } });
    await t.run(async (ctx) => await patchLiveShop(ctx, liveShopId, { status: "maintenance" }));
    await expect(
      seller.mutation(api.streams.setStreamStatus, { streamId: draft, status: "LIVE" }),
    ).rejects.toMatchObject({ data: { code: "SHOP_NOT_ACTIVE" } });
    expect(await statusOf(t, draft)).toBe("CREATED");
  });
});

describe("auto-end", () => {
  test("ends only LIVE and PAUSED streams whose stop time passed more than two hours ago", async () => {
    const { t, liveShopId } = await setUpEditing();
    const now = Date.now();
    const longAgo = { streamStartUTC: now - 5 * HOUR, streamStopUTC: now - 2 * HOUR - 60_000 };
    const ids = {
      liveOverdue: await withStatus(t, liveShopId, "LIVE", longAgo),
      pausedOverdue: await withStatus(t, liveShopId, "PAUSED", longAgo),
      liveWithinGrace: await withStatus(t, liveShopId, "LIVE", {
        streamStartUTC: now - 3 * HOUR,
        streamStopUTC: now - HOUR,
      }),
      liveWithoutStop: await withStatus(t, liveShopId, "LIVE", { streamStartUTC: now - 10 * HOUR }),
      scheduledOverdue: await withStatus(t, liveShopId, "SCHEDULED", longAgo),
    };
    expect(await t.mutation(internal.streams.endOverdue, {})).toEqual({ ended: 2 });
    const statuses = Object.fromEntries(
      await Promise.all(
        Object.entries(ids).map(async ([name, id]) => [name, await statusOf(t, id)] as const),
      ),
    );
    expect(statuses).toEqual({
      liveOverdue: "ENDED",
      pausedOverdue: "ENDED",
      liveWithinGrace: "LIVE",
      liveWithoutStop: "LIVE",
      scheduledOverdue: "SCHEDULED",
    });
    const link = await t.run(
      async (ctx) =>
        await ctx.db
          .query("liveShopStreams")
          .withIndex("by_streamId", (q) => q.eq("streamId", ids.liveOverdue))
          .unique(),
    );
    expect(link?.streamStatus).toBe("ENDED");
  });

  test("a full batch schedules another run until none are left", async () => {
    vi.useFakeTimers();
    try {
      const { t, liveShopId } = await setUpEditing();
      const stop = Date.now() - 3 * HOUR;
      await t.run(async (ctx) => {
        for (let i = 0; i < AUTO_END_BATCH_SIZE + 5; i++) {
          await insertStream(ctx, {
            liveShopId,
            streamTitle: `Show ${i}`,
            streamStatus: "LIVE",
            streamStartUTC: stop - HOUR,
            streamStopUTC: stop,
          });
        }
      });
      expect(await t.mutation(internal.streams.endOverdue, {})).toEqual({ ended: AUTO_END_BATCH_SIZE });
      await t.finishAllScheduledFunctions(vi.runAllTimers);
      const stillLive = await t.run(
        async (ctx) =>
          await ctx.db
            .query("streams")
            .withIndex("by_streamStatus_and_streamStartUTC", (q) => q.eq("streamStatus", "LIVE"))
            .collect(),
      );
      expect(stillLive).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  test("the cron runs the job every five minutes", () => {
    const job = (crons as unknown as { crons: Record<string, { name: string; schedule: unknown }> }).crons[
      "end overdue streams"
    ];
    expect(job?.schedule).toEqual({ type: "interval", minutes: 5 });
    expect(job?.name).toBe(getFunctionName(internal.streams.endOverdue));
  });
});
