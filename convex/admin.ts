/**
 * The admin console's reads (docs/product.md#roles): the overview's counts, the shop verification queue,
 * shops and streams for moderation (and a search of shops), and the activity log. Admins only: anyone
 * else gets the empty result. The actions themselves are the shop, stream and user mutations, which
 * record each admin action in the activity log (model/adminLog.ts), and the queue's bulk approval here.
 */
import { paginationOptsValidator, paginationResultValidator } from "convex/server";
import { v } from "convex/values";
import type { Doc, Id } from "./_generated/dataModel";
import type { QueryCtx } from "./_generated/server";
import { adminMutation, query } from "./functions";
import { checkShopTransition } from "./lib/lifecycle";
import { LIMITS } from "./lib/validation";
import { recordAdminAction } from "./model/adminLog";
import { appError } from "./model/errors";
import { changeShopStatus, getShopDetails } from "./model/liveShops";
import { actorFor } from "./model/ownership";
import { findUsersByEmailPrefix } from "./model/users";
import type { PrivacyRequestStatus } from "./lib/constants";
import { areaValidator, categoryLabelValidator, readShopLinks } from "./model/publicPages";
import schema, { shopStatusValidator, streamStatusValidator, timeZoneValidator } from "./schema";
import { EMPTY_PAGE } from "./model/pages";

/** Each overview count reads at most this many rows; beyond it the console shows "100+". */
export const OVERVIEW_COUNT_LIMIT = 100;

/** Privacy requests waiting for a decision (the others are decided or withdrawn). */
export const OPEN_PRIVACY_REQUEST_STATUSES = [
  "pending_export",
  "pending_deletion",
  "pending_review",
] as const satisfies readonly PrivacyRequestStatus[];

/** A bounded count: `count` rows, and `more` when there were more than the limit read. */
const countValidator = v.object({ count: v.number(), more: v.boolean() });

function bounded(count: number, limit = OVERVIEW_COUNT_LIMIT) {
  return { count: Math.min(count, limit), more: count > limit };
}

const ownerValidator = v.union(v.object({ name: v.optional(v.string()), email: v.string() }), v.null());

async function ownerOf(ctx: QueryCtx, userId: Id<"users">) {
  const owner = await ctx.db.get("users", userId);
  return owner && { name: owner.name, email: owner.email };
}

/**
 * The overview's counts: shops awaiting verification, open privacy requests and how many are past
 * their due date at `now` (the browser's clock, rounded to the minute, so the query stays cached),
 * and streams live or paused now. Null for anyone but an admin.
 */
export const getOverview = query({
  args: { now: v.number() },
  returns: v.union(
    v.object({
      shopsAwaitingVerification: countValidator,
      openPrivacyRequests: countValidator,
      overduePrivacyRequests: countValidator,
      liveStreams: countValidator,
    }),
    v.null(),
  ),
  handler: async (ctx, { now }) => {
    if (ctx.viewer?.role !== "admin") return null;
    const pendingShops = await ctx.db
      .query("liveShops")
      .withIndex("by_status_and_updatedAt", (q) => q.eq("status", "pending_verification"))
      .take(OVERVIEW_COUNT_LIMIT + 1);

    // Oldest first within each status, so the overdue ones are among those read.
    const openRequests: Doc<"privacyRequests">[] = [];
    for (const status of OPEN_PRIVACY_REQUEST_STATUSES) {
      openRequests.push(
        ...(await ctx.db
          .query("privacyRequests")
          .withIndex("by_status_and_requestedAt", (q) => q.eq("status", status))
          .take(OVERVIEW_COUNT_LIMIT + 1)),
      );
    }
    const overdue = openRequests.filter((request) => request.dueAt < now);

    let live = 0;
    for (const streamStatus of ["LIVE", "PAUSED"] as const) {
      live += (
        await ctx.db
          .query("streams")
          .withIndex("by_streamStatus_and_streamStartUTC", (q) => q.eq("streamStatus", streamStatus))
          .take(OVERVIEW_COUNT_LIMIT + 1)
      ).length;
    }

    return {
      shopsAwaitingVerification: bounded(pendingShops.length),
      openPrivacyRequests: bounded(openRequests.length),
      overduePrivacyRequests: bounded(overdue.length),
      liveStreams: bounded(live),
    };
  },
});

