/**
 * Privacy requests (GDPR): people ask for an export, a deletion, a correction or a restriction; admins
 * decide. The rules live in model/privacy.ts; the export in model/dataExport.ts and its download in
 * http.ts; the restriction in model/restriction.ts. Decision 020 explains the choices.
 */
import { zid } from "convex-helpers/server/zod4";
import { paginationOptsValidator, paginationResultValidator } from "convex/server";
import { v } from "convex/values";
import { z } from "zod";
import { internal } from "./_generated/api";
import { internalAction, internalQuery } from "./_generated/server";
import { internalMutation, mutation, query, zMutation } from "./functions";
import {
  fieldErrors,
  liftRestrictionSchema,
  privacyDecisionSchema,
  privacyRequestSchema,
  profileCorrectionSchema,
  shopTextCorrectionSchema,
  streamTextCorrectionSchema,
} from "./lib/validation";
import {
  correctionSubjectValidator,
  correctProfile as correctProfileFor,
  correctShopText as correctShopTextFor,
  correctStreamText as correctStreamTextFor,
  readCorrectionSubject,
} from "./model/corrections";
import {
  asCompleted,
  buildExportDocument,
  collectUserData,
  completeDataExport as completeDataExportRow,
  expireDataExport as expireDataExportRow,
  findDownloadableExport,
  readUserDataPage as readUserDataPageRows,
} from "./model/dataExport";
import { clerkSecretKey } from "./model/env";
import { appError } from "./model/errors";
import {
  cancelPrivacyRequest as cancelRequest,
  createPrivacyRequest,
  decidedRequestValidator,
  decidePrivacyRequest as decideRequest,
  isOpenStatus,
  liftRestriction as liftUserRestriction,
  listOpenRequests as listOpenRequestRows,
  myPrivacyValidator,
  openRequestValidator,
  readMyPrivacy,
  restrictedUserValidator,
  RESTRICTED_USERS_LIMIT,
  toDecidedView,
} from "./model/privacy";
import { findUsersByEmailPrefix, getUserByClerkId } from "./model/users";
import { EMPTY_PAGE } from "./model/pages";
import { limitRate } from "./model/rateLimits";

/**
 * Checks a rule that spans fields (zMutation checks each field): the same INVALID_ARGUMENT with `fields`
 * that zMutation throws, so the form shows the message beside the field.
 */
function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const message = parsed.error.issues[0]?.message ?? "Check the highlighted fields.";
  throw appError("INVALID_ARGUMENT", message, { fields: fieldErrors(parsed.error) });
}

function assertAdmin(viewer: { role: string }): void {
  if (viewer.role !== "admin") throw appError("FORBIDDEN", "Only an admin can do this.");
}

// ---------------------------------------------------------------------------------------------------
// The person's side

/** The caller's open request, their history (newest first), their unexpired export and restriction. */
export const myPrivacy = query({
  args: {},
  returns: myPrivacyValidator,
  handler: async (ctx) => (ctx.viewer ? await readMyPrivacy(ctx, ctx.viewer, Date.now()) : null),
});

/** Asks for an export, a deletion, a correction (saying what) or a restriction; one open at a time. */
export const requestPrivacy = zMutation({
  args: privacyRequestSchema.shape,
  returns: v.id("privacyRequests"),
  handler: async (ctx, args) => {
    const { type, reason, details } = parseOrThrow(privacyRequestSchema, args);
    await limitRate(ctx, "privacyRequest", ctx.viewer._id);
    return await createPrivacyRequest(ctx, ctx.viewer, { type, reason, details });
  },
});

/** Withdraws the caller's own open request (not one already approved and in progress). */
export const cancelPrivacyRequest = mutation({
  args: { requestId: v.id("privacyRequests") },
  returns: v.null(),
  handler: async (ctx, { requestId }) => {
    await cancelRequest(ctx, ctx.viewer, requestId);
    return null;
  },
});

// ---------------------------------------------------------------------------------------------------
// Admins

/** Admins: every open request, oldest first (the most urgent on top), with its person. */
export const listOpenRequests = query({
  args: {},
  returns: v.array(openRequestValidator),
  handler: async (ctx) => (ctx.viewer?.role === "admin" ? await listOpenRequestRows(ctx) : []),
});

