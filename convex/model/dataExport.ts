/**
 * The data export of an approved access request (GDPR articles 15 and 20): one JSON document of every
 * row about the user in every table (model/userData.ts), in Convex file storage, downloadable by that
 * user alone through `GET /privacy/export` (convex/http.ts) until `expiresAt`, DATA_EXPORT_TTL_MS after
 * it was made; a job scheduled for that moment deletes file and row, and the daily retention job sweeps
 * any it missed.
 *
 * The action `privacy.buildDataExport` reads the rows a page at a time through the internal query
 * `privacy.readUserDataPage` (a big account holds more than one query may read), builds the document,
 * stores it and calls `privacy.completeDataExport`.
 */
import type { Doc, Id, TableNames } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { internal } from "../_generated/api";
import { DATA_EXPORT_TTL_MS } from "../lib/constants";
import {
  exportedRow,
  extendScope,
  KEY_KINDS,
  personalTables,
  scopeIds,
  USER_DATA,
  type UserScope,
} from "./userData";
import { insertWithTimestamps, patchWithTimestamps } from "./timestamps";

/** Rows per page read by the export: documents are small, and a page stays far below a query's limits. */
export const EXPORT_PAGE_SIZE = 100;

export type UserDataPageRequest = { table: TableNames; finder: number; id: string; cursor: string | null };
export type UserDataPage = { page: Doc<TableNames>[]; isDone: boolean; continueCursor: string };

/** One page of one finder of USER_DATA (for the internal query `privacy.readUserDataPage`). */
export async function readUserDataPage(ctx: QueryCtx, request: UserDataPageRequest): Promise<UserDataPage> {
  const entry = USER_DATA[request.table];
  if (entry?.about !== "the user") throw new Error(`${request.table} holds no rows about a user.`);
  const finder = entry.find[request.finder];
  if (!finder) throw new Error(`${request.table} has no finder ${request.finder}.`);
  const table = {
    user: "users",
    liveShop: "liveShops",
    stream: "streams",
    privacyRequest: "privacyRequests",
  } as const;
  const id = ctx.db.normalizeId(table[finder.by], request.id);
  if (id === null) throw new Error(`${request.id} is not an id of ${table[finder.by]}.`);
  const paginationOpts = { numItems: EXPORT_PAGE_SIZE, cursor: request.cursor };
  // Each finder takes the id of its own kind; `normalizeId` just checked it is one.
  const page = await (
    finder.page as (ctx: QueryCtx, id: string, opts: typeof paginationOpts) => Promise<UserDataPage>
  )(ctx, id, paginationOpts);
  return { page: page.page, isDone: page.isDone, continueCursor: page.continueCursor };
}

/**
 * Every row about the user, by table, as the export holds them. Reads by the user's id first, then by
 * their shops', streams' and requests' ids as those become known (`KEY_KINDS`); a row found twice (an
 * admin-log entry both by and about the user) is kept once.
 */
export async function collectUserData(
  readPage: (request: UserDataPageRequest) => Promise<UserDataPage>,
  userId: Id<"users">,
): Promise<{ scope: UserScope; tables: Partial<Record<TableNames, object[]>> }> {
  const scope: UserScope = { userId, liveShopIds: [], streamIds: [], privacyRequestIds: [] };
  const found = new Map<TableNames, Map<string, Doc<TableNames>>>();
  const tables = personalTables();
  for (const { table } of tables) found.set(table, new Map());
  for (const kind of KEY_KINDS) {
    for (const { table, entry } of tables) {
      const rows = found.get(table)!;
      for (const [finder, { by }] of entry.find.entries()) {
        if (by !== kind) continue;
        for (const id of [...scopeIds(scope, kind)]) {
          let cursor: string | null = null;
          for (;;) {
            const result = await readPage({ table, finder, id, cursor });
            for (const row of result.page) {
              if (rows.has(row._id)) continue;
              rows.set(row._id, row);
              extendScope(scope, table, row);
            }
            if (result.isDone) break;
            cursor = result.continueCursor;
          }
        }
      }
    }
  }
  // Projected once the scope is complete: what a row may show depends on every id of the user's.
  const exported: Partial<Record<TableNames, object[]>> = {};
  for (const { table } of tables) {
    exported[table] = [...found.get(table)!.values()].map((row) => exportedRow(table, row, scope));
  }
  return { scope, tables: exported };
}

/**
 * The tables as they stand once `completeDataExport` has run: the rows were read while the request was
 * still `pending_export`, but the file is what the user gets for a completed request, so its request and
 * the user's status say so, with the times `completeDataExport` writes (it is given the same `now`).
 */
export function asCompleted(
  tables: Partial<Record<TableNames, object[]>>,
  userId: Id<"users">,
  requestId: Id<"privacyRequests">,
  now: number,
): Partial<Record<TableNames, object[]>> {
  const withId = (row: object, id: string) => "_id" in row && row._id === id;
  return {
    ...tables,
    users: tables.users?.map((row) =>
      withId(row, userId) ? { ...row, ...completedUserFields(now), updatedAt: now } : row,
    ),
    privacyRequests: tables.privacyRequests?.map((row) =>
      withId(row, requestId) ? { ...row, status: "completed", updatedAt: now } : row,
    ),
  };
}