const queueEntryValidator = v.object({
  _id: v.id("liveShops"),
  liveShopName: v.string(),
  slug: v.string(),
  headline: v.optional(v.string()),
  description: v.optional(v.string()),
  logoUrl: v.optional(v.string()),
  createdAt: v.number(),
  /** The shop's last change while pending: its submission, unless it was edited since. */
  waitingSince: v.number(),
  owner: ownerValidator,
  categories: v.array(categoryLabelValidator),
  areas: v.array(areaValidator),
});

/**
 * The verification queue: shops pending verification, waiting longest first, with what an admin
 * needs to decide (owner, description, categories, metro areas). An empty page for anyone else.
 */
export const listVerificationQueue = query({
  args: { paginationOpts: paginationOptsValidator },
  returns: paginationResultValidator(queueEntryValidator),
  handler: async (ctx, { paginationOpts }) => {
    if (ctx.viewer?.role !== "admin") return EMPTY_PAGE;
    const result = await ctx.db
      .query("liveShops")
      .withIndex("by_status_and_updatedAt", (q) => q.eq("status", "pending_verification"))
      .paginate(paginationOpts);
    return {
      ...result,
      page: await Promise.all(
        result.page.map(async (shop) => ({
          _id: shop._id,
          liveShopName: shop.liveShopName,
          slug: shop.slug,
          headline: shop.headline,
          description: shop.description,
          logoUrl: shop.logoUrl,
          createdAt: shop.createdAt,
          waitingSince: shop.updatedAt,
          owner: await ownerOf(ctx, shop.userId),
          ...(await readShopLinks(ctx, shop._id)),
        })),
      ),
    };
  },
});

const moderationShopValidator = v.object({
  _id: v.id("liveShops"),
  liveShopName: v.string(),
  slug: v.string(),
  status: shopStatusValidator,
  statusReason: v.optional(v.string()),
  updatedAt: v.number(),
  owner: ownerValidator,
});

async function toModerationShop(ctx: QueryCtx, shop: Doc<"liveShops">) {
  return {
    _id: shop._id,
    liveShopName: shop.liveShopName,
    slug: shop.slug,
    status: shop.status,
    statusReason: shop.statusReason,
    updatedAt: shop.updatedAt,
    owner: await ownerOf(ctx, shop.userId),
  };
}

/**
 * Every shop for moderation, optionally of one status: most recently changed first with a status,
 * newest first without. An empty page for anyone but an admin.
 */
export const listShops = query({
  args: { paginationOpts: paginationOptsValidator, status: v.optional(shopStatusValidator) },
  returns: paginationResultValidator(moderationShopValidator),
  handler: async (ctx, { paginationOpts, status }) => {
    if (ctx.viewer?.role !== "admin") return EMPTY_PAGE;
    const shops = ctx.db.query("liveShops");
    const result = await (
      status ? shops.withIndex("by_status_and_updatedAt", (q) => q.eq("status", status)) : shops
    )
      .order("desc")
      .paginate(paginationOpts);
    return { ...result, page: await Promise.all(result.page.map((shop) => toModerationShop(ctx, shop))) };
  },
});

/** Shops a search answers, and people whose email matches it: a search narrows, it is not browsed. */
export const SHOP_SEARCH_LIMIT = 25;
const SEARCH_OWNERS_LIMIT = 10;
/** What a search box sends is cut to this before it is looked up. */
export const SEARCH_TEXT_LENGTH = 100;

/**
 * Admins: shops whose name matches `text` (the shop-name search index), and the shops of people whose
 * email starts with it, optionally of one status; at most SHOP_SEARCH_LIMIT. Empty for anyone else.
 */
