import { zid } from "convex-helpers/server/zod4";
import { findShopRule, isShopPublic, type ShopAction } from "./lib/lifecycle";
import { doc } from "convex-helpers/validators";
import { v } from "convex/values";
import { internalMutation, publicQuery, query, zMutation } from "./functions";
import schema, { shopCardValidator, shopStatusValidator } from "./schema";
import {
  categoryLinksSchema,
  cbsaCodesSchema,
  LIMITS,
  liveShopSchema,
  shopStatusSchema,
  slugSchema,
  statusReasonSchema,
} from "./lib/validation";
import { categoryLinkValidator } from "./model/links";
import {
  assertMayOpenAnotherShop,
  changeShopStatus,
  copyShopNameToStreams,
  getLiveShopBySlug,
  getLiveShopOrThrow,
  insertLiveShop,
  listShopCategories,
  listShopCbsaCodes,
  replaceShopCategories,
  replaceShopMsas,
  saveShopForm,
  shopFormFields,
} from "./model/liveShops";
import { listFeaturedShopCards } from "./model/home";
import { recordAdminAction } from "./model/adminLog";
import { getManagedShop, getOwnedShopOrThrow, recordModeratorEdit } from "./model/ownership";
import {
  findShopByIdOrSlug,
  listShopPageStreams,
  publicShopValidator,
  type PublicShop,
  readPublicOwner,
  readShopLinks,
  toPublicShopFields,
} from "./model/publicPages";
import { becomeSellerForNewShop } from "./model/users";
import { isHiddenByOwner, publicShopStatus } from "./model/restriction";
import { limitRate } from "./model/rateLimits";

/**
 * The caller's shops for the dashboard, most recently changed first; empty when signed out.
 * `hiddenFromPublic`: off public surfaces because of the owner's account, whatever the shop's status.
 */
export const listMyShops = query({
  args: {},
  returns: v.array(
    v.object({
      _id: v.id("liveShops"),
      liveShopName: v.string(),
      slug: v.string(),
      status: shopStatusValidator,
      statusReason: v.optional(v.string()),
      hiddenFromPublic: v.boolean(),
      updatedAt: v.number(),
    }),
  ),
  handler: async (ctx) => {
    if (!ctx.viewer) return [];
    const viewerId = ctx.viewer._id;
    const shops = await ctx.db
      .query("liveShops")
      .withIndex("by_userId", (q) => q.eq("userId", viewerId))
      .take(LIMITS.shopsPerUser);
    return shops
      .sort((a, b) => b.updatedAt - a.updatedAt)
      .map((shop) => ({
        _id: shop._id,
        liveShopName: shop.liveShopName,
        slug: shop.slug,
        status: shop.status,
        statusReason: shop.statusReason,
        hiddenFromPublic: isHiddenByOwner(shop),
        updatedAt: shop.updatedAt,
      }));
  },
});

/** A shop with its categories and metro areas, for its edit form: null unless the caller owns it or is an admin. */
export const getMyShop = query({
  args: { liveShopId: v.id("liveShops") },
  returns: v.union(
    doc(schema, "liveShops").extend({
      categories: v.array(categoryLinkValidator),
      cbsaCodes: v.array(v.string()),
    }),
    v.null(),
  ),
  handler: async (ctx, { liveShopId }) => {
    const access = await getManagedShop(ctx, ctx.viewer, liveShopId);
    if (!access) return null;
    return {
      ...access.shop,
      categories: await listShopCategories(ctx, liveShopId),
      cbsaCodes: await listShopCbsaCodes(ctx, liveShopId),
    };
  },
});

/**
 * A shop's public page, by slug or id: its public fields (no tax id, no owner id), its owner's name and
 * picture if they allow it, categories, areas served and streams live now, upcoming and past. Null when
 * unknown or not public (only active and maintenance shops are), except to its owner and admins, who
 * get it with `preview: true` (a draft or a shop waiting for verification, seen before anyone else).
 */
export const getPublicShop = query({
  args: { idOrSlug: v.string() },
  returns: v.union(publicShopValidator.extend({ preview: v.optional(v.literal(true)) }), v.null()),
  handler: async (ctx, { idOrSlug }): Promise<(PublicShop & { preview?: true }) | null> => {
    const shop = await findShopByIdOrSlug(ctx, idOrSlug);
    if (!shop) return null;
    const preview = !isShopPublic(publicShopStatus(shop));
    if (preview && !(await getManagedShop(ctx, ctx.viewer, shop._id))) return null;
    return {
      ...toPublicShopFields(shop),
      owner: await readPublicOwner(ctx, shop),
      ...(await readShopLinks(ctx, shop._id)),
      streams: await listShopPageStreams(ctx, shop._id),
      ...(preview && { preview: true as const }),
    };
  },
});