/** Admins: closed requests (decided, or withdrawn by their person), newest first. */
export const listDecidedRequests = query({
  args: { paginationOpts: paginationOptsValidator },
  returns: paginationResultValidator(decidedRequestValidator),
  handler: async (ctx, { paginationOpts }) => {
    if (ctx.viewer?.role !== "admin") return EMPTY_PAGE;
    const result = await ctx.db
      .query("privacyRequests")
      .withIndex("by_decidedAt", (q) => q.gt("decidedAt", 0))
      .order("desc")
      .paginate(paginationOpts);
    // An approved export still being built is open (listOpenRequests) until its file exists.
    const closed = result.page.filter((row) => !isOpenStatus(row.status));
    return { ...result, page: await Promise.all(closed.map((row) => toDecidedView(ctx, row))) };
  },
});

/** People a request search looks at, and requests listed per person (their latest). */
const SEARCH_PEOPLE_LIMIT = 10;
const SEARCH_REQUESTS_PER_PERSON = 10;

/**
 * Admins: the requests (open and closed, newest first) of the people whose email starts with `email`,
 * at most SEARCH_PEOPLE_LIMIT people and SEARCH_REQUESTS_PER_PERSON requests each. Empty for anyone else.
 */
export const searchRequests = query({
  args: { email: v.string() },
  returns: v.array(decidedRequestValidator),
  handler: async (ctx, { email }) => {
    if (ctx.viewer?.role !== "admin") return [];
    const people = await findUsersByEmailPrefix(ctx, email.trim().slice(0, 100), SEARCH_PEOPLE_LIMIT);
    const rows = [];
    for (const person of people) {
      rows.push(
        ...(await ctx.db
          .query("privacyRequests")
          .withIndex("by_userId_and_requestedAt", (q) => q.eq("userId", person._id))
          .order("desc")
          .take(SEARCH_REQUESTS_PER_PERSON)),
      );
    }
    rows.sort((a, b) => b.requestedAt - a.requestedAt);
    return await Promise.all(rows.map((row) => toDecidedView(ctx, row)));
  },
});

/** Requests one bulk approval takes. */
export const BULK_EXPORT_LIMIT = 25;

/**
 * Admins: approves the chosen data-export requests at once, each as a single approval would (its export
 * is built, the decision logged). Only open export requests not yet approved are taken; the others are
 * listed with why. Deletions, corrections and restrictions are decided one by one.
 */
export const approveExports = zMutation({
  args: { requestIds: z.array(zid("privacyRequests")) },
  returns: v.object({
    approved: v.array(v.id("privacyRequests")),
    skipped: v.array(v.object({ id: v.id("privacyRequests"), reason: v.string() })),
  }),
  handler: async (ctx, { requestIds }) => {
    assertAdmin(ctx.viewer);
    const ids = [...new Set(requestIds)];
    if (ids.length > BULK_EXPORT_LIMIT) {
      throw appError("INVALID_ARGUMENT", `Approve at most ${BULK_EXPORT_LIMIT} requests at once.`);
    }
    const approved = [];
    const skipped = [];
    for (const requestId of ids) {
      const request = await ctx.db.get("privacyRequests", requestId);
      const person = request?.userId && (await ctx.db.get("users", request.userId));
      const reason = !request
        ? "This request does not exist."
        : request.type !== "access"
          ? "Only data exports are approved together; decide this one on its own."
          : request.status !== "pending_export" || request.decidedAt !== undefined
            ? "This request has already been answered."
            : !person
              ? "The person who made this request no longer has an account."
              : undefined;
      if (reason !== undefined) {
        skipped.push({ id: requestId, reason });
        continue;
      }
      await decideRequest(ctx, ctx.viewer, requestId, "approve", undefined);
      approved.push(requestId);
    }
    return { approved, skipped };
  },
});

