/**
 * The authorization matrix: every public function, called as each kind of caller, with what docs/product.md
 * "Roles" says each may do. `authorization.test.ts` checks the outcomes on convex-test; the embedded
 * backend's differential test (local-backend/differential.test.ts) runs the same calls on both engines
 * and compares what they return and store.
 */
import { api, internal } from "../_generated/api";
import type { Id } from "../_generated/dataModel";
import { recordAdminAction } from "../model/adminLog";
import { insertLiveShop } from "../model/liveShops";
import { insertStream } from "../model/streams";
import { insertWithTimestamps } from "../model/timestamps";
import { getUserByClerkId, insertUser } from "../model/users";
import type { newTest } from "../test.setup";

export const CALLERS = ["signedOut", "viewer", "otherSeller", "owner", "admin"] as const;
export type Caller = (typeof CALLERS)[number];

export type Fixture = { liveShopId: Id<"liveShops">; streamId: Id<"streams"> };
/** What a row needs of a backend: convex-test's accessor, or anything that behaves as one. */
export type Backend = Pick<
  ReturnType<typeof newTest>,
  "query" | "mutation" | "action" | "run" | "finishAllScheduledFunctions"
> & { withIdentity(identity: { subject: string; email: string; name: string }): Backend };
type Call = (t: Backend, fixture: Fixture) => Promise<unknown>;

/**
 * "allow": a mutation or action ran, a query returned something. A denied mutation or action throws a
 * code; a denied query degrades to an empty result.
 */
export type Outcome = "allow" | { throws: string } | "empty";

export type Row = { kind: "query" | "mutation" | "action"; call: Call; expect: Record<Caller, Outcome> };

const everyone = (outcome: Outcome): Record<Caller, Outcome> => ({
  signedOut: outcome,
  viewer: outcome,
  otherSeller: outcome,
  owner: outcome,
  admin: outcome,
});
const UNAUTHENTICATED = { throws: "UNAUTHENTICATED" };
const FORBIDDEN = { throws: "FORBIDDEN" };

// Shop and stream editing (liveShops.ts, streams.ts): data the rows below need beyond the fixture.
const OWNER_OR_ADMIN = {
  signedOut: UNAUTHENTICATED,
  viewer: FORBIDDEN,
  otherSeller: FORBIDDEN,
  owner: "allow",
  admin: "allow",
} as const;
const OWNER_ONLY = { ...OWNER_OR_ADMIN, admin: FORBIDDEN } as const;
const MANAGERS_SEE = {
  signedOut: "empty",
  viewer: "empty",
  otherSeller: "empty",
  owner: "allow",
  admin: "allow",
} as const;
const shopForm = (liveShopName: string, slug: string) => ({
  liveShopName,
  slug,
  description: "Vintage denim.",
  faqSection: [],
  timezone: "America/New_York" as const,
  languages: [],
  products: [],
  schemaType: "Organization" as const,
});
const streamForm = () => ({
  streamTitle: "Denim drop",
  streamImageUrls: [],
  streamStartUTC: Date.now() + 3 * 3_600_000,
  streamStopUTC: Date.now() + 4 * 3_600_000,
  timezone: "America/New_York" as const,
  products: [],
});
const addReferenceRows = (t: Backend) =>
  t.run(async (ctx) => {
    const now = Date.now();
    await insertWithTimestamps(ctx, "categories", { categoryId: "home_goods", label: "Home" }, now);
    await insertWithTimestamps(
      ctx,
      "msas",
      { cbsaCode: "12420", msaLabel: "Austin", states: ["TX"], coordinatesLat: 30, coordinatesLng: -97 },
      now,
    );
  });
const addStream = (t: Backend, liveShopId: Id<"liveShops">, streamStatus: "CREATED" | "ENDED") =>
  t.run(async (ctx) => await insertStream(ctx, { liveShopId, streamTitle: "Extra", streamStatus }));

