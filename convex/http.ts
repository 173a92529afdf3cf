import { httpRouter } from "convex/server";
import { ConvexError } from "convex/values";
import { internal } from "./_generated/api";
import { httpAction } from "./_generated/server";
import { parseClerkUserEvent, verifyClerkWebhook } from "./model/clerkWebhook";
import { clerkWebhookSecret } from "./model/env";
import type { AppErrorData } from "./model/errors";

const http = httpRouter();

function reply(status: number, text: string): Response {
  return new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/**
 * Clerk's user events (created, updated, deleted), signed by Svix. Nothing is written unless the
 * signature is valid; a 4xx or 5xx makes Svix retry later (decision 009).
 */
http.route({
  path: "/clerk-users-webhook",
  method: "POST",
  handler: httpAction(async (ctx, request) => {
    const payload = await request.text();
    const verification = verifyClerkWebhook(clerkWebhookSecret(), payload, request.headers);
    if (!verification.ok) {
      return verification.reason === "not configured"
        ? reply(500, "webhook not configured")
        : reply(400, "invalid signature");
    }
    const event = parseClerkUserEvent(payload, Date.now());
    if (event === null) return reply(400, "unexpected payload");
    if (event === "ignored") return reply(200, "ignored");
    const { svixId } = verification;
    try {
      const outcome =
        event.type === "user.deleted"
          ? await ctx.runMutation(internal.clerkUsers.deleteFromClerk, {
              svixId,
              clerkId: event.clerkId,
              deletedAt: event.deletedAt,
            })
          : await ctx.runMutation(internal.clerkUsers.upsertFromClerk, { svixId, ...event });
      return reply(200, outcome);
    } catch (error) {
      // An email still held by another account (its deletion not yet delivered): retried later.
      if (error instanceof ConvexError && (error.data as AppErrorData).code === "CONFLICT") {
        return reply(409, (error.data as AppErrorData).message);
      }
      throw error;
    }
  }),
});

export default http;
