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
