/** A mutation behind @convex-dev/rate-limiter: two sends a minute per channel (components.test.ts). */
import { MINUTE, RateLimiter } from "@convex-dev/rate-limiter";
import type { ComponentApi } from "@convex-dev/rate-limiter/_generated/component.js";
import { componentsGeneric } from "convex/server";
import { ConvexError, v } from "convex/values";
import { mutation } from "./_generated/server";

const components = componentsGeneric() as unknown as { rateLimiter: ComponentApi<"rateLimiter"> };
const limiter = new RateLimiter(components.rateLimiter, {
  send: { kind: "token bucket", rate: 2, period: MINUTE, capacity: 2 },
});

export const send = mutation({
  args: { channel: v.string(), body: v.string() },
  handler: async (ctx, { channel, body }) => {
    const status = await limiter.limit(ctx, "send", { key: channel });
    if (!status.ok)
      throw new ConvexError({ code: "RATE_LIMITED", retryAfterMs: Math.ceil(status.retryAfter) });
    return await ctx.db.insert("messages", { channel, author: "limited", body, rank: 0 });
  },
});
