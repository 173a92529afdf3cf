import { httpRouter } from "convex/server";
import { ConvexError } from "convex/values";
import { internal } from "./_generated/api";
import { httpAction } from "./_generated/server";
import { parseClerkUserEvent, verifyClerkWebhook } from "./model/clerkWebhook";
import { buildIcsCalendar, showCalendarEvent } from "./lib/ics";
import { IMAGE_UPLOAD, pictureTypeOf } from "./lib/limits";
import { exportFileName } from "./model/dataExport";
import { appOrigins, clerkWebhookSecret, resendWebhookSecret } from "./model/env";
import { resendClient } from "./model/notifications";
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

/**
 * Resend's delivery events (sent, delivered, bounced, complained…), signed by Svix: the component records
 * each e-mail's status and calls `notifications.onEmailEvent` (decision 036). 500 until RESEND_API_KEY
 * and RESEND_WEBHOOK_SECRET are set, 400 for a bad signature; nothing is written in either case.
 */
http.route({
  path: "/resend-webhook",
  method: "POST",
  handler: httpAction(async (ctx, request) => {
    const resend = resendClient();
    if (!resend || !resendWebhookSecret()) return reply(500, "webhook not configured");
    try {
      return await resend.handleResendEventWebhook(ctx, request);
    } catch (error) {
      if (error instanceof Error && error.name === "WebhookVerificationError") {
        return reply(400, "invalid signature");
      }
      throw error;
    }
  }),
});

function unsubscribePage(status: number, heading: string, body: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${heading} · LiveLocal</title></head><body style="font-family:system-ui,sans-serif;max-width:480px;margin:48px auto;padding:0 16px;line-height:1.5"><p style="font-weight:700;color:#15803d">LiveLocal</p><h1 style="font-size:22px">${heading}</h1>${body}</body></html>`;
  return new Response(html, {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}

function unsubscribeArgs(url: URL) {
  return {
    userId: url.searchParams.get("u") ?? "",
    kind: url.searchParams.get("k") ?? "",
    token: url.searchParams.get("t") ?? "",
  };
}

/**
 * The unsubscribe link of an e-mail (decision 036). GET only asks, so a mail scanner following links
 * changes nothing; the POST (the page's button, or a mail client's RFC 8058 one-click
 * `List-Unsubscribe=One-Click`) turns that kind's e-mails off.
 */
http.route({
  path: "/notifications/unsubscribe",
  method: "GET",
  handler: httpAction(async (_ctx, request) => {
    const url = new URL(request.url);
    const action = `${url.pathname}${url.search}`.replaceAll('"', "&quot;");
    return await Promise.resolve(
      unsubscribePage(
        200,
        "Unsubscribe from these e-mails?",
        `<form method="post" action="${action}"><button type="submit" style="background:#15803d;color:#fff;border:0;border-radius:8px;padding:10px 16px;font-size:16px">Unsubscribe</button></form><p style="color:#475569;font-size:14px">You can turn them on again in your LiveLocal settings.</p>`,
      ),
    );
  }),
});

http.route({
  path: "/notifications/unsubscribe",
  method: "POST",
  handler: httpAction(async (ctx, request) => {
    const done = await ctx.runMutation(
      internal.notifications.unsubscribe,
      unsubscribeArgs(new URL(request.url)),
    );
    return done
      ? unsubscribePage(200, "You are unsubscribed", "<p>You will get no more of these e-mails.</p>")
      : unsubscribePage(
          400,
          "This link does not work",
          "<p>Change your e-mails in your LiveLocal settings.</p>",
        );
  }),
});

/**
 * CORS for the browser's calls to HTTP actions (`src/lib/convex-site.ts`): the app's origins when
 * APP_ORIGINS is set, else any. The request carries a bearer token, never a cookie, so no origin gains
 * access by this.
 */
function corsHeaders(
  request: Request,
  methods: string,
  allowHeaders = "Authorization",
): Record<string, string> {
  const allowed = appOrigins();
  const origin = request.headers.get("Origin");
  const allowOrigin =
    allowed === undefined ? "*" : origin !== null && allowed.includes(origin) ? origin : null;
  return {
    ...(allowOrigin !== null && { "Access-Control-Allow-Origin": allowOrigin }),
    "Access-Control-Allow-Methods": `${methods}, OPTIONS`,
    "Access-Control-Allow-Headers": allowHeaders,
    "Access-Control-Expose-Headers": "Content-Disposition",
    "Access-Control-Max-Age": "86400",
    Vary: "Origin",
  };
}

function corsReply(cors: Record<string, string>, status: number, text: string): Response {
  return new Response(text, { status, headers: { ...cors, "Content-Type": "text/plain; charset=utf-8" } });
}

/**
 * A picture, uploaded by the signed-in caller (`Authorization: Bearer <the Convex auth token>`, the
 * file as the body; decision 054): within their upload allowance, at most 5 MB, and a PNG, JPEG, WebP,
 * GIF or AVIF by its bytes. Stored and recorded as the caller's, which only the caller may then claim
 * (`images:claimUpload`); answers `{ storageId }`, or a status with a sentence to show.
 */
http.route({
  path: "/images/upload",
  method: "POST",
  handler: httpAction(async (ctx, request) => {
    const cors = corsHeaders(request, "POST", "Authorization, Content-Type");
    const identity = await ctx.auth.getUserIdentity();
    if (!identity) return corsReply(cors, 401, "Sign in to upload a picture.");
    const tooLarge = `Choose a picture of at most ${IMAGE_UPLOAD.maxBytes / 1024 / 1024} MB.`;
    // Refused before a byte is read, when the request says how large it is.
    if (Number(request.headers.get("Content-Length") ?? 0) > IMAGE_UPLOAD.maxBytes) {
      return corsReply(cors, 413, tooLarge);
    }
    const allowed = await ctx.runMutation(internal.images.beginUpload, { clerkId: identity.subject });
    if (!allowed.ok) return corsReply(cors, allowed.status, allowed.message);
    const bytes = new Uint8Array(await request.arrayBuffer());
    if (bytes.length > IMAGE_UPLOAD.maxBytes) return corsReply(cors, 413, tooLarge);
    if (bytes.length === 0) return corsReply(cors, 400, "This file is empty; choose another picture.");
    const type = pictureTypeOf(bytes);
    if (!type) return corsReply(cors, 415, `Choose a ${IMAGE_UPLOAD.typeNames} picture.`);
    const storageId = await ctx.storage.store(new Blob([bytes], { type }));
    try {
      await ctx.runMutation(internal.images.recordUpload, {
        storageId,
        uploaderId: allowed.uploaderId,
        contentType: type,
      });
    } catch (error) {
      await ctx.storage.delete(storageId);
      throw error;
    }
    return new Response(JSON.stringify({ storageId }), {
      status: 200,
      headers: { ...cors, "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
    });
  }),
});

/** The browser's CORS preflight for `path`, answered with `corsHeaders` for the same methods. */
function routePreflight(path: string, methods: string, allowHeaders?: string): void {
  http.route({
    path,
    method: "OPTIONS",
    handler: httpAction((_ctx, request) =>
      Promise.resolve(
        new Response(null, { status: 204, headers: corsHeaders(request, methods, allowHeaders) }),
      ),
    ),
  });
}

routePreflight("/images/upload", "POST", "Authorization, Content-Type");

/**
 * The caller's data export (GDPR articles 15 and 20; model/dataExport.ts), with
 * `Authorization: Bearer <the Convex auth token>`: 401 without a valid token, 404 when the caller has no
 * unexpired export. Only the export's own user can download it.
 */
http.route({
  path: "/privacy/export",
  method: "GET",
  handler: httpAction(async (ctx, request) => {
    const cors = corsHeaders(request, "GET");
    const identity = await ctx.auth.getUserIdentity();
    if (!identity) {
      return new Response("sign in to download your data", {
        status: 401,
        headers: { ...cors, "Content-Type": "text/plain; charset=utf-8", "WWW-Authenticate": "Bearer" },
      });
    }
    const found = await ctx.runQuery(internal.privacy.downloadableExport, {
      clerkId: identity.subject,
      now: Date.now(),
    });
    const file = found && (await ctx.storage.get(found.storageId));
    if (!found || !file) return corsReply(cors, 404, "no data export to download");
    return new Response(file, {
      status: 200,
      headers: {
        ...cors,
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="${exportFileName(found.createdAt)}"`,
        "Cache-Control": "no-store",
      },
    });
  }),
});

