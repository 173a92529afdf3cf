/**
 * Turning the private calendar feed on and off (model/calendarFeed.ts). The feed itself is served by
 * the HTTP action `GET /calendar/<token>.ics` (convex/http.ts).
 */
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalQuery } from "./_generated/server";
import { identityAction, internalMutation, mutation, query } from "./functions";
import { LIMITS } from "./lib/limits";
import {
  checkAppOrigin,
  deleteFeeds,
  listFeedRows,
  newFeedToken,
  readFeed,
  replaceFeed,
} from "./model/calendarFeed";
import { streamStatusValidator } from "./schema";
import { appOrigins } from "./model/env";
import { appError } from "./model/errors";
import { getUserByClerkId } from "./model/users";
import { limitRate } from "./model/rateLimits";

/** The caller's feed token (the browser builds the address), or `token: null` while it is off. */
export const myFeed = query({
  args: {},
  returns: v.union(
    v.object({ token: v.union(v.string(), v.null()), createdAt: v.union(v.number(), v.null()) }),
    v.null(),
  ),
  handler: async (ctx) => {
    if (!ctx.viewer) return null;
    const [feed] = await listFeedRows(ctx, ctx.viewer._id);
    return { token: feed?.token ?? null, createdAt: feed?.createdAt ?? null };
  },
});

/**
 * Turns the feed on, or gives it a new address (the old one stops working). `appOrigin` is the app's
 * address the events link back to (`location.origin`): http(s), and one of APP_ORIGINS when set.
 */
export const turnOn = identityAction({
  args: { appOrigin: v.string() },
  returns: v.object({ token: v.string() }),
  handler: async (ctx, { appOrigin }) => {
    if (appOrigin.length > LIMITS.url) throw appError("INVALID_ARGUMENT", "The app's address is too long.");
    const token = newFeedToken();
    await ctx.runMutation(internal.calendarFeed.storeToken, {
      clerkId: ctx.identity.subject,
      token,
      appOrigin,
    });
    return { token };
  },
});

/** The write behind `turnOn`, for the caller its action verified. */
export const storeToken = internalMutation({
  args: { clerkId: v.string(), token: v.string(), appOrigin: v.string() },
  returns: v.null(),
  handler: async (ctx, { clerkId, token, appOrigin }) => {
    const user = await getUserByClerkId(ctx, clerkId);
    if (!user)
      throw appError("UNAUTHENTICATED", "Your account is still being set up. Try again in a moment.");
    await limitRate(ctx, "calendarFeed", user._id);
    await replaceFeed(ctx, user._id, token, checkAppOrigin(appOrigin, appOrigins()));
    return null;
  },
});

/** Turns the feed off: its address stops working at once. */
export const turnOff = mutation({
  args: {},
  returns: v.null(),
  handler: async (ctx) => {
    await deleteFeeds(ctx, ctx.viewer._id);
    return null;
  },
});

/** The feed under `token` for the HTTP action, or null. */
export const feedByToken = internalQuery({
  args: { token: v.string() },
  returns: v.union(
    v.object({
      appOrigin: v.string(),
      shows: v.array(
        v.object({
          _id: v.string(),
          streamTitle: v.string(),
          streamDescription: v.optional(v.string()),
          liveShopName: v.string(),
          streamStatus: streamStatusValidator,
          streamStartUTC: v.optional(v.number()),
          streamStopUTC: v.optional(v.number()),
          streamStartedUTC: v.optional(v.number()),
          streamEndedUTC: v.optional(v.number()),
        }),
      ),
    }),
    v.null(),
  ),
  handler: async (ctx, { token }) => await readFeed(ctx, token),
});
