/**
 * Privacy requests (docs/product.md#privacy-requests; GDPR articles 12(3), 15–18, 20).
 *
 * A person has at most one open request. Their user row carries its state (`gdprRequestStatus`, `…Type`,
 * `…CreatedAt`, `…CompletedAt`, `…Reason`), kept in step with the `privacyRequests` history row here and
 * only here: none → pending_export (access), pending_deletion (deletion) or pending_review (correction,
 * restriction) → completed or rejected, and back to none when the person cancels. Every request and
 * decision stays in `privacyRequests` (who decided, when, why). Every admin decision is also recorded in
 * the admin log in the same transaction.
 */
import { v, type Infer } from "convex/values";
import { internal } from "../_generated/api";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import {
  PRIVACY_REQUEST_DUE_MONTHS,
  type PrivacyRequestStatus,
  type PrivacyRequestType,
} from "../lib/constants";
import { CORRECTION_NOTE_REQUIRED, type PrivacyDecision } from "../lib/validation";
import { correctionValidator } from "../schema";
import { recordAdminAction } from "./adminLog";
import { deleteUserCascade } from "./cascade";
import { assertSomethingCorrected } from "./corrections";
import { clerkSecretKey } from "./env";
import { appError } from "./errors";
import { liftUserRestriction, restrictUser } from "./restriction";
import { insertWithTimestamps, patchWithTimestamps } from "./timestamps";
import { assertNotLastAdmin, recordClerkUserDeleted } from "./users";

// ---------------------------------------------------------------------------------------------------
// What callers see

export type RequestType = Exclude<PrivacyRequestType, "none">;
export type RequestStatus = Exclude<PrivacyRequestStatus, "none">;
export type OpenStatus = Extract<RequestStatus, `pending_${string}`>;

export const requestTypeValidator = v.union(
  v.literal("access"),
  v.literal("deletion"),
  v.literal("correction"),
  v.literal("restriction"),
);

export const requestStatusValidator = v.union(
  v.literal("pending_export"),
  v.literal("pending_deletion"),
  v.literal("pending_review"),
  v.literal("completed"),
  v.literal("rejected"),
  v.literal("cancelled"),
);

export const privacyRequestViewValidator = v.object({
  _id: v.id("privacyRequests"),
  type: requestTypeValidator,
  status: requestStatusValidator,
  reason: v.optional(v.string()),
  details: v.optional(v.string()),
  requestedAt: v.number(),
  dueAt: v.number(),
  decidedAt: v.optional(v.number()),
  decisionReason: v.optional(v.string()),
  /** For a correction: what an admin changed (model/corrections.ts). */
  corrections: v.optional(v.array(correctionValidator)),
});
export type PrivacyRequestView = Infer<typeof privacyRequestViewValidator>;

export const requestUserValidator = v.union(
  v.object({ _id: v.id("users"), name: v.optional(v.string()), email: v.string() }),
  v.null(),
);

export const myPrivacyValidator = v.union(
  v.null(),
  v.object({
    open: v.union(privacyRequestViewValidator, v.null()),
    history: v.array(privacyRequestViewValidator),
    dataExport: v.union(
      v.object({ createdAt: v.number(), expiresAt: v.number(), byteLength: v.number() }),
      v.null(),
    ),
    restricted: v.boolean(),
  }),
);

export const openRequestValidator = v.object({
  ...privacyRequestViewValidator.fields,
  user: requestUserValidator,
});

export const decidedRequestValidator = v.object({
  ...privacyRequestViewValidator.fields,
  user: requestUserValidator,
  decidedByName: v.optional(v.string()),
});

export const restrictedUserValidator = v.object({
  _id: v.id("users"),
  name: v.optional(v.string()),
  email: v.string(),
  restrictedAt: v.number(),
});

/** The history a person sees: newest first, at most this many. */
export const HISTORY_LIMIT = 50;
/** The admin queue: oldest first, at most this many. */
export const OPEN_QUEUE_LIMIT = 200;
/** Restricted users listed for admins. */
export const RESTRICTED_USERS_LIMIT = 200;

export const OPEN_STATUS: Record<RequestType, OpenStatus> = {
  access: "pending_export",
  deletion: "pending_deletion",
  correction: "pending_review",
  restriction: "pending_review",
};
export const OPEN_STATUSES: readonly OpenStatus[] = ["pending_export", "pending_deletion", "pending_review"];

