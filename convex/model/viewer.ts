import type { Doc } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import { appError } from "./errors";
import { getUserByClerkId } from "./users";

/** The signed-in caller's user row: the token's subject is the user's clerkId. */
export async function getViewer(ctx: QueryCtx): Promise<Doc<"users"> | null> {
  const identity = await ctx.auth.getUserIdentity();
  if (!identity) return null;
  return await getUserByClerkId(ctx, identity.subject);
}

export async function getViewerOrThrow(ctx: QueryCtx): Promise<Doc<"users">> {
  const identity = await ctx.auth.getUserIdentity();
  if (!identity) throw appError("UNAUTHENTICATED", "Sign in to continue.");
  const viewer = await getUserByClerkId(ctx, identity.subject);
  if (!viewer)
    throw appError("UNAUTHENTICATED", "Your account is still being set up. Try again in a moment.");
  return viewer;
}