const EXPLORE_FIRST_PAGE = {
  filter: { categories: [], subcategories: [], states: [], msas: [] },
  paginationOpts: { numItems: 10, cursor: null },
};
const rebuildListings = async (t: Backend) => {
  await t.mutation(internal.explore.rebuildListings, {});
  await t.finishAllScheduledFunctions(() => undefined);
};
/** A go-live alert about the fixture's stream for the caller (Vera's when signed out). */
export const addAlertForCaller = async (
  t: Pick<Backend, "query" | "run">,
  { liveShopId, streamId }: Fixture,
) => {
  const caller = await t.query(api.users.viewer, {});
  return await t.run(async (ctx) => {
    const userId = caller?._id ?? (await getUserByClerkId(ctx, "user_vera"))!._id;
    return await insertWithTimestamps(ctx, "goLiveAlerts", { userId, streamId, liveShopId, reason: "saved" });
  });
};
/** The owner's (Sarah's) open correction request. */
const askForCorrection = async (t: Pick<Backend, "withIdentity">) =>
  await t
    .withIdentity(IDENTITIES.owner)
    .mutation(api.privacy.requestPrivacy, { type: "correction", details: "My surname and my shop." });
const SIGNED_IN_SEE = { ...everyone("allow"), signedOut: "empty" } as const;
const SIGNED_IN_MAY = { ...everyone("allow"), signedOut: UNAUTHENTICATED } as const;

