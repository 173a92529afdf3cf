import type { PaginationOptions, PaginationResult } from "convex/server";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { DEFAULT_ROLE, TERMS_VERSION, type Role } from "../lib/constants";
import { mayRunShops } from "../lib/lifecycle";
import { personActor, recordActivity, type LogActor } from "./adminLog";
import { adminEmails } from "./env";
import { appError } from "./errors";
import { syncShopsWithOwner } from "./restriction";
import { insertWithTimestamps, patchWithTimestamps, type DocPatch } from "./timestamps";

export type NewUser = {
  clerkId: string;
  email: string;
  name?: string;
  role?: Role;
  avatar?: string;
  /** `updated_at` of the Clerk event the row was created from, when it came from the webhook. */
  clerkUpdatedAt?: number;
  /** Defaults to DEFAULT_PRIVACY_PREFERENCES (the demo data's sellers choose otherwise). */
  privacyPreferences?: Doc<"users">["privacyPreferences"];
};

export const DEFAULT_NOTIFICATION_PREFERENCES: Doc<"users">["notificationPreferences"] = {
  goLiveSavedStreams: true,
  goLiveFollowedShops: true,
  emailDigest: false,
};

/**
 * Nothing about a person is public unless they say so (GDPR article 25(2)): `showProfile` puts their name
 * and picture on their shops' pages, so it starts off (decision 026).
 */