/** The home page's featured shops: a few active shops, those with the most live and upcoming shows first. */
export const listFeaturedShops = publicQuery({
  args: {},
  returns: v.array(shopCardValidator),
  handler: async (ctx) => await listFeaturedShopCards(ctx),
});

/** Whether a web address is free: for a new shop, or for `liveShopId` keeping or changing its own. */
export const checkSlug = query({
  args: { slug: v.string(), liveShopId: v.optional(v.id("liveShops")) },
  returns: v.object({ available: v.boolean() }),
  handler: async (ctx, { slug, liveShopId }) => {
    const parsed = slugSchema.safeParse(slug);
    if (!parsed.success) return { available: false };
    const existing = await getLiveShopBySlug(ctx, parsed.data);
    return { available: existing === null || existing._id === liveShopId };
  },
});

/**
 * The shop form's link sets, saved with its fields in one mutation: absent, a new shop has none and an
 * existing one keeps its own (decision 060).
 */
const shopFormLinks = {
  categories: categoryLinksSchema.optional(),
  cbsaCodes: cbsaCodesSchema.optional(),
};

/**
 * Opens a draft shop owned by the caller, with its categories and metro areas. A viewer's first shop
 * makes them a seller (docs/product.md#roles), recorded in the activity log; a viewer who already owns
 * shops (an admin made them one) is refused.
 */
export const createLiveShop = zMutation({
  args: { shop: liveShopSchema, ...shopFormLinks },
  returns: v.id("liveShops"),
  handler: async (ctx, { shop, categories = [], cbsaCodes = [] }) => {
    await assertMayOpenAnotherShop(ctx, ctx.viewer._id);
    await limitRate(ctx, "newShop", ctx.viewer._id);
    await becomeSellerForNewShop(ctx, ctx.viewer, shop.liveShopName);
    const liveShopId = await insertLiveShop(ctx, { ...shopFormFields(shop), userId: ctx.viewer._id });
    const created = await getLiveShopOrThrow(ctx, liveShopId);
    await replaceShopCategories(ctx, created, categories);
    await replaceShopMsas(ctx, created, cbsaCodes);
    return liveShopId;
  },
});

/**
 * Saves the shop form, all or nothing (every field, blank ones cleared; the categories and metro areas
 * given): the owner, or an admin moderating.
 */
export const updateLiveShop = zMutation({
  args: { liveShopId: zid("liveShops"), shop: liveShopSchema, ...shopFormLinks },
  returns: v.null(),
  handler: async (ctx, { liveShopId, shop, categories, cbsaCodes }) => {
    const access = await getOwnedShopOrThrow(ctx, ctx.viewer, liveShopId, "ownerOrAdmin");
    await saveShopForm(ctx, access.shop, shop, { categories, cbsaCodes });
    await recordModeratorEdit(ctx, ctx.viewer, access);
    return null;
  },
});

/** The lifecycle's admin-only moves, as the activity log names them (an admin's own shop included). */
const ADMIN_SHOP_ACTIONS: Partial<
  Record<ShopAction, "approve_shop" | "reject_shop" | "suspend_shop" | "reinstate_shop">
> = {
  approve: "approve_shop",
  reject: "reject_shop",
  suspend: "suspend_shop",
  reinstate: "reinstate_shop",
};

/**
 * Moves the shop along its lifecycle: the owner submits, closes temporarily and reopens, closes and
 * reopens; an admin approves, rejects or suspends (with a reason) and reinstates, each recorded in
 * the activity log.
 */
export const setShopStatus = zMutation({
  args: { liveShopId: zid("liveShops"), status: shopStatusSchema, reason: statusReasonSchema },
  returns: v.null(),
  handler: async (ctx, { liveShopId, status, reason }) => {
    const { shop, actor } = await getOwnedShopOrThrow(ctx, ctx.viewer, liveShopId, "ownerOrAdmin");
    await changeShopStatus(ctx, shop, actor, status, reason);
    const rule = findShopRule(shop.status, status);
    const action = rule && ADMIN_SHOP_ACTIONS[rule.action];
    if (action) {
      await recordAdminAction(ctx, ctx.viewer, {
        action,
        targetTable: "liveShops",
        targetId: shop._id,
        targetLabel: shop.liveShopName,
        reason,
      });
    }
    return null;
  },
});

/** The next batch of a renamed or re-slugged shop's streams (model/liveShops.ts `copyShopNameToStreams`). */
export const continueShopNameCopy = internalMutation({
  args: { liveShopId: v.id("liveShops"), after: v.number() },
  returns: v.null(),
  handler: async (ctx, { liveShopId, after }) => {
    await copyShopNameToStreams(ctx, liveShopId, after);
    return null;
  },
});
