/**
 * The only builders public functions use: each gives the handler its caller. Lint forbids importing the
 * raw `query`/`mutation`/`action` from `_generated/server` anywhere else (eslint.config.js).
 *
 * Queries degrade: `ctx.viewer` is null for a signed-out caller and the handler returns an empty result.
 * Mutations throw a ConvexError with a code and a sentence.
 */
import { customCtx, customMutation, customQuery } from "convex-helpers/server/customFunctions";
import type { UserIdentity } from "convex/server";
import { mutation as rawMutation, query as rawQuery } from "./_generated/server";
import { appError } from "./model/errors";
import { getViewer, getViewerOrThrow } from "./model/viewer";

/** Anyone may call. `ctx.viewer` is the signed-in caller's user row, or null. */
export const query = customQuery(
  rawQuery,
  customCtx(async (ctx) => ({ viewer: await getViewer(ctx) })),
);

/** A signed-in caller with a user row: `ctx.viewer`. */
export const mutation = customMutation(
  rawMutation,
  customCtx(async (ctx) => ({ viewer: await getViewerOrThrow(ctx) })),
);

/** An admin: `ctx.viewer` has role admin. */
export const adminMutation = customMutation(
  rawMutation,
  customCtx(async (ctx) => {
    const viewer = await getViewerOrThrow(ctx);
    if (viewer.role !== "admin") throw appError("FORBIDDEN", "Only an admin can do this.");
    return { viewer };
  }),
);

/**
 * A caller with a valid sign-in token who may not have a user row yet (the row is created from the
 * token by `users.ensureUser`): `ctx.identity`.
 */
export const identityMutation = customMutation(
  rawMutation,
  customCtx(async (ctx): Promise<{ identity: UserIdentity }> => {
    const identity = await ctx.auth.getUserIdentity();
    if (!identity) throw appError("UNAUTHENTICATED", "Sign in to continue.");
    return { identity };
  }),
);
