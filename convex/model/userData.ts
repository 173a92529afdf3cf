/**
 * Where the rows about one user are, table by table: the one map both the data export (GDPR articles 15
 * and 20, model/dataExport.ts) and the deletion check (model/userData.test.ts: after an approved
 * deletion none of these finds anything) read. It is typed over every table of the schema, so adding a
 * table without deciding here whether it holds rows about a person does not compile.
 *
 * Rows are found by the user's id, then by the ids of the user's shops, their shops' streams and the
 * user's privacy requests, in that order (`KEY_KINDS`): each kind's ids are known once the rows of the
 * kind before it are read. Rows about someone else are never found: other people's watch-list entries
 * and follows of this user's streams and shops are theirs (found by `userId` only), and what an admin
 * did to this user is exported without the admin's identity (`exported`).
 */
import type { PaginationOptions, PaginationResult } from "convex/server";
import type { Doc, Id, TableNames } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";

/** The ids rows about a user are found by; grown as the export reads. */
export type UserScope = {
  userId: Id<"users">;
  liveShopIds: Id<"liveShops">[];
  streamIds: Id<"streams">[];
  privacyRequestIds: Id<"privacyRequests">[];
};

export const KEY_KINDS = ["user", "liveShop", "stream", "privacyRequest"] as const;
export type KeyKind = (typeof KEY_KINDS)[number];

type KeyIds = {
  user: Id<"users">;
  liveShop: Id<"liveShops">;
  stream: Id<"streams">;
  privacyRequest: Id<"privacyRequests">;
};

/** The scope's ids of one kind. */
export function scopeIds<K extends KeyKind>(scope: UserScope, kind: K): KeyIds[K][] {
  const ids: { [Kind in KeyKind]: KeyIds[Kind][] } = {
    user: [scope.userId],
    liveShop: scope.liveShopIds,
    stream: scope.streamIds,
    privacyRequest: scope.privacyRequestIds,
  };
  return ids[kind];
}

type Finder<T extends TableNames, K extends KeyKind> = {
  by: K;
  /** One page of the rows of this table keyed by `id`, in a stable order. */
  page: (
    ctx: QueryCtx,
    id: KeyIds[K],
    paginationOpts: PaginationOptions,
  ) => Promise<PaginationResult<Doc<T>>>;
};
export type AnyFinder<T extends TableNames> = { [K in KeyKind]: Finder<T, K> }[KeyKind];

export type UserDataEntry<T extends TableNames> =
  | {
      about: "the user";
      find: AnyFinder<T>[];
      /** What the export holds of a row: all of it unless this says otherwise. */
      exported?: (row: Doc<T>, scope: UserScope) => Partial<Doc<T>>;
    }
  | {
      /** "reference": the same for everyone; "copies": derived from rows exported in full elsewhere; "nobody": no user's id. */
      about: "reference" | "copies" | "nobody";
      why: string;
    };

function finder<T extends TableNames, K extends KeyKind>(by: K, page: Finder<T, K>["page"]): Finder<T, K> {
  return { by, page };
}

/** A single row as a page, for a table found by the row's own id. */
function onePage<Row>(row: Row | null): PaginationResult<Row> {
  return { page: row ? [row] : [], isDone: true, continueCursor: "" };
}

/** Whether an admin-log entry's target is the user or one of the user's rows. */
function targetsUser(row: Doc<"adminActions">, scope: UserScope): boolean {
  switch (row.targetTable) {
    case "users":
      return row.targetId === scope.userId;
    case "liveShops":
      return (scope.liveShopIds as string[]).includes(row.targetId);
    case "streams":
      return (scope.streamIds as string[]).includes(row.targetId);
    case "privacyRequests":
      return (scope.privacyRequestIds as string[]).includes(row.targetId);
    default:
      return false;
  }
}

function adminActionsTargeting<K extends "user" | "liveShop" | "stream" | "privacyRequest">(by: K) {
  return finder<"adminActions", K>(
    by,
    async (ctx, id, paginationOpts) =>
      await ctx.db
        .query("adminActions")
        .withIndex("by_targetId", (q) => q.eq("targetId", id))
        .paginate(paginationOpts),
  );
}

