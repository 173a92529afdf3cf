import { paginationOptsValidator, paginationResultValidator } from "convex/server";
import { v } from "convex/values";
import { adminMutation, identityMutation, internalMutation, query } from "./functions";
import { roleValidator } from "./schema";
import { acceptedIdentityClaims } from "./lib/validation";
import { recordAdminAction } from "./model/adminLog";
import { appError } from "./model/errors";
import {
  changeUserRole,
  getUserByClerkId,
  getUserByEmail,
  insertUserWithInitialRole,
  normalizeEmail,
  paginateUsers,
  patchUser,
} from "./model/users";
import { EMPTY_PAGE } from "./model/pages";

const viewerValidator = v.object({
  _id: v.id("users"),
  name: v.optional(v.string()),
  email: v.string(),
  role: roleValidator,
  avatar: v.optional(v.string()),
});

/** The signed-in caller's profile, or null when signed out or before `ensureUser` has run. */
export const viewer = query({
  args: {},
  returns: v.union(viewerValidator, v.null()),
  handler: (ctx) => {
    if (!ctx.viewer) return null;
    const { _id, name, email, role, avatar } = ctx.viewer;
    return { _id, name, email, role, avatar };
  },
});

/**
 * Creates or refreshes the caller's user row from their sign-in token; run on every sign-in. Safe to
 * repeat. The role is never changed here: new users are viewers, or admins when listed in ADMIN_EMAILS.
 * A Clerk id whose user was deleted at Clerk is refused (decision 009). The token's claims are held to
 * the specification's limits first: a long name is cut, an unusable email or picture is ignored
 * (decision 023); a new account still needs a usable email.
 */
export const ensureUser = identityMutation({
  args: {},
  returns: v.id("users"),
  handler: async (ctx) => {
    const { subject, email: rawEmail, name: rawName, pictureUrl } = ctx.identity;
    const claims = acceptedIdentityClaims({
      clerkId: subject,
      email: rawEmail,
      name: rawName,
      avatar: pictureUrl,
    });
    if (!claims)
      throw appError("INVALID_ARGUMENT", "Your sign-in's account id is not one LiveLocal can use.");
    const { clerkId, email, name, avatar } = claims;
    const existing = await getUserByClerkId(ctx, clerkId);
    if (existing) {
      const changes = {
        ...(email !== undefined && normalizeEmail(email) !== existing.email && { email }),
        ...(name !== undefined && name !== existing.name && { name }),
        ...(avatar !== undefined && existing.avatar === undefined && { avatar }),
      };
      if (Object.keys(changes).length > 0) await patchUser(ctx, existing._id, changes);
      return existing._id;
    }
    if (email === undefined) {
      throw appError("INVALID_ARGUMENT", "Your sign-in has no usable email address; add one to continue.");
    }
    return await insertUserWithInitialRole(ctx, { clerkId, email, name, avatar });
  },
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
 * Admins change any user's role; the last admin cannot be demoted. A change is recorded in the activity
 * log, the old and new role in its target label ("Vera Viewer (viewer → seller)").
 */
export const setUserRole = adminMutation({
  args: { userId: v.id("users"), role: roleValidator },
  returns: v.null(),
  handler: async (ctx, { userId, role }) => {
    const before = await ctx.db.get("users", userId);
    await changeUserRole(ctx, userId, role);
    if (before && before.role !== role) {
      await recordAdminAction(ctx, ctx.viewer, {
        action: "change_role",
        targetTable: "users",
        targetId: userId,
        targetLabel: `${before.name ?? before.email} (${before.role} → ${role})`,
      });
    }
    return null;
  },
});

/**
 * Makes an existing user an admin, from the command line:
 * `npx convex run users:makeAdmin '{"email":"you@example.com"}'`.
 */
export const makeAdmin = internalMutation({
  args: { email: v.string() },
  returns: v.id("users"),
  handler: async (ctx, { email }) => {
    const user = await getUserByEmail(ctx, email);
    if (!user) {
      throw appError("NOT_FOUND", `No user has the email ${email}. They need to sign in once first.`);
    }
    await changeUserRole(ctx, user._id, "admin");
    return user._id;
  },
});
