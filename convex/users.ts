import { paginationOptsValidator, paginationResultValidator } from "convex/server";
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { adminMutation, identityMutation, internalMutation, query } from "./functions";
import { roleValidator } from "./schema";
import { appError } from "./model/errors";
import { changeUserRole, getUserByEmail, paginateUsers, rememberTimeZone, signInUser } from "./model/users";
import { EMPTY_PAGE } from "./model/pages";
import { syncShopsWithOwner as syncShopsOf } from "./model/restriction";

const viewerValidator = v.object({
  _id: v.id("users"),
  name: v.optional(v.string()),
  email: v.string(),
  role: roleValidator,
  avatar: v.optional(v.string()),
  /** Since when their processing is restricted (GDPR article 18): their shops are hidden meanwhile. */
  restrictedAt: v.optional(v.number()),
});

/** The signed-in caller's profile, or null when signed out or before `ensureUser` has run. */
export const viewer = query({
  args: {},
  returns: v.union(viewerValidator, v.null()),
  handler: (ctx) => {
    if (!ctx.viewer) return null;
    const { _id, name, email, role, avatar, restrictedAt } = ctx.viewer;
    return { _id, name, email, role, avatar, restrictedAt };
  },
});

/**
 * Creates or refreshes the caller's user row from their sign-in token; run on every sign-in. Safe to
 * repeat. The role is never changed here: new users are viewers, or admins when listed in ADMIN_EMAILS.
 * The sign-in of a deleted account is refused (ACCOUNT_DELETED, decisions 009 and 027): it never comes
 * back by itself. The token's claims are held to the specification's limits first: a long name is cut,
 * an unusable email or picture is ignored (decision 023); a new account still needs a usable email.
 * `timeZone` is the browser's IANA zone, kept for the weekly digest (ignored when it is not a zone).
 */
export const ensureUser = identityMutation({
  args: { timeZone: v.optional(v.string()) },
  returns: v.id("users"),
  handler: async (ctx, { timeZone }) => {
    const userId = await signInUser(ctx, ctx.identity);
    await rememberTimeZone(ctx, userId, timeZone);
    return userId;
  },
});

/**
 * The caller's explicit choice after their account was deleted while their sign-in lives on (local
 * development sign-in, or Clerk without the secret key): a new, empty account with the same sign-in.
 * Refused (ACCOUNT_DELETED) when Clerk deleted the user; with a live account, it is that account's id.
 */
export const startNewAccount = identityMutation({
  args: {},
  returns: v.id("users"),
  handler: async (ctx) => await signInUser(ctx, ctx.identity, { startOver: true }),
});

const userSummaryValidator = v.object({
  _id: v.id("users"),
  email: v.string(),
  name: v.optional(v.string()),
  role: roleValidator,
  createdAt: v.number(),
});

/**
 * Admins: users ordered by email, optionally of one role and with emails starting with `emailPrefix`.
 * Anyone else gets an empty page.
 */
export const listUsers = query({
  args: {
    paginationOpts: paginationOptsValidator,
    role: v.optional(roleValidator),
    emailPrefix: v.optional(v.string()),
  },
  returns: paginationResultValidator(userSummaryValidator),
  handler: async (ctx, { paginationOpts, role, emailPrefix }) => {
    if (ctx.viewer?.role !== "admin") return EMPTY_PAGE;
    const result = await paginateUsers(ctx, { role, emailPrefix }, paginationOpts);
    return {
      ...result,
      page: result.page.map(({ _id, email, name, role, createdAt }) => ({
        _id,
        email,
        name,
        role,
        createdAt,
      })),
    };
  },
});

/**
 * Admins change any user's role; the last admin cannot be demoted. Every change is recorded in the
 * activity log, the old and new role in its target label ("Vera Viewer (viewer → seller)"). A viewer's
 * shops leave public surfaces and cannot be changed by them until they are a seller again (decision 025).
 */
export const setUserRole = adminMutation({
  args: { userId: v.id("users"), role: roleValidator },
  returns: v.null(),
  handler: async (ctx, { userId, role }) => {
    await changeUserRole(ctx, userId, role, { by: "admin", admin: ctx.viewer });
    return null;
  },
});

/**
 * Makes an existing user an admin, from the command line:
 * `npx convex run users:makeAdmin '{"email":"you@example.com"}'`. Logged like any role change.
 */
export const makeAdmin = internalMutation({
  args: { email: v.string() },
  returns: v.id("users"),
  handler: async (ctx, { email }) => {
    const user = await getUserByEmail(ctx, email);
    if (!user) {
      throw appError("NOT_FOUND", `No user has the email ${email}. They need to sign in once first.`);
    }
    await changeUserRole(ctx, user._id, "admin", { by: "commandLine" });
    return user._id;
  },
});

/** Brings the owner flags of the user's shops in step with them, a shop at a time (model/restriction.ts). */
export const syncShopsWithOwner = internalMutation({
  args: { userId: v.id("users") },
  returns: v.null(),
  handler: async (ctx, { userId }) => {
    await syncShopsOf(ctx, userId);
    return null;
  },
});

/** Viewers read per run by `hideViewersShops`. */
const VIEWERS_PER_RUN = 100;

/**
 * Once, on a deployment that had viewers owning shops before decision 025 (an admin demoted a seller):
 * `npx convex run users:hideViewersShops` takes those shops off public surfaces, a batch of viewers at
 * a time. Safe to repeat.
 */
export const hideViewersShops = internalMutation({
  args: { cursor: v.optional(v.union(v.string(), v.null())) },
  returns: v.null(),
  handler: async (ctx, { cursor }) => {
    const page = await ctx.db
      .query("users")
      .withIndex("by_role_and_email", (q) => q.eq("role", "viewer"))
      .paginate({ numItems: VIEWERS_PER_RUN, cursor: cursor ?? null });
    for (const viewer of page.page) {
      const owned = await ctx.db
        .query("liveShops")
        .withIndex("by_userId", (q) => q.eq("userId", viewer._id))
        .first();
      // Each shop changes in its own transaction (its streams' listings follow inline).
      if (owned) await ctx.scheduler.runAfter(0, internal.users.syncShopsWithOwner, { userId: viewer._id });
    }
    if (!page.isDone) {
      await ctx.scheduler.runAfter(0, internal.users.hideViewersShops, { cursor: page.continueCursor });
    }
    return null;
  },
});
