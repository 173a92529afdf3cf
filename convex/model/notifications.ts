/**
 * Notifications that reach people when LiveLocal is closed (issue 19, decision 036). Every event
 * (a show going live, a shop decision, ...) becomes a `Notice` for one person; `deliverNotice` sends
 * it on each channel the person switched on for its kind, once per event and channel (the
 * `notifications` rows are the record), within the person's hourly allowance for e-mail and push, and
 * never to someone restricted or deleted. In-app notices of go-lives stay the tab alerts of
 * model/goLiveAlerts.ts; every other in-app notice is a `notifications` row the settings page lists.
 */
import { Resend, type EmailEvent } from "@convex-dev/resend";
import { internal } from "../_generated/api";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { components } from "../lib/components";
import { escapeHtml } from "../lib/html";
import {
  ACCOUNT_NOTIFICATION_KINDS,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_TTL_MS,
  type NotificationChannel,
  type NotificationKind,
} from "../lib/constants";
import { channelsFor } from "../lib/notificationChannels";
import {
  appOrigins,
  localAppOrigin,
  emailFrom,
  localBackendMode,
  notificationsSecret,
  resendApiKey,
  resendWebhookSecret,
} from "./env";
import { countStreamInsight } from "./insights";
import { takeRate } from "./rateLimits";
import { insertWithTimestamps } from "./timestamps";

/** One event for one person: what to say and where it links. */
export type Notice = {
  kind: NotificationKind;
  /** The event, the same for everyone told about it: `goLive:<streamId>`, `shopDecision:<id>:<at>`. */
  eventKey: string;
  title: string;
  body: string;
  /** A path in the app, such as `/stream/<id>`. */
  path: string;
  /** Lines listed under the body in an e-mail, each linking to a path (the weekly digest's shows). */
  items?: { text: string; path: string }[];
};

/** Whether this person may be told anything: they exist and their processing is not restricted. */
export function reachable(user: Doc<"users"> | null): user is Doc<"users"> {
  return user !== null && user.restrictedAt === undefined;
}

/**
 * Sends `notice` to `userId` on every channel they want and have not had it on. E-mail and push of
 * sellers' activity take one from the person's hourly allowance per event; over it, the notice is
 * recorded as `limited` and not sent. Notices about the person's own account, shops and requests
 * (ACCOUNT_NOTIFICATION_KINDS) never wait on it. Returns the channels it went out on.
 */
export async function deliverNotice(
  ctx: MutationCtx,
  userId: Id<"users">,
  notice: Notice,
  options: { skipInApp?: boolean; now?: number } = {},
): Promise<NotificationChannel[]> {
  const now = options.now ?? Date.now();
  const user = await ctx.db.get("users", userId);
  if (!reachable(user)) return [];
  const switches = channelsFor(user.notificationPreferences, notice.kind);
  const fresh: NotificationChannel[] = [];
  for (const channel of NOTIFICATION_CHANNELS) {
    if (!switches[channel] || (channel === "inApp" && options.skipInApp)) continue;
    const already = await ctx.db
      .query("notifications")
      .withIndex("by_userId_and_eventKey_and_channel", (q) =>
        q.eq("userId", userId).eq("eventKey", notice.eventKey).eq("channel", channel),
      )
      .first();
    if (!already) fresh.push(channel);
  }
  if (fresh.length === 0) return [];
  const capped =
    !ACCOUNT_NOTIFICATION_KINDS.includes(notice.kind) && fresh.some((channel) => channel !== "inApp");
  const allowed = !capped || (await takeRate(ctx, "notification", userId)).ok;
  const sent: NotificationChannel[] = [];
  for (const channel of fresh) {
    const status = channel === "inApp" || allowed ? "sent" : "limited";
    const notificationId = await insertWithTimestamps(
      ctx,
      "notifications",
      { userId, kind: notice.kind, eventKey: notice.eventKey, channel, status, ...textOf(notice) },
      now,
    );
    if (status === "limited") continue;
    sent.push(channel);
    if (channel === "email") await sendEmail(ctx, user, notice, notificationId, now);
    if (channel === "push") {
      await ctx.scheduler.runAfter(0, internal.pushSender.send, { notificationId });
    }
  }
  if (sent.length > 0) await countReminderInsight(ctx, notice);
  return sent;
}

