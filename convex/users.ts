import { v } from "convex/values";
import { identityMutation, query } from "./functions";
import { roleValidator } from "./schema";
import { adminEmails } from "./model/env";
import { appError } from "./model/errors";
import { getUserByClerkId, insertUser, normalizeEmail, patchUser } from "./model/users";

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
 */
export const ensureUser = identityMutation({
  args: {},
  returns: v.id("users"),
  handler: async (ctx) => {
    const { subject, email, name, pictureUrl } = ctx.identity;
    if (!email) throw appError("INVALID_ARGUMENT", "Your sign-in has no email address; add one to continue.");
    const existing = await getUserByClerkId(ctx, subject);
    if (existing) {
      const changes = {
        ...(normalizeEmail(email) !== existing.email && { email }),
        ...(name !== undefined && name !== existing.name && { name }),
        ...(pictureUrl !== undefined && existing.avatar === undefined && { avatar: pictureUrl }),
      };
      if (Object.keys(changes).length > 0) await patchUser(ctx, existing._id, changes);
      return existing._id;
    }
    return await insertUser(ctx, {
      clerkId: subject,
      email,
      name,
      avatar: pictureUrl,
      role: adminEmails().has(normalizeEmail(email)) ? "admin" : "viewer",
    });
  },
});