/** What a completed export writes on its user's row. */
function completedUserFields(now: number) {
  return { lastDataExportAt: now, gdprRequestStatus: "completed", gdprRequestCompletedAt: now } as const;
}

/** The export's JSON: machine-readable (GDPR article 20), with what each table is and what is left out. */
export function buildExportDocument(
  userId: Id<"users">,
  tables: Partial<Record<TableNames, object[]>>,
  now: number,
): string {
  const notIncluded = Object.fromEntries(
    Object.entries(USER_DATA).flatMap(([table, entry]) =>
      entry.about === "the user" ? [] : [[table, entry.why]],
    ),
  );
  return JSON.stringify(
    {
      format: "livelocal-data-export",
      version: 1,
      exportedAt: new Date(now).toISOString(),
      userId,
      about:
        "Every row LiveLocal stores about you, by table, as stored (times are milliseconds since 1970-01-01 UTC). " +
        "Entries about decisions keep what was decided, not which admin decided it.",
      tables,
      notIncluded,
    },
    null,
    2,
  );
}

/** `livelocal-data-export-YYYY-MM-DD.json`, the day (UTC) the export was made. */
export function exportFileName(createdAt: number): string {
  return `livelocal-data-export-${new Date(createdAt).toISOString().slice(0, 10)}.json`;
}

async function deleteStoredFile(ctx: MutationCtx, storageId: Id<"_storage">): Promise<void> {
  if (await ctx.db.system.get("_storage", storageId)) await ctx.storage.delete(storageId);
}

/** Deletes an export's file and row. */
export async function deleteDataExport(ctx: MutationCtx, row: Doc<"dataExports">): Promise<void> {
  await deleteStoredFile(ctx, row.storageId);
  await ctx.db.delete("dataExports", row._id);
}

/** Older exports a new one replaces: only the newest is offered. */
const REPLACED_PER_EXPORT = 10;

/**
 * Records a stored export: the request and the user's status complete, `lastDataExportAt` is set and
 * the deletion at expiry is scheduled. A file for a request no longer waiting for it (cancelled by a
 * deletion, or a second build) is deleted instead. Returns whether the export was kept.
 */
export async function completeDataExport(
  ctx: MutationCtx,
  requestId: Id<"privacyRequests">,
  storageId: Id<"_storage">,
  byteLength: number,
  now = Date.now(),
): Promise<boolean> {
  const request = await ctx.db.get("privacyRequests", requestId);
  const user = request?.userId ? await ctx.db.get("users", request.userId) : null;
  if (!request || !user || request.status !== "pending_export") {
    await deleteStoredFile(ctx, storageId);
    return false;
  }
  const older = await ctx.db
    .query("dataExports")
    .withIndex("by_userId", (q) => q.eq("userId", user._id))
    .take(REPLACED_PER_EXPORT);
  for (const row of older) await deleteDataExport(ctx, row);
  const expiresAt = now + DATA_EXPORT_TTL_MS;
  const dataExportId = await insertWithTimestamps(
    ctx,
    "dataExports",
    { userId: user._id, requestId, storageId, byteLength, expiresAt },
    now,
  );
  await patchWithTimestamps(ctx, "privacyRequests", requestId, { status: "completed" }, now);
  await patchWithTimestamps(ctx, "users", user._id, completedUserFields(now), now);
  await ctx.scheduler.runAt(expiresAt, internal.privacy.expireDataExport, { dataExportId });
  return true;
}

/** The scheduled deletion at expiry; an export already gone (replaced, or its user deleted) is fine. */
export async function expireDataExport(
  ctx: MutationCtx,
  dataExportId: Id<"dataExports">,
  now = Date.now(),
): Promise<void> {
  const row = await ctx.db.get("dataExports", dataExportId);
  if (!row) return;
  if (row.expiresAt > now) {
    await ctx.scheduler.runAt(row.expiresAt, internal.privacy.expireDataExport, { dataExportId });
    return;
  }
  await deleteDataExport(ctx, row);
}

/** Deletes up to `limit` exports past their expiry (the retention job's safety net); returns how many. */
export async function sweepExpiredExports(
  ctx: MutationCtx,
  limit: number,
  now = Date.now(),
): Promise<number> {
  const expired = await ctx.db
    .query("dataExports")
    .withIndex("by_expiresAt", (q) => q.lte("expiresAt", now))
    .take(limit);
  for (const row of expired) await deleteDataExport(ctx, row);
  return expired.length;
}

/** The user's newest unexpired export, which only they may download. */
export async function findDownloadableExport(
  ctx: QueryCtx,
  userId: Id<"users">,
  now: number,
): Promise<Doc<"dataExports"> | null> {
  const rows = await ctx.db
    .query("dataExports")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .order("desc")
    .take(REPLACED_PER_EXPORT);
  return rows.find((row) => row.expiresAt > now) ?? null;
}