export const MATRIX: Record<string, Row> = {
  "liveShops:listMyShops": {
    kind: "query",
    call: (t) => t.query(api.liveShops.listMyShops, {}),
    expect: { signedOut: "empty", viewer: "empty", otherSeller: "allow", owner: "allow", admin: "empty" },
  },
  "liveShops:getMyShop": {
    kind: "query",
    call: (t, { liveShopId }) => t.query(api.liveShops.getMyShop, { liveShopId }),
    expect: MANAGERS_SEE,
  },
  // Public pages: the fixture's shop is active and its stream scheduled, so everyone sees both.
  "liveShops:getPublicShop": {
    kind: "query",
    call: (t) => t.query(api.liveShops.getPublicShop, { idOrSlug: "sarahs-vintage" }),
    expect: everyone("allow"),
  },
  "streams:getPublicStream": {
    kind: "query",
    call: (t, { streamId }) => t.query(api.streams.getPublicStream, { streamId }),
    expect: everyone("allow"),
  },
  "liveShops:checkSlug": {
    kind: "query",
    call: (t) => t.query(api.liveShops.checkSlug, { slug: "sarahs-vintage" }),
    expect: everyone("allow"),
  },
  "liveShops:createLiveShop": {
    kind: "mutation",
    call: (t) => t.mutation(api.liveShops.createLiveShop, { shop: shopForm("New", "new-shop") }),
    expect: { ...everyone("allow"), signedOut: UNAUTHENTICATED },
  },
  "liveShops:updateLiveShop": {
    kind: "mutation",
    call: async (t, { liveShopId }) => {
      await addReferenceRows(t);
      return await t.mutation(api.liveShops.updateLiveShop, {
        liveShopId,
        shop: shopForm("Sarah's Denim", "sarahs-vintage"),
        categories: [{ categoryId: "home_goods", priority: 0 }],
        cbsaCodes: ["12420"],
      });
    },
    expect: OWNER_OR_ADMIN,
  },
  "liveShops:setShopStatus": {
    kind: "mutation",
    // Closing temporarily is the owner's; an admin moderates with suspend (liveShops.test.ts).
    call: (t, { liveShopId }) =>
      t.mutation(api.liveShops.setShopStatus, { liveShopId, status: "maintenance" }),
    expect: OWNER_ONLY,
  },
  "streams:getMyStream": {
    kind: "query",
    call: (t, { streamId }) => t.query(api.streams.getMyStream, { streamId }),
    expect: MANAGERS_SEE,
  },
  "streams:createStream": {
    kind: "mutation",
    call: (t, { liveShopId }) => t.mutation(api.streams.createStream, { liveShopId, stream: streamForm() }),
    expect: OWNER_ONLY,
  },
  "streams:updateStream": {
    kind: "mutation",
    call: async (t, { streamId }) => {
      await addReferenceRows(t);
      return await t.mutation(api.streams.updateStream, {
        streamId,
        stream: streamForm(),
        categories: [{ categoryId: "home_goods", priority: 0 }],
        cbsaCodes: ["12420"],
        platforms: [{ platformType: "whatnot", platformStreamUrl: "https://www.whatnot.com/live/sarah" }],
      });
    },
    expect: OWNER_OR_ADMIN,
  },
  "streams:setReplayUrl": {
    kind: "mutation",
    call: async (t, { liveShopId }) => {
      const streamId = await addStream(t, liveShopId, "ENDED");
      return await t.mutation(api.streams.setReplayUrl, {
        streamId,
        replayVideoUrl: "https://example.com/r",
      });
    },
    expect: OWNER_OR_ADMIN,
  },
  "streams:duplicateStream": {
    kind: "mutation",
    call: (t, { streamId }) => t.mutation(api.streams.duplicateStream, { streamId }),
    expect: OWNER_ONLY,
  },
  "streams:deleteStream": {
    kind: "mutation",
    call: async (t, { liveShopId }) => {
      const streamId = await addStream(t, liveShopId, "CREATED");
      return await t.mutation(api.streams.deleteStream, { streamId });
    },
    expect: OWNER_OR_ADMIN,
  },
  // Settings (settings.ts): each caller changes only their own row.
  "settings:mySettings": {
    kind: "query",
    call: (t) => t.query(api.settings.mySettings, {}),
    expect: { ...everyone("allow"), signedOut: "empty" },
  },
  "settings:setAvatar": {
    kind: "mutation",
    call: (t) => t.mutation(api.settings.setAvatar, { avatar: "https://example.com/me.png" }),
    expect: { ...everyone("allow"), signedOut: UNAUTHENTICATED },
  },
  "settings:setNotificationPreferences": {
    kind: "mutation",
    call: (t) => t.mutation(api.settings.setNotificationPreferences, { preferences: { emailDigest: true } }),
    expect: { ...everyone("allow"), signedOut: UNAUTHENTICATED },
  },
  "settings:setPrivacyPreferences": {
    kind: "mutation",
    call: (t) => t.mutation(api.settings.setPrivacyPreferences, { preferences: { analytics: true } }),
    expect: { ...everyone("allow"), signedOut: UNAUTHENTICATED },
  },
  "settings:acceptTerms": {
    kind: "mutation",
    call: (t) => t.mutation(api.settings.acceptTerms, { version: "1.0" }),
    expect: { ...everyone("allow"), signedOut: UNAUTHENTICATED },
  },
  "settings:addPaymentMethod": {
    kind: "mutation",
    call: (t) =>
      t.mutation(api.settings.addPaymentMethod, {
        card: { brand: "visa", last4: "4242", expMonth: 12, expYear: new Date().getUTCFullYear() + 2 },
      }),
    expect: { ...everyone("allow"), signedOut: UNAUTHENTICATED },
  },
  "settings:removePaymentMethod": {
    kind: "mutation",
    call: async (t) => {
      const card = { brand: "visa", last4: "4242", expMonth: 12, expYear: new Date().getUTCFullYear() + 2 };
      const paymentMethodId = await t.mutation(api.settings.addPaymentMethod, { card });
      return await t.mutation(api.settings.removePaymentMethod, { paymentMethodId });
    },
    expect: { ...everyone("allow"), signedOut: UNAUTHENTICATED },
  },
  "settings:setDefaultPaymentMethod": {
    kind: "mutation",
    call: async (t) => {
      const card = { brand: "visa", last4: "4242", expMonth: 12, expYear: new Date().getUTCFullYear() + 2 };
      const paymentMethodId = await t.mutation(api.settings.addPaymentMethod, { card });
      return await t.mutation(api.settings.setDefaultPaymentMethod, { paymentMethodId });
    },
    expect: { ...everyone("allow"), signedOut: UNAUTHENTICATED },
  },
  "users:viewer": {
    kind: "query",
    call: (t) => t.query(api.users.viewer, {}),
    expect: { ...everyone("allow"), signedOut: "empty" },
  },
  "users:ensureUser": {
    kind: "mutation",
    call: (t) => t.mutation(api.users.ensureUser, {}),
    expect: { ...everyone("allow"), signedOut: UNAUTHENTICATED },
  },
  // With a live account it is that account (privacy.test.ts: after a deletion, only when chosen).
  "users:startNewAccount": {
    kind: "mutation",
    call: (t) => t.mutation(api.users.startNewAccount, {}),
    expect: { ...everyone("allow"), signedOut: UNAUTHENTICATED },
  },
  "users:listUsers": {
    kind: "query",
    call: (t) => t.query(api.users.listUsers, { paginationOpts: { numItems: 10, cursor: null } }),
    expect: { ...everyone("empty"), admin: "allow" },
  },
  "users:setUserRole": {
    kind: "mutation",
    call: async (t) => {
      const vera = await t.run(async (ctx) => await getUserByClerkId(ctx, "user_vera"));
      return await t.mutation(api.users.setUserRole, { userId: vera!._id, role: "seller" });
    },
    expect: {
      signedOut: UNAUTHENTICATED,
      viewer: FORBIDDEN,
      otherSeller: FORBIDDEN,
      owner: FORBIDDEN,
      admin: "allow",
    },
  },
  // Privacy requests (privacy.ts): Vera (the viewer) or Sarah (the owner) asks; Ada (the admin) decides.
  "privacy:myPrivacy": {
    kind: "query",
    call: (t) => t.query(api.privacy.myPrivacy, {}),
    expect: { ...everyone("allow"), signedOut: "empty" },
  },
  "privacy:requestPrivacy": {
    kind: "mutation",
    call: (t) => t.mutation(api.privacy.requestPrivacy, { type: "access", reason: "Curious." }),
    expect: { ...everyone("allow"), signedOut: UNAUTHENTICATED },
  },
  "privacy:cancelPrivacyRequest": {
    kind: "mutation",
    call: async (t) => {
      const requestId = await t
        .withIdentity(IDENTITIES.owner)
        .mutation(api.privacy.requestPrivacy, { type: "restriction" });
      return await t.mutation(api.privacy.cancelPrivacyRequest, { requestId });
    },
    expect: OWNER_ONLY,
  },
  "privacy:decidePrivacyRequest": {
    kind: "mutation",
    call: async (t) => {
      const requestId = await t
        .withIdentity(IDENTITIES.viewer)
        .mutation(api.privacy.requestPrivacy, { type: "correction", details: "My name." });
      return await t.mutation(api.privacy.decidePrivacyRequest, {
        requestId,
        decision: "reject",
        reason: "Your name is already right.",
      });
    },
    expect: { ...everyone(FORBIDDEN), signedOut: UNAUTHENTICATED, admin: "allow" },
  },
  // Corrections: the owner (Sarah) asks; only an admin corrects her data, even Sarah herself may not.
  "privacy:getCorrection": {
    kind: "query",
    call: async (t) => {
      const requestId = await askForCorrection(t);
      return await t.query(api.privacy.getCorrection, { requestId });
    },
    expect: { ...everyone("empty"), admin: "allow" },
  },
  "privacy:correctProfile": {
    kind: "mutation",
    call: async (t) => {
      const requestId = await askForCorrection(t);
      return await t.mutation(api.privacy.correctProfile, {
        requestId,
        profile: { name: "Sarah Okafor", avatar: "" },
      });
    },
    expect: { ...everyone(FORBIDDEN), signedOut: UNAUTHENTICATED, admin: "allow" },
  },
  "privacy:correctShopText": {
    kind: "mutation",
    call: async (t, { liveShopId }) => {
      const requestId = await askForCorrection(t);
      return await t.mutation(api.privacy.correctShopText, {
        requestId,
        liveShopId,
        shop: { liveShopName: "Sarah's Vintage", headline: "Corrected headline" },
      });
    },
    expect: { ...everyone(FORBIDDEN), signedOut: UNAUTHENTICATED, admin: "allow" },
  },
  "privacy:correctStreamText": {
    kind: "mutation",
    call: async (t, { streamId }) => {
      const requestId = await askForCorrection(t);
      return await t.mutation(api.privacy.correctStreamText, {
        requestId,
        streamId,
        stream: { streamTitle: "Corrected title" },
      });
    },
    expect: { ...everyone(FORBIDDEN), signedOut: UNAUTHENTICATED, admin: "allow" },
  },
  "privacy:searchRequests": {
    kind: "query",
    call: async (t) => {
      await t.withIdentity(IDENTITIES.viewer).mutation(api.privacy.requestPrivacy, { type: "access" });
      return await t.query(api.privacy.searchRequests, { email: "vera" });
    },
    expect: { ...everyone("empty"), admin: "allow" },
  },
  "privacy:approveExports": {
    kind: "mutation",
    call: async (t) => {
      const requestId = await t
        .withIdentity(IDENTITIES.viewer)
        .mutation(api.privacy.requestPrivacy, { type: "access" });
      return await t.mutation(api.privacy.approveExports, { requestIds: [requestId] });
    },
    expect: { ...everyone(FORBIDDEN), signedOut: UNAUTHENTICATED, admin: "allow" },
  },
  "admin:searchShops": {
    kind: "query",
    call: (t) => t.query(api.admin.searchShops, { text: "vintage" }),
    expect: { ...everyone("empty"), admin: "allow" },
  },
  "admin:approveShops": {
    kind: "mutation",
    call: (t, { liveShopId }) => t.mutation(api.admin.approveShops, { liveShopIds: [liveShopId] }),
    expect: { ...everyone(FORBIDDEN), signedOut: UNAUTHENTICATED, admin: "allow" },
  },
  // A file the caller uploaded, for the owner's shop: its owner or an admin may claim it. The file is no
  // picture, so the claim answers the same refusal on every engine (images.test.ts covers the checks, a
  // real claim, and that nobody claims another's upload; uploads themselves go through convex/http.ts).
  "images:claimUpload": {
    kind: "mutation",
    call: async (t, { liveShopId }) => {
      const caller = await t.query(api.users.viewer, {});
      const storageId = await t.run(async (ctx) => {
        const uploaderId = caller?._id ?? (await getUserByClerkId(ctx, "user_vera"))!._id;
        const id = await ctx.storage.store(new Blob(["not a picture"]));
        await insertWithTimestamps(ctx, "unclaimedUploads", {
          storageId: id,
          uploaderId,
          contentType: "text/plain",
        });
        return id;
      });
      return await t.mutation(api.images.claimUpload, { storageId, target: { kind: "shop", liveShopId } });
    },
    expect: OWNER_OR_ADMIN,
  },
  "privacy:listOpenRequests": {
    kind: "query",
    call: async (t) => {
      await t.withIdentity(IDENTITIES.viewer).mutation(api.privacy.requestPrivacy, { type: "access" });
      return await t.query(api.privacy.listOpenRequests, {});
    },
    expect: { ...everyone("empty"), admin: "allow" },
  },
  "privacy:listDecidedRequests": {
    kind: "query",
    call: async (t) => {
      const requestId = await t
        .withIdentity(IDENTITIES.viewer)
        .mutation(api.privacy.requestPrivacy, { type: "restriction" });
      await t
        .withIdentity(IDENTITIES.admin)
        .mutation(api.privacy.decidePrivacyRequest, { requestId, decision: "reject", reason: "No shops." });
      return await t.query(api.privacy.listDecidedRequests, {
        paginationOpts: { numItems: 10, cursor: null },
      });
    },
    expect: { ...everyone("empty"), admin: "allow" },
  },
  "privacy:listRestrictedUsers": {
    kind: "query",
    call: async (t) => {
      await t.run(async (ctx) => {
        const vera = await getUserByClerkId(ctx, "user_vera");
        await ctx.db.patch("users", vera!._id, { restrictedAt: Date.now() });
      });
      return await t.query(api.privacy.listRestrictedUsers, {});
    },
    expect: { ...everyone("empty"), admin: "allow" },
  },
  "privacy:liftRestriction": {
    kind: "mutation",
    call: async (t) => {
      const veraId = await t.run(async (ctx) => {
        const vera = await getUserByClerkId(ctx, "user_vera");
        await ctx.db.patch("users", vera!._id, { restrictedAt: Date.now() });
        return vera!._id;
      });
      return await t.mutation(api.privacy.liftRestriction, { userId: veraId, reason: "Resolved." });
    },
    expect: { ...everyone(FORBIDDEN), signedOut: UNAUTHENTICATED, admin: "allow" },
  },
  "streams:listLiveNow": {
    kind: "query",
    call: (t) => t.query(api.streams.listLiveNow, {}),
    expect: everyone("allow"),
  },
  "liveMap:listAreas": {
    kind: "query",
    // The viewer's day as the fixture's clock has it, in UTC.
    call: (t) =>
      t.query(api.liveMap.listAreas, { day: new Date().toISOString().slice(0, 10), timeZone: "UTC" }),
    // Public: answered for everyone, never refused; the fixture's shows name no metro area, so no area.
    expect: everyone("empty"),
  },
  "streams:listStartingSoon": {
    kind: "query",
    call: (t) => t.query(api.streams.listStartingSoon, { since: Date.now() }),
    expect: everyone("allow"),
  },
  "liveShops:listFeaturedShops": {
    kind: "query",
    call: (t) => t.query(api.liveShops.listFeaturedShops, {}),
    expect: everyone("allow"),
  },
  // Public lists: everyone sees the same page. The fixture writes without the triggers, so the
  // listing rows are derived first.
  // The admin console's reads (admin.ts): admins only; anyone else gets null or an empty page.
  "admin:getOverview": {
    kind: "query",
    call: (t) => t.query(api.admin.getOverview, { now: Date.now() }),
    expect: { ...everyone("empty"), admin: "allow" },
  },
  "admin:listVerificationQueue": {
    kind: "query",
    call: async (t, { liveShopId }) => {
      await t.run(
        async (ctx) => await ctx.db.patch("liveShops", liveShopId, { status: "pending_verification" }),
      );
      return await t.query(api.admin.listVerificationQueue, {
        paginationOpts: { numItems: 10, cursor: null },
      });
    },
    expect: { ...everyone("empty"), admin: "allow" },
  },
  "admin:listShops": {
    kind: "query",
    call: (t) => t.query(api.admin.listShops, { paginationOpts: { numItems: 10, cursor: null } }),
    expect: { ...everyone("empty"), admin: "allow" },
  },
  "admin:listStreams": {
    kind: "query",
    call: (t) =>
      t.query(api.admin.listStreams, { status: "LIVE", paginationOpts: { numItems: 10, cursor: null } }),
    expect: { ...everyone("empty"), admin: "allow" },
  },
  "admin:listActivity": {
    kind: "query",
    call: async (t, { liveShopId }) => {
      await t.run(async (ctx) => {
        const ada = await getUserByClerkId(ctx, "user_ada");
        await recordAdminAction(ctx, ada!, {
          action: "suspend_shop",
          targetTable: "liveShops",
          targetId: liveShopId,
          targetLabel: "Sarah's Vintage",
          reason: "Counterfeit goods reported.",
        });
      });
      return await t.query(api.admin.listActivity, { paginationOpts: { numItems: 10, cursor: null } });
    },
    expect: { ...everyone("empty"), admin: "allow" },
  },
  "admin:listUserShops": {
    kind: "query",
    call: async (t) => {
      const sarah = await t.run(async (ctx) => await getUserByClerkId(ctx, "user_sarah"));
      return await t.query(api.admin.listUserShops, { userId: sarah!._id });
    },
    expect: { ...everyone("empty"), admin: "allow" },
  },
  "explore:listExploreStreams": {
    kind: "query",
    call: async (t) => {
      await rebuildListings(t);
      return (await t.query(api.explore.listExploreStreams, EXPLORE_FIRST_PAGE)).page;
    },
    expect: everyone("allow"),
  },
  "explore:listExploreShops": {
    kind: "query",
    call: async (t) => {
      await rebuildListings(t);
      return (await t.query(api.explore.listExploreShops, EXPLORE_FIRST_PAGE)).page;
    },
    expect: everyone("allow"),
  },
  "explore:countExploreStreams": {
    kind: "query",
    call: async (t) => {
      await rebuildListings(t);
      const { count } = await t.query(api.explore.countExploreStreams, { filter: EXPLORE_FIRST_PAGE.filter });
      return count > 0 ? [count] : [];
    },
    expect: everyone("allow"),
  },
  "explore:countExploreShops": {
    kind: "query",
    call: async (t) => {
      await rebuildListings(t);
      const { count } = await t.query(api.explore.countExploreShops, { filter: EXPLORE_FIRST_PAGE.filter });
      return count > 0 ? [count] : [];
    },
    expect: everyone("allow"),
  },
  "explore:searchExploreStreams": {
    kind: "query",
    call: async (t) => {
      await rebuildListings(t);
      const filter = { ...EXPLORE_FIRST_PAGE.filter, q: "denim" };
      return (await t.query(api.explore.searchExploreStreams, { filter })).results;
    },
    expect: everyone("allow"),
  },
  "explore:searchExploreShops": {
    kind: "query",
    call: async (t) => {
      await rebuildListings(t);
      const filter = { ...EXPLORE_FIRST_PAGE.filter, q: "omar" };
      return (await t.query(api.explore.searchExploreShops, { filter })).results;
    },
    expect: everyone("allow"),
  },
  "streams:listMyStreams": {
    kind: "query",
    call: (t) => t.query(api.streams.listMyStreams, {}),
    expect: { signedOut: "empty", viewer: "empty", otherSeller: "allow", owner: "allow", admin: "empty" },
  },
  "streams:setStreamStatus": {
    kind: "mutation",
    call: (t, { streamId }) =>
      t.mutation(api.streams.setStreamStatus, { streamId, status: "CANCELLED", reason: "Broke the rules." }),
    expect: {
      signedOut: UNAUTHENTICATED,
      viewer: FORBIDDEN,
      otherSeller: FORBIDDEN,
      owner: "allow",
      admin: "allow",
    },
  },
  // Seller insights (decision 089): anyone's visit counts (or quietly does not); owners and admins read.
  "insights:record": {
    kind: "mutation",
    call: (t, { streamId }) =>
      t.mutation(api.insights.record, { streamId, metric: "view", visitor: "matrix-visitor-token" }),
    expect: everyone("allow"),
  },
  "insights:forShop": {
    kind: "query",
    call: (t, { liveShopId }) => t.query(api.insights.forShop, { liveShopId }),
    expect: MANAGERS_SEE,
  },
  // The watch list, go-live alerts and calendar feed (issue 8): every signed-in person, for themselves.
  "watchList:mySaved": {
    kind: "query",
    call: (t) => t.query(api.watchList.mySaved, {}),
    expect: SIGNED_IN_SEE,
  },
  "watchList:myWatchList": {
    kind: "query",
    call: (t) => t.query(api.watchList.myWatchList, {}),
    expect: SIGNED_IN_SEE,
  },
  "watchList:setStreamSaved": {
    kind: "mutation",
    call: (t, { streamId }) => t.mutation(api.watchList.setStreamSaved, { streamId, saved: true }),
    expect: SIGNED_IN_MAY,
  },
  "watchList:setShopFollowed": {
    kind: "mutation",
    call: (t, { liveShopId }) => t.mutation(api.watchList.setShopFollowed, { liveShopId, followed: true }),
    expect: SIGNED_IN_MAY,
  },
  "goLiveAlerts:myPendingAlerts": {
    kind: "query",
    call: async (t, fixture) => {
      await addAlertForCaller(t, fixture);
      return await t.query(api.goLiveAlerts.myPendingAlerts, {});
    },
    expect: SIGNED_IN_SEE,
  },
  // Claiming someone else's alert is refused (goLiveAlerts.test.ts).
  "goLiveAlerts:claim": {
    kind: "mutation",
    call: async (t, fixture) => {
      const alertId = await addAlertForCaller(t, fixture);
      return await t.mutation(api.goLiveAlerts.claim, { alertId });
    },
    expect: SIGNED_IN_MAY,
  },
  "calendarFeed:myFeed": {
    kind: "query",
    call: (t) => t.query(api.calendarFeed.myFeed, {}),
    expect: SIGNED_IN_SEE,
  },
  "calendarFeed:turnOn": {
    kind: "action",
    call: (t) => t.action(api.calendarFeed.turnOn, { appOrigin: "https://app.test" }),
    expect: SIGNED_IN_MAY,
  },
  "calendarFeed:turnOff": {
    kind: "mutation",
    call: (t) => t.mutation(api.calendarFeed.turnOff, {}),
    expect: SIGNED_IN_MAY,
  },
  "notifications:myChannels": {
    kind: "query",
    call: (t) => t.query(api.notifications.myChannels, {}),
    expect: SIGNED_IN_SEE,
  },
  "notifications:setChannel": {
    kind: "mutation",
    call: (t) => t.mutation(api.notifications.setChannel, { kind: "goLive", channel: "email", on: true }),
    expect: SIGNED_IN_MAY,
  },
  // Only the caller's own in-app notices; none exist in the fixture.
  "notifications:myNotices": {
    kind: "query",
    call: (t) => t.query(api.notifications.myNotices, {}),
    expect: everyone("empty"),
  },
  "weeklyDigest:myDigest": {
    kind: "query",
    call: (t) => t.query(api.weeklyDigest.myDigest, {}),
    expect: SIGNED_IN_SEE,
  },
  "weeklyDigest:setDigestAreas": {
    kind: "mutation",
    call: (t) => t.mutation(api.weeklyDigest.setDigestAreas, { cbsaCodes: ["12420"] }),
    expect: SIGNED_IN_MAY,
  },
  // Null without VAPID keys (the test deployment has none); the same for everyone.
  "push:publicKey": {
    kind: "query",
    call: (t) => t.query(api.push.publicKey, {}),
    expect: everyone("empty"),
  },
  "push:myDevices": {
    kind: "query",
    call: async (t) => {
      await t.mutation(api.push.registerDevice, TEST_DEVICE).catch(() => undefined);
      return await t.query(api.push.myDevices, {});
    },
    expect: SIGNED_IN_SEE,
  },
  "push:registerDevice": {
    kind: "mutation",
    call: (t) => t.mutation(api.push.registerDevice, TEST_DEVICE),
    expect: SIGNED_IN_MAY,
  },
  "push:removeDevice": {
    kind: "mutation",
    call: async (t) => {
      const deviceId = await t.mutation(api.push.registerDevice, TEST_DEVICE);
      return await t.mutation(api.push.removeDevice, { deviceId });
    },
    expect: SIGNED_IN_MAY,
  },
  // Null anywhere but the local backend without RESEND_API_KEY (convex-test is neither).
  "localInbox:list": {
    kind: "query",
    call: (t) => t.query(api.localInbox.list, {}),
    expect: everyone("empty"),
  },
};