export function isOpenStatus(status: PrivacyRequestStatus): status is OpenStatus {
  return (OPEN_STATUSES as readonly string[]).includes(status);
}

/** How the admin log names a request's type. */
const TYPE_LABELS: Record<RequestType, string> = {
  access: "Data export",
  deletion: "Account deletion",
  correction: "Correction",
  restriction: "Restriction",
};

/**
 * One calendar month after `at` (GDPR article 12(3)): the same day and time of day of the next month, in
 * UTC, or that month's last day when it is shorter (31 January → 28 or 29 February; 31 March → 30 April).
 * UTC, not a time zone: the server has none, and a deadline read in New York is at most a few hours
 * earlier or later than in UTC, far inside the month.
 */
export function addCalendarMonths(at: number, months: number = PRIVACY_REQUEST_DUE_MONTHS): number {
  const date = new Date(at);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  // Day 0 of the month after: the last day of the target month (Date.UTC carries month overflow).
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(
    year,
    month,
    Math.min(date.getUTCDate(), lastDay),
    date.getUTCHours(),
    date.getUTCMinutes(),
    date.getUTCSeconds(),
    date.getUTCMilliseconds(),
  );
}

function requestTypeOf(request: Doc<"privacyRequests">): RequestType {
  if (request.type === "none") throw new Error(`Privacy request ${request._id} has no type.`);
  return request.type;
}

function requestStatusOf(request: Doc<"privacyRequests">): RequestStatus {
  if (request.status === "none") throw new Error(`Privacy request ${request._id} has no status.`);
  return request.status;
}

export function toRequestView(request: Doc<"privacyRequests">): PrivacyRequestView {
  return {
    _id: request._id,
    type: requestTypeOf(request),
    status: requestStatusOf(request),
    reason: request.reason,
    details: request.details,
    requestedAt: request.requestedAt,
    dueAt: request.dueAt,
    decidedAt: request.decidedAt,
    decisionReason: request.decisionReason,
    ...(request.corrections && { corrections: request.corrections }),
  };
}

async function requestUser(ctx: QueryCtx, userId: Id<"users"> | undefined) {
  const user = userId && (await ctx.db.get("users", userId));
  return user ? { _id: user._id, name: user.name, email: user.email } : null;
}

// ---------------------------------------------------------------------------------------------------
// Reading

export async function readMyPrivacy(ctx: QueryCtx, viewer: Doc<"users">, now: number) {
  const rows = await ctx.db
    .query("privacyRequests")
    .withIndex("by_userId_and_requestedAt", (q) => q.eq("userId", viewer._id))
    .order("desc")
    .take(HISTORY_LIMIT);
  const history = rows.map(toRequestView);
  const exports = await ctx.db
    .query("dataExports")
    .withIndex("by_userId", (q) => q.eq("userId", viewer._id))
    .order("desc")
    .take(5);
  // Expired ones are deleted at expiry (model/dataExport.ts); the check covers a late deletion.
  const current = exports.find((row) => row.expiresAt > now);
  return {
    open: history.find((request) => isOpenStatus(request.status)) ?? null,
    history,
    dataExport: current
      ? { createdAt: current.createdAt, expiresAt: current.expiresAt, byteLength: current.byteLength }
      : null,
    restricted: viewer.restrictedAt !== undefined,
  };
}

/** Open requests of every status, oldest first (the most urgent at the top), bounded. */
export async function listOpenRequests(ctx: QueryCtx) {
  const rows: Doc<"privacyRequests">[] = [];
  for (const status of OPEN_STATUSES) {
    rows.push(
      ...(await ctx.db
        .query("privacyRequests")
        .withIndex("by_status_and_requestedAt", (q) => q.eq("status", status))
        .take(OPEN_QUEUE_LIMIT)),
    );
  }
  rows.sort((a, b) => a.requestedAt - b.requestedAt);
  return await Promise.all(
    rows.slice(0, OPEN_QUEUE_LIMIT).map(async (row) => ({
      ...toRequestView(row),
      user: await requestUser(ctx, row.userId),
    })),
  );
}

export async function toDecidedView(ctx: QueryCtx, row: Doc<"privacyRequests">) {
  const decidedBy = row.decidedBy && (await ctx.db.get("users", row.decidedBy));
  return {
    ...toRequestView(row),
    user: await requestUser(ctx, row.userId),
    decidedByName: decidedBy ? (decidedBy.name ?? decidedBy.email) : undefined,
  };
}

