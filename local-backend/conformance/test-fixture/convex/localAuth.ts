/** The sign-in limit the backend asks before issuing a local token (backend.ts SIGN_IN_LIMIT): 20 a minute per address. */
import { MINUTE, RateLimiter } from "@convex-dev/rate-limiter";
import type { ComponentApi } from "@convex-dev/rate-limiter/_generated/component.js";
import { componentsGeneric } from "convex/server";
import { v } from "convex/values";
import { internalMutation } from "./_generated/server";

const components = componentsGeneric() as unknown as { rateLimiter: ComponentApi<"rateLimiter"> };
const limiter = new RateLimiter(components.rateLimiter, {
  signIn: { kind: "token bucket", rate: 20, period: MINUTE, capacity: 20 },
});

export const limitSignIn = internalMutation({
  args: { key: v.string() },
  handler: async (ctx, { key }) => {
    const status = await limiter.limit(ctx, "signIn", { key });
    return { ok: status.ok, retryAfterMs: status.ok ? null : Math.ceil(status.retryAfter) };
  },
});