/** Admins: the users whose processing is restricted, longest restricted first. */
export const listRestrictedUsers = query({
  args: {},
  returns: v.array(restrictedUserValidator),
  handler: async (ctx) => {
    if (ctx.viewer?.role !== "admin") return [];
    const users = await ctx.db
      .query("users")
      .withIndex("by_restrictedAt", (q) => q.gt("restrictedAt", 0))
      .take(RESTRICTED_USERS_LIMIT);
    return users.flatMap(({ _id, name, email, restrictedAt }) =>
      restrictedAt === undefined ? [] : [{ _id, name, email, restrictedAt }],
    );
  },
});

/**
 * Admins: approves or rejects an open request. A reason is required to reject (the person reads it) and
 * to approve a correction (what was changed).
 */
export const decidePrivacyRequest = zMutation({
  args: { requestId: zid("privacyRequests"), ...privacyDecisionSchema.shape },
  returns: v.null(),
  handler: async (ctx, { requestId, ...answer }) => {
    assertAdmin(ctx.viewer);
    const { decision, reason } = parseOrThrow(privacyDecisionSchema, answer);
    await decideRequest(ctx, ctx.viewer, requestId, decision, reason);
    return null;
  },
});

/**
 * Admins: a correction request with what may be corrected for it: the person's profile, their shops'
 * text and their latest shows' text, and the changes made so far. Null for anyone else, and for a
 * request that is not a correction or whose person is gone.
 */
export const getCorrection = query({
  args: { requestId: v.id("privacyRequests") },
  returns: v.union(correctionSubjectValidator, v.null()),
  handler: async (ctx, { requestId }) =>
    ctx.viewer?.role === "admin" ? await readCorrectionSubject(ctx, requestId) : null,
});

/**
 * Admins, for an open correction request: corrects the person's name, email (where Clerk does not
 * manage it) and picture. Kept on the request for the person and logged. Returns how many fields changed.
 */
export const correctProfile = zMutation({
  args: { requestId: zid("privacyRequests"), profile: profileCorrectionSchema },
  returns: v.number(),
  handler: async (ctx, { requestId, profile }) => {
    assertAdmin(ctx.viewer);
    return await correctProfileFor(ctx, ctx.viewer, requestId, profile);
  },
});

/** Admins, for an open correction request: corrects the text of one of the person's shops. */
export const correctShopText = zMutation({
  args: { requestId: zid("privacyRequests"), liveShopId: zid("liveShops"), shop: shopTextCorrectionSchema },
  returns: v.number(),
  handler: async (ctx, { requestId, liveShopId, shop }) => {
    assertAdmin(ctx.viewer);
    return await correctShopTextFor(ctx, ctx.viewer, requestId, liveShopId, shop);
  },
});

/** Admins, for an open correction request: corrects the title and description of one of the person's shows. */
export const correctStreamText = zMutation({
  args: { requestId: zid("privacyRequests"), streamId: zid("streams"), stream: streamTextCorrectionSchema },
  returns: v.number(),
  handler: async (ctx, { requestId, streamId, stream }) => {
    assertAdmin(ctx.viewer);
    return await correctStreamTextFor(ctx, ctx.viewer, requestId, streamId, stream);
  },
});

/** Admins: lifts a user's restriction; their shops and streams return where their status allows. */
export const liftRestriction = zMutation({
  args: { userId: zid("users"), ...liftRestrictionSchema.shape },
  returns: v.null(),
  handler: async (ctx, { userId, reason }) => {
    assertAdmin(ctx.viewer);
    await liftUserRestriction(ctx, ctx.viewer, userId, reason);
    return null;
  },
});

// ---------------------------------------------------------------------------------------------------
// The export (model/dataExport.ts)

/** The user an approved access request's export is for, or null when there is nothing to build. */
export const exportTarget = internalQuery({
  args: { requestId: v.id("privacyRequests") },
  returns: v.union(v.id("users"), v.null()),
  handler: async (ctx, { requestId }) => {
    const request = await ctx.db.get("privacyRequests", requestId);
    if (!request?.userId || request.status !== "pending_export" || request.type !== "access") return null;
    return (await ctx.db.get("users", request.userId)) ? request.userId : null;
  },
});

const tableNameValidator = v.string();

