import type { PaginationOptions, PaginationResult } from "convex/server";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { DEFAULT_ROLE, TERMS_VERSION, type Role } from "../lib/constants";
import { mayRunShops } from "../lib/lifecycle";
import { canonicalTimeZone } from "../lib/timeZone";
import { acceptedIdentityClaims } from "../lib/validation";
import { personActor, recordActivity, type LogActor } from "./adminLog";
import { adminEmails } from "./env";
import { appError } from "./errors";
import { imageSlot, syncImageSlot } from "./images";
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
  /** What the sign-in said, when the row comes from one (`signInChanges`). */
  signInClaims?: Doc<"users">["signInClaims"];
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
      signInClaims: user.signInClaims,
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

/** Changes a user; a changed picture keeps uploads in step (an uploaded one replaced is deleted). */
export async function patchUser(
  ctx: MutationCtx,
  userId: Id<"users">,
  patch: DocPatch<"users">,
  now = Date.now(),
): Promise<void> {
  const normalized = patch.email === undefined ? patch : { ...patch, email: normalizeEmail(patch.email) };
  await assertUniqueUserFields(ctx, normalized, userId);
  if ("avatar" in patch) {
    const user = await ctx.db.get("users", userId);
    if (user && user.avatar !== patch.avatar) {
      await syncImageSlot(
        ctx,
        userId,
        imageSlot("users", userId, "avatar"),
        [user.avatar],
        [patch.avatar],
        now,
      );
    }
  }
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

/**
 * How a tombstone keeps a sign-in id: its SHA-256 (base64), so a deleted account leaves no readable
 * identifier behind (the development sign-in's subjects contain the email, decision 027).
 */
export async function tombstoneKey(clerkId: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(clerkId)));
  return `sha256:${btoa(String.fromCharCode(...digest))}`;
}

export async function getDeletedClerkUser(
  ctx: QueryCtx,
  clerkId: string,
): Promise<Doc<"deletedClerkUsers"> | null> {
  // Tombstones written before decision 027 keep the id itself.
  for (const key of [await tombstoneKey(clerkId), clerkId]) {
    const tombstone = await ctx.db
      .query("deletedClerkUsers")
      .withIndex("by_clerkId", (q) => q.eq("clerkId", key))
      .first();
    if (tombstone) return tombstone;
  }
  return null;
}

export const ACCOUNT_DELETED_MESSAGE = "This account was deleted. Sign up again to start a new account.";
export const ACCOUNT_DELETED_RESTARTABLE_MESSAGE =
  "Your LiveLocal account was deleted, as you asked. To use LiveLocal again with this sign-in, start a new, empty account.";

/**
 * Throws ACCOUNT_DELETED for the sign-in id of a deleted account: it never comes back by itself. Its
 * `restartable` says whether the person may choose to start a new account with the same sign-in.
 */
export async function assertClerkUserNotDeleted(ctx: QueryCtx, clerkId: string): Promise<void> {
  const tombstone = await getDeletedClerkUser(ctx, clerkId);
  if (!tombstone) return;
  const restartable = tombstone.restartable === true;
  throw appError(
    "ACCOUNT_DELETED",
    restartable ? ACCOUNT_DELETED_RESTARTABLE_MESSAGE : ACCOUNT_DELETED_MESSAGE,
    { restartable },
  );
}

/**
 * Remembers that the account of this sign-in id was deleted (once per id). `restartable`: the sign-in
 * identity itself still exists (no Clerk user was deleted), so its owner may later choose a new account.
 * Clerk deleting the user afterwards makes it final.
 */
export async function recordClerkUserDeleted(
  ctx: MutationCtx,
  clerkId: string,
  deletedAt: number,
  now = Date.now(),
  restartable = false,
): Promise<void> {
  const existing = await getDeletedClerkUser(ctx, clerkId);
  if (existing) {
    if (existing.restartable && !restartable) {
      await patchWithTimestamps(ctx, "deletedClerkUsers", existing._id, { restartable: undefined }, now);
    }
    return;
  }
  await insertWithTimestamps(
    ctx,
    "deletedClerkUsers",
    { clerkId: await tombstoneKey(clerkId), deletedAt, ...(restartable && { restartable: true }) },
    now,
  );
}

/** What a sign-in (a token, or Clerk's webhook) says about a person, already held to the limits. */
export type SignInClaims = { name?: string; email?: string };

/**
 * The changes a sign-in's claims make to an existing row: name and email change only when the sign-in
 * says something it did not say last time (`signInClaims`), so an admin's correction stands until the
 * person changes them where they sign in. An absent email never clears the stored one; an absent name
 * clears it only when `absentNameClears` (Clerk's webhook: the name was removed at Clerk).
 */