// ---------------------------------------------------------------------------------------------------
// The person's side

/** The state a user row carries for its current (or last) request. */
function userRequestState(
  request: Pick<Doc<"privacyRequests">, "type" | "status" | "requestedAt" | "reason">,
  completedAt?: number,
) {
  return {
    gdprRequestStatus: request.status,
    gdprRequestType: request.type,
    gdprRequestCreatedAt: request.requestedAt,
    gdprRequestCompletedAt: completedAt,
    gdprRequestReason: request.reason,
  };
}

export async function createPrivacyRequest(
  ctx: MutationCtx,
  viewer: Doc<"users">,
  input: { type: RequestType; reason?: string; details?: string },
  now = Date.now(),
): Promise<Id<"privacyRequests">> {
  if (isOpenStatus(viewer.gdprRequestStatus)) {
    throw appError(
      "CONFLICT",
      "You already have an open request. Wait for its answer, or cancel it to ask for something else.",
    );
  }
  if (input.type === "restriction" && viewer.restrictedAt !== undefined) {
    throw appError("CONFLICT", "Processing of your data is already restricted.");
  }
  const request = {
    userId: viewer._id,
    type: input.type,
    status: OPEN_STATUS[input.type],
    reason: input.reason,
    // Only a correction says what to change.
    details: input.type === "correction" ? input.details : undefined,
    requestedAt: now,
    dueAt: addCalendarMonths(now),
  };
  const requestId = await insertWithTimestamps(ctx, "privacyRequests", request, now);
  await patchWithTimestamps(ctx, "users", viewer._id, userRequestState(request), now);
  return requestId;
}

/** The person withdraws their open request: it stays in the history as cancelled; their status is none. */
export async function cancelPrivacyRequest(
  ctx: MutationCtx,
  viewer: Doc<"users">,
  requestId: Id<"privacyRequests">,
  now = Date.now(),
): Promise<void> {
  const request = await ctx.db.get("privacyRequests", requestId);
  if (!request) throw appError("NOT_FOUND", "This request does not exist.");
  if (request.userId !== viewer._id) throw appError("FORBIDDEN", "You can only cancel your own requests.");
  if (!isOpenStatus(request.status)) throw appError("CONFLICT", "This request has already been answered.");
  if (request.decidedAt !== undefined) {
    throw appError("CONFLICT", "This request was approved; your data export is being prepared.");
  }
  await patchWithTimestamps(ctx, "privacyRequests", requestId, { status: "cancelled", decidedAt: now }, now);
  await patchWithTimestamps(
    ctx,
    "users",
    viewer._id,
    {
      gdprRequestStatus: "none",
      gdprRequestType: "none",
      gdprRequestCreatedAt: undefined,
      gdprRequestCompletedAt: undefined,
      gdprRequestReason: undefined,
    },
    now,
  );
}

// ---------------------------------------------------------------------------------------------------
// The admin's side

/** Closes a request and its user's state as completed or rejected. */
async function closeRequest(
  ctx: MutationCtx,
  request: Doc<"privacyRequests">,
  user: Doc<"users"> | null,
  status: "completed" | "rejected",
  now: number,
  decision?: { admin: Doc<"users">; reason?: string },
): Promise<void> {
  await patchWithTimestamps(
    ctx,
    "privacyRequests",
    request._id,
    {
      status,
      ...(decision && { decidedAt: now, decidedBy: decision.admin._id, decisionReason: decision.reason }),
    },
    now,
  );
  if (user)
    await patchWithTimestamps(ctx, "users", user._id, userRequestState({ ...request, status }, now), now);
}

/**
 * An admin's decision. Rejecting closes the request with the reason the person reads. Approving:
 * access → the export is built in the background (model/dataExport.ts; the request completes when the
 * file exists); deletion → the account and everything it owns go (`deleteAccount`); correction → closed
 * with the note of what changed; restriction → closed, and the user's shops leave public surfaces.
 */
