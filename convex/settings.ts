/**
 * /dashboard/settings: the caller's own profile picture, preferences, terms acceptance and
 * display-only card references. Every function works on the caller's row (`ctx.viewer`); none takes a
 * user id.
 */
import { v } from "convex/values";
import { z } from "zod";
import { internal } from "./_generated/api";
import { internalMutation, query, zMutation } from "./functions";
import {
  avatarSettingSchema,
  newPaymentMethodSchema,
  notificationPreferencesPatchSchema,
  paymentMethodIdSchema,
  privacyPreferencesPatchSchema,
  termsVersionSchema,
} from "./lib/validation";
import {
  acceptTerms as acceptTermsFor,
  addPaymentMethod as addPaymentMethodFor,
  removePaymentMethod as removePaymentMethodFor,
  setAvatar as setAvatarFor,
  setDefaultPaymentMethod as setDefaultPaymentMethodFor,
  toSettingsView,
  updateNotificationPreferences,
  updatePrivacyPreferences,
} from "./model/settings";
import {
  notificationPreferencesValidator,
  paymentMethodValidator,
  privacyPreferencesValidator,
  termsAcceptanceValidator,
} from "./schema";

const settingsValidator = v.object({
  notificationPreferences: notificationPreferencesValidator,
  privacyPreferences: privacyPreferencesValidator,
  termsAcceptance: termsAcceptanceValidator,
  paymentMethods: v.array(paymentMethodValidator),
  defaultPaymentMethodId: v.optional(v.string()),
});

/** The caller's settings; null when signed out (or before the user row exists). */
export const mySettings = query({
  args: {},
  returns: v.union(settingsValidator, v.null()),
  handler: (ctx) => (ctx.viewer ? toSettingsView(ctx.viewer) : null),
});

/**
 * Sets the profile picture to an http(s) link, or removes it when `avatar` is blank or absent. With
 * Clerk, a later change to the picture at Clerk replaces this one (the webhook follows Clerk).
 */
export const setAvatar = zMutation({
  args: { avatar: avatarSettingSchema },
  returns: v.null(),
  handler: async (ctx, { avatar }) => {
    await setAvatarFor(ctx, ctx.viewer, avatar);
    return null;
  },
});

/** Changes the named notification switches; the others keep their values. */
export const setNotificationPreferences = zMutation({
  args: { preferences: notificationPreferencesPatchSchema },
  returns: v.null(),
  handler: async (ctx, { preferences }) => {
    await updateNotificationPreferences(ctx, ctx.viewer, preferences);
    return null;
  },
});

/** Changes the named privacy switches; the others keep their values. */
export const setPrivacyPreferences = zMutation({
  args: { preferences: privacyPreferencesPatchSchema },
  returns: v.null(),
  handler: async (ctx, { preferences }) => {
    await updatePrivacyPreferences(ctx, ctx.viewer, preferences);
    return null;
  },
});

/** Accepts the current terms (TERMS_VERSION) now; any other version is refused. */
export const acceptTerms = zMutation({
  args: { version: termsVersionSchema },
  returns: v.null(),
  handler: async (ctx, { version }) => {
    await acceptTermsFor(ctx, ctx.viewer, version);
    return null;
  },
});

/** Saves a display-only card reference (brand, last 4 digits, expiry); returns its id. */
export const addPaymentMethod = zMutation({
  args: { card: newPaymentMethodSchema, makeDefault: z.boolean().optional() },
  returns: v.string(),
  handler: async (ctx, { card, makeDefault }) =>
    await addPaymentMethodFor(ctx, ctx.viewer, card, makeDefault ?? false),
});

/** Removes one of the caller's saved cards; a removed default passes to the next card. */
export const removePaymentMethod = zMutation({
  args: { paymentMethodId: paymentMethodIdSchema },
  returns: v.null(),
  handler: async (ctx, { paymentMethodId }) => {
    await removePaymentMethodFor(ctx, ctx.viewer, paymentMethodId);
    return null;
  },
});

/** Makes one of the caller's saved cards the default. */
export const setDefaultPaymentMethod = zMutation({
  args: { paymentMethodId: paymentMethodIdSchema },
  returns: v.null(),
  handler: async (ctx, { paymentMethodId }) => {
    await setDefaultPaymentMethodFor(ctx, ctx.viewer, paymentMethodId);
    return null;
  },
});

/** Accounts read per run by `turnOffShowProfile`. */
const ACCOUNTS_PER_RUN = 100;

/**
 * Once, on a deployment with accounts from before decision 026: "Show my profile on my shops" started
 * on and did nothing, so nobody chose it; now that it shows their name on their shops' pages, it is
 * turned off for every account, a batch at a time, until they turn it on in settings. Run it right
 * after deploying: `npx convex run settings:turnOffShowProfile`.
 */
export const turnOffShowProfile = internalMutation({
  args: { cursor: v.optional(v.union(v.string(), v.null())) },
  returns: v.null(),
  handler: async (ctx, { cursor }) => {
    const page = await ctx.db.query("users").paginate({ numItems: ACCOUNTS_PER_RUN, cursor: cursor ?? null });
    for (const user of page.page) {
      if (user.privacyPreferences.showProfile) {
        await updatePrivacyPreferences(ctx, user, { showProfile: false });
      }
    }
    if (!page.isDone) {
      await ctx.scheduler.runAfter(0, internal.settings.turnOffShowProfile, { cursor: page.continueCursor });
    }
    return null;
  },
});