/** A browser's push subscription, as `pushManager.subscribe` gives one. */
const TEST_DEVICE = {
  endpoint: "https://push.example/abc",
  p256dh: "BPublicKeyOfTheBrowser",
  auth: "authSecret16b",
  label: "Test browser",
};

export const IDENTITIES: Record<
  Exclude<Caller, "signedOut">,
  { subject: string; email: string; name: string }
> = {
  viewer: { subject: "user_vera", email: "vera@livelocal.test", name: "Vera Viewer" },
  otherSeller: { subject: "user_omar", email: "omar@livelocal.test", name: "Omar Other" },
  owner: { subject: "user_sarah", email: "sarah@livelocal.test", name: "Sarah Owner" },
  admin: { subject: "user_ada", email: "ada@livelocal.test", name: "Ada Admin" },
};

/** The people of the matrix, Sarah's shop with a scheduled and a live stream, and Omar's shop. */
export async function setUp<T extends Backend>(t: T): Promise<{ t: T; fixture: Fixture }> {
  const fixture = await t.run(async (ctx) => {
    const ids = {} as Record<keyof typeof IDENTITIES, Id<"users">>;
    for (const [caller, identity] of Object.entries(IDENTITIES) as [
      keyof typeof IDENTITIES,
      typeof IDENTITIES.owner,
    ][]) {
      const role = caller === "admin" ? "admin" : caller === "viewer" ? "viewer" : "seller";
      ids[caller] = await insertUser(ctx, {
        clerkId: identity.subject,
        email: identity.email,
        name: identity.name,
        role,
      });
    }
    await insertLiveShop(ctx, {
      userId: ids.otherSeller,
      liveShopName: "Omar's",
      slug: "omars",
      status: "active",
    });
    const liveShopId = await insertLiveShop(ctx, {
      userId: ids.owner,
      liveShopName: "Sarah's Vintage",
      slug: "sarahs-vintage",
      status: "active",
    });
    const streamId = await insertStream(ctx, {
      liveShopId,
      streamTitle: "Denim drop",
      streamStatus: "SCHEDULED",
      streamStartUTC: Date.now() + 3_600_000,
      streamStopUTC: Date.now() + 7_200_000,
    });
    await insertStream(ctx, {
      liveShopId,
      streamTitle: "Live now",
      streamStatus: "LIVE",
      streamStartUTC: Date.now(),
    });
    return { liveShopId, streamId };
  });
  return { t, fixture };
}

export function isEmpty(result: unknown): boolean {
  // A paginated query degrades to an empty page.
  if (typeof result === "object" && result !== null && "page" in result && Array.isArray(result.page))
    return result.page.length === 0;
  return result === null || (Array.isArray(result) && result.length === 0);
}
