/**
 * Reading a Clerk webhook delivery: its Svix signature and the user event it carries (decision 009).
 * No database access; `convex/http.ts` hands the result to the internal mutations in `clerkUsers.ts`.
 */
import { Webhook } from "svix";
import { z } from "zod";
import { acceptedIdentityClaims, LIMITS } from "../lib/validation";

export type ClerkUserUpsert = {
  type: "user.created" | "user.updated";
  clerkId: string;
  /** The primary email address; absent when the Clerk user has none. */
  email?: string;
  name?: string;
  avatar?: string;
  /** Clerk's `updated_at`: orders events that arrive out of order. */
  clerkUpdatedAt: number;
};

export type ClerkUserDeletion = { type: "user.deleted"; clerkId: string; deletedAt: number };

export type ClerkUserEvent = ClerkUserUpsert | ClerkUserDeletion;

export type WebhookVerification =
  { ok: true; svixId: string } | { ok: false; reason: "not configured" | "invalid signature" };

/**
 * Checks the `svix-id`, `svix-timestamp` and `svix-signature` headers against the endpoint's secret.
 * Svix refuses a timestamp more than five minutes away from now, so a captured delivery cannot be
 * replayed later; Svix's own retries carry a fresh timestamp and the same id.
 */
export function verifyClerkWebhook(
  secret: string | undefined,
  payload: string,
  headers: Headers,
): WebhookVerification {
  if (!secret) return { ok: false, reason: "not configured" };
  let webhook: Webhook;
  try {
    webhook = new Webhook(secret);
  } catch {
    return { ok: false, reason: "not configured" };
  }
  const svixHeaders = {
    "svix-id": headers.get("svix-id") ?? "",
    "svix-timestamp": headers.get("svix-timestamp") ?? "",
    "svix-signature": headers.get("svix-signature") ?? "",
  };
  try {
    webhook.verify(payload, svixHeaders);
  } catch {
    return { ok: false, reason: "invalid signature" };
  }
  return { ok: true, svixId: svixHeaders["svix-id"] };
}

/** An id over its limit (docs/product.md#limits) cannot be stored or cut (decision 023): not Clerk's. */
const clerkId = z.string().min(1).max(LIMITS.clerkId);

const clerkUserData = z.object({
  id: clerkId,
  email_addresses: z.array(z.object({ id: z.string(), email_address: z.string() })).default([]),
  primary_email_address_id: z.string().nullish(),
  first_name: z.string().nullish(),
  last_name: z.string().nullish(),
  image_url: z.string().nullish(),
  updated_at: z.number(),
});

const clerkUserEvent = z.discriminatedUnion("type", [
  z.object({ type: z.enum(["user.created", "user.updated"]), data: clerkUserData }),
  z.object({
    type: z.literal("user.deleted"),
    data: z.object({ id: clerkId }),
    /** When Clerk emitted the event (milliseconds). */
    timestamp: z.number().optional(),
  }),
]);

const HANDLED_TYPES = new Set(["user.created", "user.updated", "user.deleted"]);

/**
 * The user event in a verified payload; "ignored" for event types LiveLocal does not subscribe to;
 * null when a user event does not have the shape Clerk documents. Email, name and picture are held to
 * docs/product.md#limits as sign-in holds a token's (`acceptedIdentityClaims`): cut or left out, not refused.
 */
export function parseClerkUserEvent(payload: string, now: number): ClerkUserEvent | "ignored" | null {
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch {
    return null;
  }
  const type = (json as { type?: unknown } | null)?.type;
  if (typeof type !== "string" || !HANDLED_TYPES.has(type)) return "ignored";
  const parsed = clerkUserEvent.safeParse(json);
  if (!parsed.success) return null;
  const event = parsed.data;
  if (event.type === "user.deleted") {
    return { type: event.type, clerkId: event.data.id, deletedAt: event.timestamp ?? now };
  }
  const { data } = event;
  const email = data.email_addresses.find((address) => address.id === data.primary_email_address_id);
  const claims = acceptedIdentityClaims({
    clerkId: data.id,
    email: email?.email_address,
    name: [data.first_name, data.last_name].filter(Boolean).join(" "),
    avatar: data.image_url ?? undefined,
  });
  if (!claims) return null;
  return { type: event.type, ...claims, clerkUpdatedAt: data.updated_at };
}