export const DEFAULT_PRIVACY_PREFERENCES: Doc<"users">["privacyPreferences"] = {
  analytics: false,
  personalization: true,
  showProfile: false,
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
      clerkUpdatedAt: user.clerkUpdatedAt,
      paymentMethods: [],
      notificationPreferences: DEFAULT_NOTIFICATION_PREFERENCES,
      termsAcceptance: { version: TERMS_VERSION, acceptedAt: now },
      privacyPreferences: user.privacyPreferences ?? DEFAULT_PRIVACY_PREFERENCES,
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

/**
 * The role a new account starts with: admin when its email is listed in ADMIN_EMAILS, else the default
 * (viewer). The one rule for every way a user row is created (sign-in and Clerk webhook).
 */
export function initialRoleFor(email: string): Role {
  return adminEmails().has(normalizeEmail(email)) ? "admin" : DEFAULT_ROLE;
}

/**
 * Creates a user with the role `initialRoleFor` gives; refuses a Clerk id deleted at Clerk. An account
 * that starts as an admin is in the activity log, as a role change is: it did not come from the console.
 */
export async function insertUserWithInitialRole(
  ctx: MutationCtx,
  user: Omit<NewUser, "role">,
  now = Date.now(),
): Promise<Id<"users">> {
  await assertClerkUserNotDeleted(ctx, user.clerkId);
  const role = initialRoleFor(user.email);
  const userId = await insertUser(ctx, { ...user, role }, now);
  if (role !== DEFAULT_ROLE) {
    await recordActivity(
      ctx,
      { name: "ADMIN_EMAILS setting" },
      {
        action: "change_role",
        targetTable: "users",
        targetId: userId,
        targetLabel: `${user.name ?? normalizeEmail(user.email)} (new account → ${role})`,
        reason: "The account's email is listed in ADMIN_EMAILS.",
      },
      now,
    );
  }
  return userId;
}

export async function getDeletedClerkUser(
  ctx: QueryCtx,
  clerkId: string,
): Promise<Doc<"deletedClerkUsers"> | null> {
  return await ctx.db
    .query("deletedClerkUsers")
    .withIndex("by_clerkId", (q) => q.eq("clerkId", clerkId))
    .first();
}

/** Throws for a Clerk id whose Clerk user was deleted: that account is gone for good. */
export async function assertClerkUserNotDeleted(ctx: QueryCtx, clerkId: string): Promise<void> {
  if (await getDeletedClerkUser(ctx, clerkId)) {
    throw appError("FORBIDDEN", "This account was deleted. Sign up again to start a new account.");
  }
}

/** Remembers that Clerk deleted this user (once per Clerk id). */
export async function recordClerkUserDeleted(
  ctx: MutationCtx,
  clerkId: string,
  deletedAt: number,
  now = Date.now(),
): Promise<void> {
  if (await getDeletedClerkUser(ctx, clerkId)) return;
  await insertWithTimestamps(ctx, "deletedClerkUsers", { clerkId, deletedAt }, now);
}

/**
 * What changed a role, for the activity log: an admin in the console, the person's own first shop
 * (PRODUCT.md "Roles": the first one makes the user a seller), or `users:makeAdmin` on the command line.
 */
export type RoleChangeSource =
  { by: "admin"; admin: Doc<"users"> } | { by: "firstShop"; liveShopName: string } | { by: "commandLine" };

function roleChangeLogged(
  user: Doc<"users">,
  source: RoleChangeSource,
): { actor: LogActor; reason?: string } {
  switch (source.by) {
    case "admin":
      return { actor: personActor(source.admin) };
    case "firstShop":
      return { actor: personActor(user), reason: `Opened their first shop, ${source.liveShopName}.` };
    case "commandLine":
      return { actor: { name: "Command line" }, reason: "users:makeAdmin was run." };
  }
}

/**
 * Changes a user's role, wherever the change comes from, and records it in the activity log with the
 * old and new role ("Vera Viewer (viewer → seller)"). The last admin cannot be demoted, or nobody could
 * change roles any more; with two or more, any of them may step down. Their shops follow (decision
 * 025): a viewer's leave public surfaces, and come back when they may run shops again.
 */
export async function changeUserRole(
  ctx: MutationCtx,
  userId: Id<"users">,
  role: Role,
  source: RoleChangeSource,
  now = Date.now(),
): Promise<void> {
  const user = await ctx.db.get("users", userId);
  if (!user) throw appError("NOT_FOUND", "This user does not exist.");
  if (user.role === role) return;
  if (user.role === "admin") await assertNotLastAdmin(ctx, "changing this role");
  await patchUser(ctx, userId, { role }, now);
  if (mayRunShops(user.role) !== mayRunShops(role)) await syncShopsWithOwner(ctx, userId);
  const { actor, reason } = roleChangeLogged(user, source);
  await recordActivity(
    ctx,
    actor,
    {
      action: "change_role",
      targetTable: "users",
      targetId: userId,
      targetLabel: `${user.name ?? user.email} (${user.role} → ${role})`,
      reason,
    },
    now,
  );
}

/**
 * Before a new shop: a viewer's first shop makes them a seller (PRODUCT.md "Roles"), logged. A viewer
 * who already owns shops was made a viewer by an admin (shops are never given away), and a new shop
 * would not be their first: refused, so an admin's decision is not undone by opening a shop.
 */
export async function becomeSellerForNewShop(
  ctx: MutationCtx,
  user: Doc<"users">,
  liveShopName: string,
): Promise<void> {
  if (mayRunShops(user.role)) return;
  const owned = await ctx.db
    .query("liveShops")
    .withIndex("by_userId", (q) => q.eq("userId", user._id))
    .first();
  if (owned) {
    throw appError(
      "FORBIDDEN",
      "An admin made your account a viewer, so you cannot open or manage shops. Ask an admin to make you a seller again.",
    );
  }
  await changeUserRole(ctx, user._id, "seller", { by: "firstShop", liveShopName });
}

/**
 * Refuses (CONFLICT) to take away the last admin, by a role change or a deletion: with none left,
 * nobody could change roles any more. `doing` completes "Make someone else an admin before …".
 */
export async function assertNotLastAdmin(ctx: QueryCtx, doing: string): Promise<void> {
  const admins = await ctx.db
    .query("users")
    .withIndex("by_role_and_email", (q) => q.eq("role", "admin"))
    .take(2);
  if (admins.length < 2) {
    throw appError("CONFLICT", `This is the only admin. Make someone else an admin before ${doing}.`);
  }
}

/** The smallest string after every string that starts with `prefix`. */
function afterPrefix(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/** A page of users ordered by email, optionally of one role and with emails starting with a prefix. */
export async function paginateUsers(
  ctx: QueryCtx,
  filter: { role?: Role; emailPrefix?: string },
  paginationOpts: PaginationOptions,
): Promise<PaginationResult<Doc<"users">>> {
  const prefix = normalizeEmail(filter.emailPrefix ?? "");
  const { role } = filter;
  const users = ctx.db.query("users");
  const query = role
    ? users.withIndex("by_role_and_email", (q) =>
        prefix
          ? q.eq("role", role).gte("email", prefix).lt("email", afterPrefix(prefix))
          : q.eq("role", role),
      )
    : users.withIndex("by_email", (q) =>
        prefix ? q.gte("email", prefix).lt("email", afterPrefix(prefix)) : q,
      );
  return await query.paginate(paginationOpts);
}
