/**
 * Local mode only: the embedded backend asks this before it issues a sign-in token
 * (`POST /local-auth/token`, local-backend/api/dev-sign-in.ts), so a script minting tokens in a loop is stopped
 * by the same rate limiter as the app's mutations. On Convex with Clerk nothing calls it.
 */
import { v } from "convex/values";
import { internalMutation } from "./functions";
import { takeRate } from "./model/rateLimits";

export const limitSignIn = internalMutation({
  args: { key: v.string() },
  returns: v.object({ ok: v.boolean(), retryAfterMs: v.union(v.number(), v.null()) }),
  handler: async (ctx, { key }) => await takeRate(ctx, "localSignIn", key),
});