export const searchShops = query({
  args: { text: v.string(), status: v.optional(shopStatusValidator) },
  returns: v.array(moderationShopValidator),
  handler: async (ctx, { text, status }) => {
    if (ctx.viewer?.role !== "admin") return [];
    const words = text.trim().slice(0, SEARCH_TEXT_LENGTH);
    if (words === "") return [];
    const byName = await ctx.db
      .query("liveShops")
      .withSearchIndex("search_liveShopName", (q) => {
        const search = q.search("liveShopName", words);
        return status ? search.eq("status", status) : search;
      })
      .take(SHOP_SEARCH_LIMIT);
    const found = new Map(byName.map((shop) => [shop._id, shop]));
    for (const owner of await findUsersByEmailPrefix(ctx, words, SEARCH_OWNERS_LIMIT)) {
      const shops = await ctx.db
        .query("liveShops")
        .withIndex("by_userId", (q) => q.eq("userId", owner._id))
        .take(LIMITS.shopsPerUser);
      for (const shop of shops) if (!status || shop.status === status) found.set(shop._id, shop);
    }
    return await Promise.all(
      [...found.values()].slice(0, SHOP_SEARCH_LIMIT).map(async (shop) => toModerationShop(ctx, shop)),
    );
  },
});

/** Shops one bulk approval takes: a page of the queue. */
export const BULK_APPROVAL_LIMIT = 25;

/**
 * Admins: approves the chosen shops awaiting verification, each as a single approval would (recorded in
 * the activity log). Shops that cannot be approved (decided meanwhile, gone) are left as they are and
 * listed with why. Rejections are never in bulk: each needs its own reason.
 */
export const approveShops = adminMutation({
  args: { liveShopIds: v.array(v.id("liveShops")) },
  returns: v.object({
    approved: v.array(v.id("liveShops")),
    skipped: v.array(v.object({ id: v.id("liveShops"), reason: v.string() })),
  }),
  handler: async (ctx, { liveShopIds }) => {
    const ids = [...new Set(liveShopIds)];
    if (ids.length > BULK_APPROVAL_LIMIT) {
      throw appError("INVALID_ARGUMENT", `Approve at most ${BULK_APPROVAL_LIMIT} shops at once.`);
    }
    const approved: Id<"liveShops">[] = [];
    const skipped: { id: Id<"liveShops">; reason: string }[] = [];
    for (const liveShopId of ids) {
      const shop = await ctx.db.get("liveShops", liveShopId);
      if (!shop) {
        skipped.push({ id: liveShopId, reason: "This live shop does not exist." });
        continue;
      }
      // Checked before anything is written, so a refusal leaves this shop (and the others) as they were.
      const decision = checkShopTransition({
        from: shop.status,
        to: "active",
        actor: actorFor(ctx.viewer, shop),
        shop: await getShopDetails(ctx, shop),
      });
      if (!decision.ok || shop.status !== "pending_verification") {
        skipped.push({
          id: liveShopId,
          reason: decision.ok ? "It is not awaiting verification." : decision.message,
        });
        continue;
      }
      await changeShopStatus(ctx, shop, actorFor(ctx.viewer, shop), "active", undefined);
      await recordAdminAction(ctx, ctx.viewer, {
        action: "approve_shop",
        targetTable: "liveShops",
        targetId: shop._id,
        targetLabel: shop.liveShopName,
      });
      approved.push(liveShopId);
    }
    return { approved, skipped };
  },
});

/** The statuses an admin acts on: live and paused streams can be ended, scheduled ones cancelled. */
export const MODERATED_STREAM_STATUSES = ["LIVE", "PAUSED", "SCHEDULED"] as const;

