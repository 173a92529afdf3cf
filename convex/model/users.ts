import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { DEFAULT_ROLE, TERMS_VERSION, type Role } from "../lib/constants";
import { appError } from "./errors";
import { insertWithTimestamps, patchWithTimestamps, type DocPatch } from "./timestamps";

export type NewUser = {
  clerkId: string;
  email: string;
  name?: string;
  role?: Role;
  avatar?: string;
};

export const DEFAULT_NOTIFICATION_PREFERENCES: Doc<"users">["notificationPreferences"] = {
  goLiveSavedStreams: true,
  goLiveFollowedShops: true,
  emailDigest: false,
};

export const DEFAULT_PRIVACY_PREFERENCES: Doc<"users">["privacyPreferences"] = {
  analytics: false,
  personalization: true,
  showProfile: true,
};

/** Emails are compared without case, so one person cannot hold two accounts by capitalisation. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function getUserByClerkId(ctx: QueryCtx, clerkId: string): Promise<Doc<"users"> | null> {
  return await ctx.db
    .query("users")
    .withIndex("by_clerkId", (q) => q.eq("clerkId", clerkId))
    .unique();
}

export async function getUserByEmail(ctx: QueryCtx, email: string): Promise<Doc<"users"> | null> {
  return await ctx.db
    .query("users")
    .withIndex("by_email", (q) => q.eq("email", normalizeEmail(email)))
    .unique();
}

async function assertUniqueUserFields(
  ctx: MutationCtx,
  fields: { clerkId?: string; email?: string },
  self?: Id<"users">,
): Promise<void> {
  if (fields.clerkId !== undefined) {
    const existing = await getUserByClerkId(ctx, fields.clerkId);
    if (existing && existing._id !== self) {
      throw appError("CONFLICT", "An account with this sign-in id already exists.");
    }
  }
  if (fields.email !== undefined) {
    const existing = await getUserByEmail(ctx, fields.email);
    if (existing && existing._id !== self) {
      throw appError("CONFLICT", "An account with this email address already exists.");
    }
  }
}

/** Creates a user with the product's defaults: a viewer who accepted terms version 1.0 now. */
export async function insertUser(ctx: MutationCtx, user: NewUser, now = Date.now()): Promise<Id<"users">> {
  const email = normalizeEmail(user.email);
  await assertUniqueUserFields(ctx, { clerkId: user.clerkId, email });
  return await insertWithTimestamps(
    ctx,
    "users",
    {
      clerkId: user.clerkId,
      email,
      name: user.name,
      role: user.role ?? DEFAULT_ROLE,
      avatar: user.avatar,
      paymentMethods: [],
      notificationPreferences: DEFAULT_NOTIFICATION_PREFERENCES,
      termsAcceptance: { version: TERMS_VERSION, acceptedAt: now },
      privacyPreferences: DEFAULT_PRIVACY_PREFERENCES,
      gdprRequestStatus: "none",
      gdprRequestType: "none",
    },
    now,
  );
}

export async function patchUser(
  ctx: MutationCtx,
  userId: Id<"users">,
  patch: DocPatch<"users">,
  now = Date.now(),
): Promise<void> {
  const normalized = patch.email === undefined ? patch : { ...patch, email: normalizeEmail(patch.email) };
  await assertUniqueUserFields(ctx, normalized, userId);
  await patchWithTimestamps(ctx, "users", userId, normalized, now);
}
