/**
 * The Convex components `convex.config.ts` installs, as `components` in generated code. `npx convex
 * codegen` adds this to `_generated/api` only when it can analyze the app with a deployment (`npx
 * convex dev`); offline codegen (which `npm test` checks) cannot, so the same object is made here
 * (decision 034).
 */
import type { ComponentApi as RateLimiterApi } from "@convex-dev/rate-limiter/_generated/component.js";
import type { ComponentApi as ResendApi } from "@convex-dev/resend/_generated/component.js";
import type { ComponentApi as ShardedCounterApi } from "@convex-dev/sharded-counter/_generated/component.js";
import { componentsGeneric } from "convex/server";

export const components = componentsGeneric() as unknown as {
  rateLimiter: RateLimiterApi<"rateLimiter">;
  resend: ResendApi<"resend">;
  shardedCounter: ShardedCounterApi<"shardedCounter">;
};
