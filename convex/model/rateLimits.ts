/**
 * Rate limits (@convex-dev/rate-limiter) on every public mutation that creates rows or sends
 * something: set so a person using the app never meets them and a script does. A limited call
 * changes nothing and gets RATE_LIMITED with when to try again.
 */
import { HOUR, MINUTE, RateLimiter } from "@convex-dev/rate-limiter";
import type { MutationCtx } from "../_generated/server";
import { components } from "../lib/components";
import { appError } from "./errors";

export const RATE_LIMITS = {
  /** New shops per person: all of LIMITS.shopsPerUser (20) at once, then one every few minutes. */
  newShop: { kind: "token bucket", rate: 25, period: HOUR, capacity: 25 },
  /** New streams (and duplicates) per person. */
  newStream: { kind: "token bucket", rate: 60, period: HOUR, capacity: 30 },
  /** Privacy requests per person. */
  privacyRequest: { kind: "token bucket", rate: 10, period: HOUR, capacity: 5 },
  /** Saves per person: a whole watch list (LIMITS.savedStreamsPerUser, 100) at once. */
  saveStream: { kind: "token bucket", rate: 120, period: MINUTE, capacity: 120 },
  /** Follows per person: every shop one may follow (LIMITS.followedShopsPerUser, 100) at once. */
  followShop: { kind: "token bucket", rate: 120, period: MINUTE, capacity: 120 },
  /**
   * Pictures uploaded per person (`POST /images/upload`): a stream's ten and a shop's three at once,
   * then one a minute; at most 5 MB each, unclaimed ones deleted within the hour (decision 054).
   */
  pictureUpload: { kind: "token bucket", rate: 60, period: HOUR, capacity: 20 },
  /** Calendar feed addresses made per person. */
  calendarFeed: { kind: "token bucket", rate: 30, period: HOUR, capacity: 10 },
  /**
   * Sign-in tokens the local backend issues (local mode only; Clerk's own limits apply in
   * production), per address: a tab refreshes its token hourly, the end-to-end suite signs in a few
   * hundred people in minutes, a script asking in a loop is stopped.
   */
  localSignIn: { kind: "token bucket", rate: 600, period: MINUTE, capacity: 600 },
  /**
   * E-mail and push notices per person (one per event, whatever its channels): a handful an hour,
   * whatever sellers do (decision 036). Over it, a notice is recorded and not sent.
   */
  notification: { kind: "token bucket", rate: 6, period: HOUR, capacity: 6 },
} as const;

export type RateLimitName = keyof typeof RATE_LIMITS;

const rateLimiter = new RateLimiter(components.rateLimiter, RATE_LIMITS);

/** "in 12 seconds", "in 3 minutes", "in 2 hours". */
export function describeWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 90) return `in ${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 90) return `in ${minutes} minutes`;
  return `in ${Math.ceil(minutes / 60)} hours`;
}

/** Takes one from `name`'s allowance for `key`; when there is none, says when there will be. */
export async function takeRate(
  ctx: MutationCtx,
  name: RateLimitName,
  key: string,
): Promise<{ ok: true; retryAfterMs: null } | { ok: false; retryAfterMs: number }> {
  const status = await rateLimiter.limit(ctx, name, { key });
  return status.ok
    ? { ok: true, retryAfterMs: null }
    : { ok: false, retryAfterMs: Math.ceil(status.retryAfter) };
}

/** Takes one from `name`'s allowance for `key` (a user id), or refuses with when to retry. */
export async function limitRate(ctx: MutationCtx, name: RateLimitName, key: string): Promise<void> {
  const status = await takeRate(ctx, name, key);
  if (!status.ok) {
    throw appError(
      "RATE_LIMITED",
      `That was a lot of requests in a short time. Please try again ${describeWait(status.retryAfterMs)}.`,
      { retryAfterMs: status.retryAfterMs },
    );
  }
}