routePreflight("/privacy/export", "GET");

/** Calendar apps fetch the feed again about this often (and are told so in the file). */
const FEED_REFRESH_MINUTES = 60;

/**
 * The private calendar feed (model/calendarFeed.ts): `GET /calendar/<token>.ics`, the person's saved
 * shows still to come. The token in the path is the only credential, as calendar apps send nothing
 * else; an unknown or revoked token gets a 404 that says nothing more. Never cached by shared caches.
 */
http.route({
  pathPrefix: "/calendar/",
  method: "GET",
  handler: httpAction(async (ctx, request) => {
    const name = new URL(request.url).pathname.split("/").pop() ?? "";
    const token = name.endsWith(".ics") ? name.slice(0, -".ics".length) : name;
    const feed = await ctx.runQuery(internal.calendarFeed.feedByToken, { token });
    if (!feed) return reply(404, "no such calendar");
    const now = Date.now();
    const events = feed.shows.flatMap(
      (show) =>
        showCalendarEvent(show, `${feed.appOrigin}/stream/${encodeURIComponent(show._id)}`, now) ?? [],
    );
    const body = buildIcsCalendar(events, {
      name: "LiveLocal: saved shows",
      refreshMinutes: FEED_REFRESH_MINUTES,
    });
    return new Response(body, {
      status: 200,
      headers: {
        "Content-Type": "text/calendar; charset=utf-8",
        "Content-Disposition": 'inline; filename="livelocal-saved-shows.ics"',
        "Cache-Control": "private, max-age=300",
        "X-Robots-Tag": "noindex",
        "Referrer-Policy": "no-referrer",
      },
    });
  }),
});

export default http;