export function signInChanges(
  user: Doc<"users">,
  claims: SignInClaims,
  { absentNameClears = false }: { absentNameClears?: boolean } = {},
): DocPatch<"users"> {
  const last = user.signInClaims ?? { name: user.name, email: user.email };
  const email = claims.email === undefined ? undefined : normalizeEmail(claims.email);
  const nameSaid = claims.name !== undefined || absentNameClears;
  const nameChanged = nameSaid && claims.name !== last.name;
  const emailChanged = email !== undefined && email !== last.email;
  const next = { name: nameSaid ? claims.name : last.name, email: email ?? last.email };
  const claimsChanged =
    user.signInClaims === undefined || next.name !== last.name || next.email !== last.email;
  return {
    ...(nameChanged && claims.name !== user.name && { name: claims.name }),
    ...(emailChanged && email !== user.email && { email }),
    ...(claimsChanged && { signInClaims: next }),
  };
}

/**
 * For an admin's correction of a name or email: keeps what the sign-in last said, so the person's next
 * sign-in (saying the same) does not undo the correction.
 */
export function pinnedSignInClaims(user: Doc<"users">): Pick<Doc<"users">, "signInClaims"> {
  return { signInClaims: user.signInClaims ?? { name: user.name, email: user.email } };
}

/**
 * The signed-in person's row from their token's claims: refreshed when it exists (`signInChanges`; the
 * role never changes here), created otherwise. A deleted account's sign-in is refused (ACCOUNT_DELETED)
 * unless `startOver`: the person chose to start a new, empty account with a sign-in whose account was
 * deleted while the identity lived on (`restartable`). The claims are held to the specification's limits
 * first (decision 023); a new account needs a usable email.
 */
export async function signInUser(
  ctx: MutationCtx,
  identity: { subject: string; email?: string; name?: string; pictureUrl?: string },
  { startOver = false }: { startOver?: boolean } = {},
): Promise<Id<"users">> {
  const claims = acceptedIdentityClaims({
    clerkId: identity.subject,
    email: identity.email,
    name: identity.name,
    avatar: identity.pictureUrl,
  });
  if (!claims) throw appError("INVALID_ARGUMENT", "Your sign-in's account id is not one LiveLocal can use.");
  const { clerkId, email, name, avatar } = claims;
  const existing = await getUserByClerkId(ctx, clerkId);
  if (existing) {
    const changes = {
      ...signInChanges(existing, { name, email }),
      ...(avatar !== undefined && existing.avatar === undefined && { avatar }),
    };
    if (Object.keys(changes).length > 0) await patchUser(ctx, existing._id, changes);
    return existing._id;
  }
  if (startOver) {
    const tombstone = await getDeletedClerkUser(ctx, clerkId);
    if (tombstone?.restartable) await ctx.db.delete("deletedClerkUsers", tombstone._id);
  }
  if (email === undefined) {
    throw appError("INVALID_ARGUMENT", "Your sign-in has no usable email address; add one to continue.");
  }
  return await insertUserWithInitialRole(ctx, {
    clerkId,
    email,
    name,
    avatar,
    signInClaims: { name, email: normalizeEmail(email) },
  });
}

/**
 * Keeps the time zone the person's browser reports at sign-in (its canonical IANA name), for when
 * "Monday morning" is for their weekly digest; a value that is not a zone is ignored, never an error.
 */
export async function rememberTimeZone(ctx: MutationCtx, userId: Id<"users">, timeZone: string | undefined) {
  const zone = timeZone === undefined ? null : canonicalTimeZone(timeZone);
  if (zone === null) return;
  const user = await ctx.db.get("users", userId);
  if (user && user.timeZone !== zone) await patchUser(ctx, userId, { timeZone: zone });
}

/**
 * What changed a role, for the activity log: an admin in the console, the person's own first shop
 * (docs/product.md#roles: the first one makes the user a seller), or `users:makeAdmin` on the command line.
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
      // No shop name: the log outlives a deleted account, and its free text may not name the person.
      return { actor: personActor(user), reason: "Opened their first shop." };
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
 * Before a new shop: a viewer's first shop makes them a seller (docs/product.md#roles), logged. A viewer
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

/** At most `limit` users whose email starts with `prefix` (a search box's words), by email. */
export async function findUsersByEmailPrefix(
  ctx: QueryCtx,
  prefix: string,
  limit: number,
): Promise<Doc<"users">[]> {
  const start = normalizeEmail(prefix);
  if (start === "") return [];
  return await ctx.db
    .query("users")
    .withIndex("by_email", (q) => q.gte("email", start).lt("email", afterPrefix(start)))
    .take(limit);
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