export async function decidePrivacyRequest(
  ctx: MutationCtx,
  admin: Doc<"users">,
  requestId: Id<"privacyRequests">,
  decision: PrivacyDecision,
  reason: string | undefined,
  now = Date.now(),
): Promise<void> {
  const request = await ctx.db.get("privacyRequests", requestId);
  if (!request) throw appError("NOT_FOUND", "This request does not exist.");
  if (!isOpenStatus(request.status)) throw appError("CONFLICT", "This request has already been answered.");
  const user = request.userId ? await ctx.db.get("users", request.userId) : null;
  if (!user) throw appError("NOT_FOUND", "The person who made this request no longer has an account.");
  const type = requestTypeOf(request);
  // An approved export still being built may be approved again (a failed build is retried), never rejected.
  if (request.decidedAt !== undefined && decision === "reject") {
    throw appError("CONFLICT", "This request was approved; the data export is being prepared.");
  }
  if (decision === "approve" && type === "correction" && reason === undefined) {
    throw appError("INVALID_ARGUMENT", CORRECTION_NOTE_REQUIRED, {
      fields: { reason: CORRECTION_NOTE_REQUIRED },
    });
  }
  if (decision === "approve" && type === "correction") assertSomethingCorrected(request);
  if (decision === "approve" && type === "deletion" && user.role === "admin")
    await assertNotLastAdmin(ctx, "deleting this account");

  await recordAdminAction(
    ctx,
    admin,
    {
      action: decision === "approve" ? "approve_privacy_request" : "reject_privacy_request",
      targetTable: "privacyRequests",
      targetId: request._id,
      targetLabel: `${TYPE_LABELS[type]} request from ${user.name ?? user.email}`,
      reason,
    },
    now,
  );

  if (decision === "reject") {
    await closeRequest(ctx, request, user, "rejected", now, { admin, reason });
    return;
  }
  switch (type) {
    case "access":
      // Stays pending_export until the file exists (dataExport.completeDataExport).
      await patchWithTimestamps(
        ctx,
        "privacyRequests",
        request._id,
        { decidedAt: now, decidedBy: admin._id, decisionReason: reason },
        now,
      );
      await ctx.scheduler.runAfter(0, internal.privacy.buildDataExport, { requestId: request._id });
      return;
    case "correction":
      await closeRequest(ctx, request, user, "completed", now, { admin, reason });
      return;
    case "restriction":
      await closeRequest(ctx, request, user, "completed", now, { admin, reason });
      await restrictUser(ctx, user, now);
      return;
    case "deletion":
      await closeRequest(ctx, request, null, "completed", now, { admin, reason });
      await deleteAccount(ctx, user, now);
      return;
  }
}

export async function liftRestriction(
  ctx: MutationCtx,
  admin: Doc<"users">,
  userId: Id<"users">,
  reason: string | undefined,
  now = Date.now(),
): Promise<void> {
  const user = await ctx.db.get("users", userId);
  if (!user) throw appError("NOT_FOUND", "This user does not exist.");
  if (user.restrictedAt === undefined)
    throw appError("CONFLICT", "This user's processing is not restricted.");
  await liftUserRestriction(ctx, user, now);
  await recordAdminAction(
    ctx,
    admin,
    {
      action: "lift_restriction",
      targetTable: "users",
      targetId: user._id,
      targetLabel: user.name ?? user.email,
      reason,
    },
    now,
  );
}

// ---------------------------------------------------------------------------------------------------
// Deleting an account (an approved deletion request, or the retention job)

/**
 * Deletes the user at once and everything they own in batches (model/cascade.ts), and tombstones their
 * sign-in id (decisions 009, 027), so neither Clerk's late webhooks nor a token issued before the deletion
 * bring the account back, and the person's open pages end their session. With Clerk's secret key
 * configured, the Clerk user is deleted too (`privacy.deleteClerkUser`). Without it (the local backend, or
 * a deployment without the key) the sign-in identity lives on: its owner may choose to start a new, empty
 * account with it (`users.startNewAccount`), never without choosing.
 */
export async function deleteAccount(ctx: MutationCtx, user: Doc<"users">, now = Date.now()): Promise<void> {
  const clerkDeletes = clerkSecretKey() !== undefined;
  await recordClerkUserDeleted(ctx, user.clerkId, now, now, !clerkDeletes);
  if (clerkDeletes) {
    await ctx.scheduler.runAfter(0, internal.privacy.deleteClerkUser, { clerkId: user.clerkId, attempt: 0 });
  }
  await deleteUserCascade(ctx, user._id);
}