export const USER_DATA: { [T in TableNames]: UserDataEntry<T> } = {
  users: {
    about: "the user",
    find: [
      finder<"users", "user">("user", async (ctx, userId) => onePage(await ctx.db.get("users", userId))),
    ],
  },
  liveShops: {
    about: "the user",
    find: [
      finder("user", async (ctx, userId, paginationOpts) =>
        ctx.db
          .query("liveShops")
          .withIndex("by_userId", (q) => q.eq("userId", userId))
          .paginate(paginationOpts),
      ),
    ],
  },
  streams: {
    about: "the user",
    find: [
      finder("liveShop", async (ctx, liveShopId, paginationOpts) =>
        ctx.db
          .query("streams")
          .withIndex("by_liveShopId", (q) => q.eq("liveShopId", liveShopId))
          .paginate(paginationOpts),
      ),
    ],
  },
  liveShopStreams: {
    about: "the user",
    find: [
      finder("liveShop", async (ctx, liveShopId, paginationOpts) =>
        ctx.db
          .query("liveShopStreams")
          .withIndex("by_liveShopId_and_streamId", (q) => q.eq("liveShopId", liveShopId))
          .paginate(paginationOpts),
      ),
    ],
  },
  streamPlatforms: {
    about: "the user",
    find: [
      finder("stream", async (ctx, streamId, paginationOpts) =>
        ctx.db
          .query("streamPlatforms")
          .withIndex("by_streamId_and_platformType", (q) => q.eq("streamId", streamId))
          .paginate(paginationOpts),
      ),
    ],
  },
  categories: { about: "reference", why: "The category tree, the same for everyone." },
  liveShopCategories: {
    about: "the user",
    find: [
      finder("liveShop", async (ctx, liveShopId, paginationOpts) =>
        ctx.db
          .query("liveShopCategories")
          .withIndex("by_liveShopId_and_categoryId", (q) => q.eq("liveShopId", liveShopId))
          .paginate(paginationOpts),
      ),
    ],
  },
  streamCategories: {
    about: "the user",
    find: [
      finder("stream", async (ctx, streamId, paginationOpts) =>
        ctx.db
          .query("streamCategories")
          .withIndex("by_streamId_and_categoryId", (q) => q.eq("streamId", streamId))
          .paginate(paginationOpts),
      ),
    ],
  },
  msas: { about: "reference", why: "The US metro areas, the same for everyone." },
  liveShopMsas: {
    about: "the user",
    find: [
      finder("liveShop", async (ctx, liveShopId, paginationOpts) =>
        ctx.db
          .query("liveShopMsas")
          .withIndex("by_liveShopId_and_msaId", (q) => q.eq("liveShopId", liveShopId))
          .paginate(paginationOpts),
      ),
    ],
  },
  streamMsas: {
    about: "the user",
    find: [
      finder("stream", async (ctx, streamId, paginationOpts) =>
        ctx.db
          .query("streamMsas")
          .withIndex("by_streamId_and_msaId", (q) => q.eq("streamId", streamId))
          .paginate(paginationOpts),
      ),
    ],
  },
  // Only the user's own: other people's saves of this user's streams are about those people.
  savedStreams: {
    about: "the user",
    find: [
      finder("user", async (ctx, userId, paginationOpts) =>
        ctx.db
          .query("savedStreams")
          .withIndex("by_userId_and_streamId", (q) => q.eq("userId", userId))
          .paginate(paginationOpts),
      ),
    ],
  },
  shopFollows: {
    about: "the user",
    find: [
      finder("user", async (ctx, userId, paginationOpts) =>
        ctx.db
          .query("shopFollows")
          .withIndex("by_userId_and_liveShopId", (q) => q.eq("userId", userId))
          .paginate(paginationOpts),
      ),
    ],
  },
  goLiveAlerts: {
    about: "the user",
    find: [
      finder("user", async (ctx, userId, paginationOpts) =>
        ctx.db
          .query("goLiveAlerts")
          .withIndex("by_userId_and_claimedAt", (q) => q.eq("userId", userId))
          .paginate(paginationOpts),
      ),
    ],
  },
  notifications: {
    about: "the user",
    find: [
      finder("user", async (ctx, userId, paginationOpts) =>
        ctx.db
          .query("notifications")
          .withIndex("by_userId_and_eventKey_and_channel", (q) => q.eq("userId", userId))
          .paginate(paginationOpts),
      ),
    ],
  },
  pushSubscriptions: {
    about: "the user",
    find: [
      finder("user", async (ctx, userId, paginationOpts) =>
        ctx.db
          .query("pushSubscriptions")
          .withIndex("by_userId", (q) => q.eq("userId", userId))
          .paginate(paginationOpts),
      ),
    ],
    // The endpoint and keys let anyone push to the device: not in a file that is kept.
    exported: ({ endpoint: _endpoint, p256dh: _p256dh, auth: _auth, ...rest }) => rest,
  },
  localInbox: {
    about: "the user",
    find: [
      finder("user", async (ctx, userId, paginationOpts) =>
        ctx.db
          .query("localInbox")
          .withIndex("by_userId_and_createdAt", (q) => q.eq("userId", userId))
          .paginate(paginationOpts),
      ),
    ],
  },
  calendarFeeds: {
    about: "the user",
    find: [
      finder("user", async (ctx, userId, paginationOpts) =>
        ctx.db
          .query("calendarFeeds")
          .withIndex("by_userId", (q) => q.eq("userId", userId))
          .paginate(paginationOpts),
      ),
    ],
    // The token is a live credential: a file that is downloaded and kept must not hold it.
    exported: ({ token: _token, ...rest }) => rest,
  },
  privacyRequests: {
    about: "the user",
    find: [
      finder("user", async (ctx, userId, paginationOpts) =>
        ctx.db
          .query("privacyRequests")
          .withIndex("by_userId_and_requestedAt", (q) => q.eq("userId", userId))
          .paginate(paginationOpts),
      ),
    ],
    // The decision, not which admin took it (unless the user decided it themselves).
    exported: (row, scope) => {
      const { decidedBy, ...rest } = row;
      return decidedBy === scope.userId ? row : rest;
    },
  },
  dataExports: {
    about: "the user",
    find: [
      finder("user", async (ctx, userId, paginationOpts) =>
        ctx.db
          .query("dataExports")
          .withIndex("by_userId", (q) => q.eq("userId", userId))
          .paginate(paginationOpts),
      ),
    ],
  },
  // What the user did as an admin, and what admins did to the user and their shops, streams and
  // requests. Another person's identity stays out: the acting admin's on entries about the user, the
  // target's on entries the user took about someone else.
  adminActions: {
    about: "the user",
    find: [
      finder("user", async (ctx, userId, paginationOpts) =>
        ctx.db
          .query("adminActions")
          .withIndex("by_adminId", (q) => q.eq("adminId", userId))
          .paginate(paginationOpts),
      ),
      adminActionsTargeting("user"),
      adminActionsTargeting("liveShop"),
      adminActionsTargeting("stream"),
      adminActionsTargeting("privacyRequest"),
    ],
    exported: (row, scope) => {
      const { adminId, adminName, targetId, targetLabel, ...rest } = row;
      return {
        ...rest,
        ...(adminId === scope.userId && { adminId, adminName }),
        ...(targetsUser(row, scope) && { targetId, targetLabel }),
      };
    },
  },
  imageUploads: {
    about: "the user",
    find: [
      finder("user", async (ctx, userId, paginationOpts) =>
        ctx.db
          .query("imageUploads")
          .withIndex("by_userId", (q) => q.eq("userId", userId))
          .paginate(paginationOpts),
      ),
    ],
  },
  unclaimedUploads: {
    about: "the user",
    find: [
      finder("user", async (ctx, userId, paginationOpts) =>
        ctx.db
          .query("unclaimedUploads")
          .withIndex("by_uploaderId", (q) => q.eq("uploaderId", userId))
          .paginate(paginationOpts),
      ),
    ],
  },
  deletedClerkUsers: {
    about: "nobody",
    why: "Only the sign-in ids of accounts already deleted, so they cannot come back.",
  },
  webhookDeliveries: {
    about: "nobody",
    why: "Which Clerk webhook deliveries were applied: ids and event types.",
  },
  insightHours: {
    about: "the user",
    find: [
      finder("liveShop", async (ctx, liveShopId, paginationOpts) =>
        ctx.db
          .query("insightHours")
          .withIndex("by_liveShopId_and_hourStart", (q) => q.eq("liveShopId", liveShopId))
          .paginate(paginationOpts),
      ),
    ],
  },
  insightSecrets: {
    about: "nobody",
    why: "The secret of the current hour that visitor keys are made with, deleted when the hour is over.",
  },
  insightVisitors: {
    about: "nobody",
    why: "Keyed hashes of anonymous visitor tokens for the current hour, linked to no one, deleted after it.",
  },
  streamListings: {
    about: "copies",
    why: "Explore's copies of public streams, made from the streams and links exported above.",
  },
  shopListings: {
    about: "copies",
    why: "Explore's copies of public shops, made from the shops and links exported above.",
  },
  mapAreas: { about: "nobody", why: "The live map's counts of shows per metro area, no one's id." },
  mapAreaDays: {
    about: "nobody",
    why: "The live map's counts of shows per metro area and day, no one's id.",
  },
};

