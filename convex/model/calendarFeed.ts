/**
 * The private calendar feed (issue 8, decision 021): `GET /calendar/<token>.ics` lists the person's
 * saved shows still to come (scheduled, live or paused) as iCalendar events, so a calendar app that
 * subscribed keeps them current. The token is the only credential: 32 random bytes from the action
 * that turns the feed on; turning it off deletes it. The feed holds those shows and nothing else: no
 * name, email or other list.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { calendarStart, type CalendarShow } from "../lib/ics";
import { shownStart } from "../lib/shownTimes";
import { appError } from "./errors";
import { insertWithTimestamps } from "./timestamps";
import { getPublicStreamWithShop, listSavedRows, type ShopCache } from "./watchList";

/** 32 bytes in base64url without padding. */
export const FEED_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A person has one feed; more rows than this would only come from a race, and are cleared too. */
const FEEDS_READ = 10;

/** A new unguessable token (256 bits). Called in an action, where randomness is not seeded. */
export function newFeedToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * The app's origin from what the browser reports (`location.origin`): http(s) only, and one of
 * APP_ORIGINS when the deployment lists them. The feed's events link back to the show's page there.
 */
export function checkAppOrigin(value: string, allowed: readonly string[] | undefined): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw appError("INVALID_ARGUMENT", "The app's address is not a web address.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw appError("INVALID_ARGUMENT", "The app's address must start with http:// or https://.");
  }
  if (allowed !== undefined && !allowed.includes(url.origin)) {
    throw appError("INVALID_ARGUMENT", "The app's address is not one this deployment serves.");
  }
  return url.origin;
}

export async function listFeedRows(ctx: QueryCtx, userId: Id<"users">): Promise<Doc<"calendarFeeds">[]> {
  return await ctx.db
    .query("calendarFeeds")
    .withIndex("by_userId", (q) => q.eq("userId", userId))
    .take(FEEDS_READ);
}

export async function deleteFeeds(ctx: MutationCtx, userId: Id<"users">): Promise<void> {
  for (const row of await listFeedRows(ctx, userId)) await ctx.db.delete("calendarFeeds", row._id);
}

/** Replaces the person's feed with one under `token`: the old address stops working at once. */
export async function replaceFeed(
  ctx: MutationCtx,
  userId: Id<"users">,
  token: string,
  appOrigin: string,
): Promise<void> {
  if (!FEED_TOKEN_PATTERN.test(token)) throw appError("INVALID_ARGUMENT", "That is not a feed token.");
  await deleteFeeds(ctx, userId);
  await insertWithTimestamps(ctx, "calendarFeeds", { userId, token, appOrigin });
}

export type FeedContent = { appOrigin: string; shows: CalendarShow[] };

/** What the feed under `token` lists, or null for a token that is not (or no longer) a feed's. */
export async function readFeed(ctx: QueryCtx, token: string): Promise<FeedContent | null> {
  if (!FEED_TOKEN_PATTERN.test(token)) return null;
  const feed = await ctx.db
    .query("calendarFeeds")
    .withIndex("by_token", (q) => q.eq("token", token))
    .unique();
  if (!feed) return null;
  const shows: CalendarShow[] = [];
  const shopCache: ShopCache = new Map();
  for (const row of await listSavedRows(ctx, feed.userId)) {
    const found = await getPublicStreamWithShop(ctx, row.streamId, shopCache);
    if (!found) continue;
    const { stream } = found;
    const coming = ["SCHEDULED", "LIVE", "PAUSED"].includes(stream.streamStatus);
    if (!coming || calendarStart(stream) === undefined) continue;
    shows.push({
      _id: stream._id,
      streamTitle: stream.streamTitle,
      streamDescription: stream.streamDescription,
      liveShopName: stream.liveShopName,
      streamStatus: stream.streamStatus,
      streamStartUTC: stream.streamStartUTC,
      streamStopUTC: stream.streamStopUTC,
      streamStartedUTC: stream.streamStartedUTC,
      streamEndedUTC: stream.streamEndedUTC,
    });
  }
  shows.sort((a, b) => shownStart(a) - shownStart(b));
  return { appOrigin: feed.appOrigin, shows };
}