export const readUserDataPage = internalQuery({
  args: {
    table: tableNameValidator,
    finder: v.number(),
    id: v.string(),
    cursor: v.union(v.string(), v.null()),
  },
  returns: v.object({ page: v.array(v.any()), isDone: v.boolean(), continueCursor: v.string() }),
  handler: async (ctx, { table, ...request }) =>
    // The action passes names from USER_DATA; `readUserDataPage` refuses any other.
    await readUserDataPageRows(ctx, {
      table: table as Parameters<typeof readUserDataPageRows>[1]["table"],
      ...request,
    }),
});

/** Builds and stores the export of an approved access request, a page of rows at a time. */
export const buildDataExport = internalAction({
  args: { requestId: v.id("privacyRequests") },
  returns: v.null(),
  handler: async (ctx, { requestId }) => {
    const userId = await ctx.runQuery(internal.privacy.exportTarget, { requestId });
    if (userId === null) return null;
    const { tables } = await collectUserData(
      async (request) => await ctx.runQuery(internal.privacy.readUserDataPage, request),
      userId,
    );
    const now = Date.now();
    const json = buildExportDocument(userId, asCompleted(tables, userId, requestId, now), now);
    const blob = new Blob([json], { type: "application/json" });
    const storageId = await ctx.storage.store(blob);
    await ctx.runMutation(internal.privacy.completeDataExport, {
      requestId,
      storageId,
      byteLength: blob.size,
      completedAt: now,
    });
    return null;
  },
});

export const completeDataExport = internalMutation({
  args: {
    requestId: v.id("privacyRequests"),
    storageId: v.id("_storage"),
    byteLength: v.number(),
    // The time the file was written with (`asCompleted`), so the rows and the file agree.
    completedAt: v.optional(v.number()),
  },
  returns: v.boolean(),
  handler: async (ctx, { requestId, storageId, byteLength, completedAt }) =>
    await completeDataExportRow(ctx, requestId, storageId, byteLength, completedAt),
});

export const expireDataExport = internalMutation({
  args: { dataExportId: v.id("dataExports") },
  returns: v.null(),
  handler: async (ctx, { dataExportId }) => {
    await expireDataExportRow(ctx, dataExportId);
    return null;
  },
});

/** For `GET /privacy/export`: the signed-in caller's unexpired export, or null. */
export const downloadableExport = internalQuery({
  args: { clerkId: v.string(), now: v.number() },
  returns: v.union(v.object({ storageId: v.id("_storage"), createdAt: v.number() }), v.null()),
  handler: async (ctx, { clerkId, now }) => {
    const user = await getUserByClerkId(ctx, clerkId);
    const row = user && (await findDownloadableExport(ctx, user._id, now));
    return row ? { storageId: row.storageId, createdAt: row.createdAt } : null;
  },
});

// ---------------------------------------------------------------------------------------------------
// Deletion follow-ups

/** Tries over about a day: Clerk may be briefly unreachable or rate-limit (429). */
const CLERK_DELETE_RETRIES_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 12 * 3_600_000];

/**
 * Deletes the Clerk user of a deleted account through Clerk's Backend API. A user Clerk no longer has
 * (404) counts as deleted; other failures are retried later, then reported in the logs.
 */
export const deleteClerkUser = internalAction({
  args: { clerkId: v.string(), attempt: v.number() },
  returns: v.null(),
  handler: async (ctx, { clerkId, attempt }) => {
    const secret = clerkSecretKey();
    if (secret === undefined) return null;
    let failure: string;
    try {
      const response = await fetch(`https://api.clerk.com/v1/users/${encodeURIComponent(clerkId)}`, {
        method: "DELETE",
        headers: { Authorization: `Bearer ${secret}` },
      });
      if (response.ok || response.status === 404) return null;
      failure = `HTTP ${response.status}`;
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
    const delay = CLERK_DELETE_RETRIES_MS[attempt];
    if (delay === undefined) {
      console.error(`Could not delete Clerk user ${clerkId} (${failure}); delete it in Clerk's dashboard.`);
      return null;
    }
    console.warn(`Deleting Clerk user ${clerkId} failed (${failure}); retrying.`);
    await ctx.scheduler.runAfter(delay, internal.privacy.deleteClerkUser, { clerkId, attempt: attempt + 1 });
    return null;
  },
});