/**
 * A reminder counts in its show's insights once per person it reached (decision 089); go-live notices
 * are counted by their fan-out (model/goLiveAlerts.ts), which also writes the in-app alert.
 */
async function countReminderInsight(ctx: MutationCtx, notice: Notice): Promise<void> {
  if (notice.kind !== "reminder1h" && notice.kind !== "reminder10m") return;
  const streamId = ctx.db.normalizeId("streams", notice.eventKey.split(":")[1] ?? "");
  if (streamId) await countStreamInsight(ctx, streamId, "reminder");
}

function textOf(notice: Notice) {
  return { title: notice.title, body: notice.body, path: notice.path };
}

/**
 * The origin links in e-mails point at: the deployment's app (APP_ORIGINS' first; on the local backend
 * the origin it serves or its public origin), else where the person last chose them. Never a guess:
 * without any, the e-mail fails with a sentence saying what to set.
 */
function appOriginFor(user: Doc<"users">): string {
  const origin = appOrigins()?.[0] ?? localAppOrigin() ?? user.notificationPreferences.appOrigin;
  if (!origin) {
    throw new Error(
      "APP_ORIGINS is not set, so e-mail links have nowhere to point: npx convex env set APP_ORIGINS https://your.app",
    );
  }
  return origin;
}

/** Where the HTTP actions answer for links in e-mails (the app's origin proxies them locally). */
function siteOriginFor(user: Doc<"users">): string {
  // eslint-disable-next-line @convex-dev/no-process-env -- Convex's built-in variable, always set there
  const site = localBackendMode() ? undefined : process.env.CONVEX_SITE_URL;
  return site ?? `${appOriginFor(user)}/local-backend/site`;
}

