/* eslint-disable @convex-dev/no-process-env -- the one place deployment settings are read; decision 007 */

/** Emails that become admins when their user row is created (`npx convex env set ADMIN_EMAILS a@x,b@y`). */
export function adminEmails(): Set<string> {
  return new Set(
    (process.env.ADMIN_EMAILS ?? "")
      .split(",")
      .map((email) => email.trim().toLowerCase())
      .filter(Boolean),
  );
}

/**
 * The signing secret of the Clerk webhook endpoint (`whsec_…`, from Clerk's dashboard), or undefined
 * when the deployment has none.
 */
export function clerkWebhookSecret(): string | undefined {
  return process.env.CLERK_WEBHOOK_SECRET?.trim() || undefined;
}

/**
 * Whether people sign in with Clerk here (`CLERK_JWT_ISSUER_DOMAIN` set; decision 007): then their email
 * is Clerk's, kept in step by sign-in and the webhook, and corrected at Clerk rather than here.
 */
export function signInManagedByClerk(): boolean {
  return Boolean(process.env.CLERK_JWT_ISSUER_DOMAIN?.trim());
}

/**
 * The Clerk instance's secret key (`sk_…`, from Clerk's dashboard), or undefined when the deployment
 * has none: with it an approved deletion also deletes the Clerk user through Clerk's Backend API.
 */
export function clerkSecretKey(): string | undefined {
  return process.env.CLERK_SECRET_KEY?.trim() || undefined;
}

/**
 * The app's origins allowed to call the HTTP actions from a browser (`APP_ORIGINS`, comma-separated,
 * such as `https://livelocal.example`), or undefined for any origin: the HTTP actions authenticate
 * with a bearer token, never a cookie, so another origin gains nothing a token does not already give.
 */
export function appOrigins(): string[] | undefined {
  const origins = (process.env.APP_ORIGINS ?? "")
    .split(",")
    .map((origin) => origin.trim().replace(/\/+$/, ""))
    .filter(Boolean);
  return origins.length > 0 ? origins : undefined;
}

/**
 * On the local backend, the origin it serves the app on (or `--public-origin`), which it sets as
 * LIVELOCAL_APP_ORIGIN; undefined elsewhere (a Convex deployment names its app with APP_ORIGINS).
 */
export function localAppOrigin(): string | undefined {
  if (!localBackendMode()) return undefined;
  return process.env.LIVELOCAL_APP_ORIGIN?.trim().replace(/\/+$/, "") || undefined;
}

/** Resend's API key (`re_…`): with it e-mails go out through @convex-dev/resend (decision 036). */
export function resendApiKey(): string | undefined {
  return process.env.RESEND_API_KEY?.trim() || undefined;
}

/** The signing secret (`whsec_…`) of the Resend webhook that reports deliveries, bounces and complaints. */
export function resendWebhookSecret(): string | undefined {
  return process.env.RESEND_WEBHOOK_SECRET?.trim() || undefined;
}

/** The sender of LiveLocal's e-mails (`EMAIL_FROM`, a domain verified at Resend). */
export function emailFrom(): string {
  return process.env.EMAIL_FROM?.trim() || "LiveLocal <notifications@livelocal.localhost>";
}

/** Whether these functions run on the embedded local backend (it sets the local sign-in issuer). */
export function localBackendMode(): boolean {
  return !process.env.CLERK_JWT_ISSUER_DOMAIN?.trim() && Boolean(process.env.LIVELOCAL_LOCAL_AUTH_ISSUER);
}

/**
 * The key of unsubscribe links (`NOTIFICATIONS_SECRET`, 32+ random bytes; the local backend makes one).
 * Without it no link can be made, so e-mails fail loudly rather than carry a forgeable link.
 */
export function notificationsSecret(): string {
  const secret = process.env.NOTIFICATIONS_SECRET?.trim();
  if (!secret)
    throw new Error("NOTIFICATIONS_SECRET is not set: npx convex env set NOTIFICATIONS_SECRET <random>");
  return secret;
}

/** Web Push's VAPID keys (base64url, P-256) and contact, or null when push is not set up here. */
export function vapidKeys(): { publicKey: string; privateKey: string; subject: string } | null {
  const publicKey = process.env.VAPID_PUBLIC_KEY?.trim();
  const privateKey = process.env.VAPID_PRIVATE_KEY?.trim();
  if (!publicKey || !privateKey) return null;
  return {
    publicKey,
    privateKey,
    subject: process.env.VAPID_SUBJECT?.trim() || "mailto:support@livelocal.localhost",
  };
}