const moderationStreamValidator = v.object({
  _id: v.id("streams"),
  streamTitle: v.string(),
  streamStatus: streamStatusValidator,
  streamStartUTC: v.optional(v.number()),
  streamStopUTC: v.optional(v.number()),
  streamStartedUTC: v.optional(v.number()),
  timezone: timeZoneValidator,
  liveShopId: v.id("liveShops"),
  liveShopName: v.string(),
  liveShopSlug: v.string(),
  shopStatus: v.union(shopStatusValidator, v.null()),
});

/**
 * Streams of one moderated status (the console shows LIVE, then PAUSED, then SCHEDULED), earliest start
 * first, with their shop. An empty page for anyone but an admin.
 */
export const listStreams = query({
  args: {
    paginationOpts: paginationOptsValidator,
    status: v.union(...MODERATED_STREAM_STATUSES.map((status) => v.literal(status))),
  },
  returns: paginationResultValidator(moderationStreamValidator),
  handler: async (ctx, { paginationOpts, status }) => {
    if (ctx.viewer?.role !== "admin") return EMPTY_PAGE;
    const result = await ctx.db
      .query("streams")
      .withIndex("by_streamStatus_and_streamStartUTC", (q) => q.eq("streamStatus", status))
      .paginate(paginationOpts);
    return {
      ...result,
      page: await Promise.all(
        result.page.map(async (stream) => ({
          _id: stream._id,
          streamTitle: stream.streamTitle,
          streamStatus: stream.streamStatus,
          streamStartUTC: stream.streamStartUTC,
          streamStopUTC: stream.streamStopUTC,
          streamStartedUTC: stream.streamStartedUTC,
          timezone: stream.timezone,
          liveShopId: stream.liveShopId,
          liveShopName: stream.liveShopName,
          liveShopSlug: stream.liveShopSlug,
          shopStatus: (await ctx.db.get("liveShops", stream.liveShopId))?.status ?? null,
        })),
      ),
    };
  },
});

/** The activity log: every admin action, newest first. An empty page for anyone but an admin. */
export const listActivity = query({
  args: { paginationOpts: paginationOptsValidator },
  returns: paginationResultValidator(schema.doc("adminActions")),
  handler: async (ctx, { paginationOpts }) => {
    if (ctx.viewer?.role !== "admin") return EMPTY_PAGE;
    // An admin's edits within a few minutes share one entry (its `updatedAt` moves), decision 018.
    return await ctx.db.query("adminActions").order("desc").paginate(paginationOpts);
  },
});

/** How many of a person's shops the role-change question names; beyond it, "and more". */
export const USER_SHOPS_LIMIT = 20;

/**
 * The shops a person owns, for the question an admin answers before changing their role (decision 025):
 * each with its status and whether a show is live or paused in it now. Null for anyone but an admin.
 */
export const listUserShops = query({
  args: { userId: v.id("users") },
  returns: v.union(
    v.object({
      shops: v.array(
        v.object({
          _id: v.id("liveShops"),
          liveShopName: v.string(),
          status: shopStatusValidator,
          liveNow: v.boolean(),
        }),
      ),
      more: v.boolean(),
    }),
    v.null(),
  ),
  handler: async (ctx, { userId }) => {
    if (ctx.viewer?.role !== "admin") return null;
    const shops = await ctx.db
      .query("liveShops")
      .withIndex("by_userId", (q) => q.eq("userId", userId))
      .take(USER_SHOPS_LIMIT + 1);
    return {
      shops: await Promise.all(
        shops.slice(0, USER_SHOPS_LIMIT).map(async ({ _id, liveShopName, status }) => {
          let liveNow = false;
          for (const streamStatus of ["LIVE", "PAUSED"] as const) {
            const row = await ctx.db
              .query("liveShopStreams")
              .withIndex("by_liveShopId_and_streamStatus", (q) =>
                q.eq("liveShopId", _id).eq("streamStatus", streamStatus),
              )
              .first();
            liveNow ||= row !== null;
          }
          return { _id, liveShopName, status, liveNow };
        }),
      ),
      more: shops.length > USER_SHOPS_LIMIT,
    };
  },
});