function base64url(bytes: ArrayBuffer): string {
  let binary = "";
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The unsubscribe link's proof: an HMAC of the person and kind with NOTIFICATIONS_SECRET. */
export async function unsubscribeToken(userId: Id<"users">, kind: NotificationKind): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(notificationsSecret()),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return base64url(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${userId}:${kind}`)));
}

/** Whether `token` is the unsubscribe proof for this person and kind (compared in constant time). */
export async function unsubscribeTokenValid(
  userId: Id<"users">,
  kind: NotificationKind,
  token: string,
): Promise<boolean> {
  const expected = await unsubscribeToken(userId, kind);
  if (expected.length !== token.length) return false;
  let difference = 0;
  for (let i = 0; i < expected.length; i++) difference |= expected.charCodeAt(i) ^ token.charCodeAt(i);
  return difference === 0;
}

const KIND_WORDS: Record<NotificationKind, string> = {
  goLive: "go-live e-mails",
  reminder1h: "one-hour reminders",
  reminder10m: "ten-minute reminders",
  showChanged: "e-mails about cancelled or moved shows",
  weeklyDigest: "the weekly digest",
  shopDecision: "e-mails about your shops' reviews",
  streamModerated: "e-mails about your moderated shows",
  privacyDecision: "e-mails about your privacy requests",
  shopClosed: "e-mails about followed shops closing",
};

/** The e-mail for a notice: subject, HTML and text bodies, and RFC 8058's one-click unsubscribe headers. */
export async function composeEmail(user: Doc<"users">, notice: Notice) {
  const link = `${appOriginFor(user)}${notice.path}`;
  const token = await unsubscribeToken(user._id, notice.kind);
  const unsubscribe = `${siteOriginFor(user)}/notifications/unsubscribe?u=${user._id}&k=${notice.kind}&t=${token}`;
  const words = KIND_WORDS[notice.kind];
  const items = (notice.items ?? []).map((item) => ({ ...item, link: `${appOriginFor(user)}${item.path}` }));
  const itemsHtml = items.length
    ? `<ul style="margin:0 0 20px;padding-left:20px">${items
        .map((item) => `<li><a href="${escapeHtml(item.link)}">${escapeHtml(item.text)}</a></li>`)
        .join("")}</ul>\n`
    : "";
  const itemsText = items.map((item) => `- ${item.text}\n  ${item.link}\n`).join("");
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#0f172a;max-width:560px;margin:0 auto;padding:24px">
<p style="font-weight:700;color:#15803d;margin:0 0 16px">LiveLocal</p>
<h1 style="font-size:20px;margin:0 0 8px">${escapeHtml(notice.title)}</h1>
<p style="margin:0 0 20px">${escapeHtml(notice.body)}</p>
${itemsHtml}<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#15803d;color:#fff;padding:10px 16px;border-radius:8px;text-decoration:none">Open in LiveLocal</a></p>
<p style="font-size:12px;color:#475569;margin-top:32px">This e-mail comes because you turned on ${escapeHtml(words)} in your LiveLocal settings. <a href="${escapeHtml(unsubscribe)}">Unsubscribe from ${escapeHtml(words)}</a>.</p>
</body></html>`;
  const text = `${notice.title}\n\n${notice.body}\n\n${itemsText ? `${itemsText}\n` : ""}Open in LiveLocal: ${link}\n\nUnsubscribe from ${words}: ${unsubscribe}\n`;
  return {
    from: emailFrom(),
    to: user.email,
    subject: notice.title,
    html,
    text,
    headers: [
      { name: "List-Unsubscribe", value: `<${unsubscribe}>` },
      { name: "List-Unsubscribe-Post", value: "List-Unsubscribe=One-Click" },
    ],
  };
}

/**
 * @convex-dev/resend with RESEND_API_KEY (null without): sending for real (`testMode: false`), and its
 * webhook's events (RESEND_WEBHOOK_SECRET) passed on to `notifications.onEmailEvent`.
 */
export function resendClient(): Resend | null {
  const apiKey = resendApiKey();
  if (!apiKey) return null;
  return new Resend(components.resend, {
    apiKey,
    webhookSecret: resendWebhookSecret() ?? "",
    testMode: false,
    onEmailEvent: internal.notifications.onEmailEvent,
  });
}

/** Whether Resend's event says the address must not be written to again: a complaint, a hard bounce. */
export function stopsEmail(event: EmailEvent): boolean {
  return (
    event.type === "email.complained" ||
    (event.type === "email.bounced" && event.data.bounce.type === "Permanent")
  );
}

/**
 * Queues the e-mail: through Resend (its durable queue, retries and idempotency by notification id)
 * with RESEND_API_KEY; on the local backend without one, into the local inbox; otherwise nowhere.
 */
async function sendEmail(
  ctx: MutationCtx,
  user: Doc<"users">,
  notice: Notice,
  notificationId: Id<"notifications">,
  now: number,
): Promise<void> {
  // Composed only when it goes somewhere: a deployment that sends no e-mail needs no APP_ORIGINS.
  const resend = resendClient();
  if (resend) {
    const email = await composeEmail(user, notice);
    await resend.sendEmail(ctx, { ...email, idempotencyKey: notificationId });
  } else if (localBackendMode()) {
    const email = await composeEmail(user, notice);
    await insertWithTimestamps(ctx, "localInbox", { userId: user._id, notificationId, ...email }, now);
  }
}

/** Deletes notices past NOTIFICATION_TTL_MS; true when a full batch suggests more are left. */
export async function pruneNotificationsBatch(ctx: MutationCtx, now: number, batch = 500): Promise<boolean> {
  const old = await ctx.db
    .query("notifications")
    .withIndex("by_createdAt", (q) => q.lt("createdAt", now - NOTIFICATION_TTL_MS))
    .take(batch);
  for (const row of old) await ctx.db.delete("notifications", row._id);
  return old.length === batch;
}
