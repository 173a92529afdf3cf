/// <reference types="vite/client" />
import rateLimiter from "@convex-dev/rate-limiter/test";
import shardedCounter from "@convex-dev/sharded-counter/test";
import { convexTest } from "convex-test";
import { afterEach, beforeEach, vi } from "vitest";
import { internal } from "./_generated/api";
import type { Doc, Id } from "./_generated/dataModel";
import type { MutationCtx } from "./_generated/server";
import { insertLiveShop } from "./model/liveShops";
import { triggers } from "./model/triggers";
import { insertUser } from "./model/users";
import schema from "./schema";
import { trackBackend } from "./test.hooks";

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
  "!./test.hooks.ts",
  "!./auth.config.ts",
]);

/**
 * A fresh backend per test, with Convex's per-transaction limits enforced as in production and the
 * components of convex.config.ts registered. A job it runs that fails fails the test (test.hooks.ts).
 */
export function newTest() {
  const t = convexTest({ schema, modules, transactionLimits: true });
  rateLimiter.register(t);
  shardedCounter.register(t);
  trackBackend(t);
  return t;
}

type TestCtx = Parameters<Parameters<ReturnType<typeof newTest>["run"]>[0]>[0];

/** A fresh backend with the reference and demo data seeded. */
export async function newSeededTest(): Promise<ReturnType<typeof newTest>> {
  const t = newTest();
  await t.mutation(internal.seed.seedAll, {});
  return t;
}

/** Writes through the same triggers as every mutation builder of convex/functions.ts (`t.run` has none). */
export async function writeWithTriggers<T>(
  t: ReturnType<typeof newTest>,
  fn: (ctx: MutationCtx) => Promise<T>,
): Promise<T> {
  return await t.run(async (ctx) => await fn(triggers.wrapDB(ctx)));
}

/** A seller with one shop, the usual starting point of shop and stream tests. */
export async function createSellerWithShop(
  ctx: TestCtx,
  overrides: {
    clerkId?: string;
    email?: string;
    slug?: string;
    liveShopName?: string;
    status?: Doc<"liveShops">["status"];
  } = {},
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
    ...(overrides.status ? { status: overrides.status } : {}),
  });
  return { userId, liveShopId };
}

/** Documents read by `fn`, counted at Convex's syscall layer as the local backend counts them. */
export async function countDocsRead<T>(fn: () => Promise<T>): Promise<{ result: T; docsRead: number }> {
  type Layer = {
    syscall: (op: string, args: string) => string;
    asyncSyscall: (op: string, args: string) => Promise<string>;
    jsSyscall: (op: string, args: unknown) => unknown;
  };
  const g = globalThis as unknown as { Convex: Layer };
  const original = g.Convex;
  let docsRead = 0;
  g.Convex = {
    get syscall() {
      return original.syscall;
    },
    get jsSyscall() {
      return original.jsSyscall;
    },
    get asyncSyscall() {
      return async (op: string, args: string) => {
        const result = await original.asyncSyscall(op, args);
        if (op === "1.0/get" && result !== "null") docsRead++;
        if (op === "1.0/queryStreamNext" && (JSON.parse(result) as { done: boolean }).done === false)
          docsRead++;
        if (op === "1.0/queryPage") docsRead += (JSON.parse(result) as { page: unknown[] }).page.length;
        return result;
      };
    },
  };
  try {
    return { result: await fn(), docsRead };
  } finally {
    g.Convex = original;
  }
}

/** Signatures a picture's bytes start with, by type (what `pictureTypeOf` reads). */
const PICTURE_SIGNATURES: Record<string, number[]> = {
  "image/png": [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  "image/jpeg": [0xff, 0xd8, 0xff, 0xe0],
  "image/gif": [...new TextEncoder().encode("GIF89a")],
  "image/webp": [...new TextEncoder().encode("RIFF\0\0\0\0WEBPVP8 ")],
  "image/avif": [0, 0, 0, 0x1c, ...new TextEncoder().encode("ftypavif\0\0\0\0avifmif1miaf")],
};

/** A picture file of `type` and `size` bytes; each call's bytes differ, as real files' do. */
let uploads = 0;
export function pictureBytes(type = "image/png", size = 64): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  bytes.fill(++uploads % 251);
  bytes.set(PICTURE_SIGNATURES[type] ?? [], 0);
  new DataView(bytes.buffer).setUint32(size - 4, uploads);
  return bytes;
}

/** Posts `body` to the picture upload HTTP action (convex/http.ts) as `identity` (or signed out). */
export async function postUpload(
  t: ReturnType<typeof newTest>,
  identity: { subject: string; email?: string; name?: string } | null,
  body: Uint8Array<ArrayBuffer> | string,
  contentType = "image/png",
): Promise<Response> {
  const caller = identity ? t.withIdentity(identity) : t;
  return await caller.fetch("/images/upload", {
    method: "POST",
    headers: { "Content-Type": contentType, Origin: "http://localhost:5173" },
    body,
  });
}

/** Uploads a picture as `identity` the way the app does; its storage id. */
export async function uploadPicture(
  t: ReturnType<typeof newTest>,
  identity: { subject: string; email?: string; name?: string },
  { type = "image/png", size = 64 }: { type?: string; size?: number } = {},
): Promise<Id<"_storage">> {
  const response = await postUpload(t, identity, pictureBytes(type, size), type);
  if (response.status !== 200) throw new Error(`upload refused: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { storageId: Id<"_storage"> }).storageId;
}

/**
 * The environment of notification tests, around each test of the file: fake timers at `now`, a secret
 * for unsubscribe links, the local sign-in, and no Resend or VAPID keys (e-mail goes to the local
 * inbox; push sends nothing).
 */
export function withNotificationTestEnv(now: number): void {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(now);
    vi.stubEnv("NOTIFICATIONS_SECRET", "test-secret");
    vi.stubEnv("LIVELOCAL_LOCAL_AUTH_ISSUER", "https://auth.livelocal.localhost");
    // What the local backend sets: the origin it serves the app on (local-backend/host/backend.ts).
    vi.stubEnv("LIVELOCAL_APP_ORIGIN", "http://127.0.0.1:5173");
    vi.stubEnv("APP_ORIGINS", "");
    vi.stubEnv("CLERK_JWT_ISSUER_DOMAIN", "");
    vi.stubEnv("RESEND_API_KEY", "");
    vi.stubEnv("VAPID_PUBLIC_KEY", "");
    vi.stubEnv("VAPID_PRIVATE_KEY", "");
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllEnvs();
  });
}
