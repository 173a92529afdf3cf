/// <reference types="vite/client" />
import rateLimiter from "@convex-dev/rate-limiter/test";
import { convexTest } from "convex-test";
import { insertLiveShop } from "./model/liveShops";
import { insertUser } from "./model/users";
import schema from "./schema";

/**
 * Every module of the functions folder, as convex-test needs them. Not auth.config.ts: Convex reads it
 * when pushing, not as functions, and it throws without an issuer set (decision 007; its own test).
 */
export const modules = import.meta.glob([
  "./**/*.ts",
  "./**/*.js",
  "!./**/*.test.ts",
  "!./**/*.d.ts",
  "!./test.setup.ts",
  "!./auth.config.ts",
]);

/**
 * A fresh backend per test, with Convex's per-transaction limits enforced as in production and the
 * components of convex.config.ts registered.
 */
export function newTest() {
  const t = convexTest({ schema, modules, transactionLimits: true });
  rateLimiter.register(t);
  return t;
}

type TestCtx = Parameters<Parameters<ReturnType<typeof newTest>["run"]>[0]>[0];

/** A seller with one shop, the usual starting point of shop and stream tests. */
export async function createSellerWithShop(
  ctx: TestCtx,
  overrides: { clerkId?: string; email?: string; slug?: string; liveShopName?: string } = {},
) {
  const userId = await insertUser(ctx, {
    clerkId: overrides.clerkId ?? "user_sarah",
    email: overrides.email ?? "sarah@livelocal.test",
    name: "Sarah",
    role: "seller",
  });
  const liveShopId = await insertLiveShop(ctx, {
    userId,
    liveShopName: overrides.liveShopName ?? "Sarah's Vintage",
    slug: overrides.slug ?? "sarahs-vintage",
  });
  return { userId, liveShopId };
}