/** The tables holding rows about a person, with their finders. */
export function personalTables(): {
  table: TableNames;
  entry: Extract<UserDataEntry<TableNames>, { about: "the user" }>;
}[] {
  return (Object.entries(USER_DATA) as [TableNames, UserDataEntry<TableNames>][]).flatMap(([table, entry]) =>
    entry.about === "the user" ? [{ table, entry }] : [],
  );
}

/** One table's entry, typed loosely for callers that hold the table's name as a string. */
export function userDataEntry(table: TableNames): UserDataEntry<TableNames> {
  return USER_DATA[table] as UserDataEntry<TableNames>;
}

/** What the export holds of one row. */
export function exportedRow(table: TableNames, row: Doc<TableNames>, scope: UserScope): object {
  const entry = userDataEntry(table);
  return entry.about === "the user" && entry.exported ? entry.exported(row, scope) : row;
}

/** The ids a row adds to the scope: a user's shops, streams and privacy requests key further rows. */
export function extendScope(scope: UserScope, table: TableNames, row: Doc<TableNames>): void {
  if (table === "liveShops") scope.liveShopIds.push(row._id as Id<"liveShops">);
  if (table === "streams") scope.streamIds.push(row._id as Id<"streams">);
  if (table === "privacyRequests") scope.privacyRequestIds.push(row._id as Id<"privacyRequests">);
}
