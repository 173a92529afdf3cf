/**
 * The weekly digest (decision 036): on Monday between 08:00 and 08:59 in the person's time zone, the
 * shows of the next seven days from the shops they follow and from the metro areas they chose, on each
 * channel they switched on for `weeklyDigest`; once per person and ISO week (the `notifications` rows
 * of `digest:<person>:<week>`), never empty, within the hourly allowance, never to someone restricted.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import { DEFAULT_TIME_ZONE, NOTIFICATION_CHANNELS } from "../lib/constants";
import { MSAS } from "../lib/data/msas";
import { ANY_KEY, msaKey, UPCOMING_RANK } from "../lib/exploreListing";
import { isStreamListedPublicly } from "../lib/lifecycle";
import { formatStreamTime } from "../lib/time";
import { channelsFor } from "../lib/notificationChannels";
import { reachable, type Notice } from "./notifications";
import { publicShopStatus } from "./restriction";
import { listFollowRows } from "./watchList";

/** What the digest looks ahead. */
export const DIGEST_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
/** Shows listed per followed shop, per metro area, and in the whole digest. */
const SHOWS_PER_SHOP = 3;
const SHOWS_PER_AREA = 10;
const SHOWS_PER_DIGEST = 15;

const MSA_NAMES = new Map(MSAS.map((msa) => [msa.cbsaCode, msa.name]));

/** Whether `cbsaCode` is one of the 393 metro areas. */
export function isKnownArea(cbsaCode: string): boolean {
  return MSA_NAMES.has(cbsaCode);
}

/** The zone "Monday morning" is judged in: the browser's, else New York's. */
export function digestTimeZone(user: Doc<"users">): string {
  return user.timeZone ?? DEFAULT_TIME_ZONE;
}

/** Whether the person wants the digest on any channel and may be told anything. */
export function wantsDigest(user: Doc<"users"> | null): user is Doc<"users"> {
  if (!reachable(user)) return false;
  const switches = channelsFor(user.notificationPreferences, "weeklyDigest");
  return NOTIFICATION_CHANNELS.some((channel) => switches[channel]);
}

export function digestEventKey(userId: Id<"users">, week: string): string {
  return `digest:${userId}:${week}`;
}

type DigestShow = { streamId: Id<"streams">; title: string; shopName: string; start: number };

/** Upcoming public shows (start within the window) of the shops the person follows, a few per shop. */
async function followedShows(ctx: QueryCtx, userId: Id<"users">, now: number): Promise<DigestShow[]> {
  const shows: DigestShow[] = [];
  for (const follow of await listFollowRows(ctx, userId)) {
    const shop = await ctx.db.get("liveShops", follow.liveShopId);
    if (!shop || !isStreamListedPublicly("SCHEDULED", publicShopStatus(shop))) continue;
    const streams = await ctx.db
      .query("streams")
      .withIndex("by_liveShopId_and_streamStatus_and_streamStartUTC", (q) =>
        q
          .eq("liveShopId", shop._id)
          .eq("streamStatus", "SCHEDULED")
          .gt("streamStartUTC", now)
          .lte("streamStartUTC", now + DIGEST_WINDOW_MS),
      )
      .take(SHOWS_PER_SHOP);
    for (const stream of streams) {
      shows.push({
        streamId: stream._id,
        title: stream.streamTitle,
        shopName: stream.liveShopName,
        start: stream.streamStartUTC ?? now,
      });
    }
  }
  return shows;
}

/** Upcoming public shows in one metro area, soonest first, from explore's listings (public only). */
async function areaShows(ctx: QueryCtx, cbsaCode: string, now: number): Promise<DigestShow[]> {
  const rows = await ctx.db
    .query("streamListings")
    .withIndex("by_categoryKey_and_placeKey_and_rank_and_sortKey_and_streamId", (q) =>
      q
        .eq("categoryKey", ANY_KEY)
        .eq("placeKey", msaKey(cbsaCode))
        .eq("rank", UPCOMING_RANK)
        .gt("sortKey", now)
        .lte("sortKey", now + DIGEST_WINDOW_MS),
    )
    .take(SHOWS_PER_AREA);
  const shows: DigestShow[] = [];
  for (const { streamId, sortKey } of rows) {
    // The rows order the shows; the streams name them (decision 046).
    const stream = await ctx.db.get("streams", streamId);
    if (stream)
      shows.push({ streamId, title: stream.streamTitle, shopName: stream.liveShopName, start: sortKey });
  }
  return shows;
}

/**
 * The person's digest for `week`, or null when there is nothing to tell (no upcoming shows). Reads at
 * most the person's follows (100), a few streams of each and a few listing rows per chosen area.
 */
export async function composeDigest(
  ctx: QueryCtx,
  user: Doc<"users">,
  week: string,
  now: number,
): Promise<Notice | null> {
  const areas = (user.notificationPreferences.digestAreas ?? []).filter(isKnownArea);
  const found = await followedShows(ctx, user._id, now);
  for (const area of areas) found.push(...(await areaShows(ctx, area, now)));
  const seen = new Set<Id<"streams">>();
  const shows = found
    .sort((a, b) => a.start - b.start)
    .filter((show) => !seen.has(show.streamId) && seen.add(show.streamId))
    .slice(0, SHOWS_PER_DIGEST);
  if (shows.length === 0) return null;
  const timeZone = digestTimeZone(user);
  const sources = ["shops you follow", ...areas.map((code) => MSA_NAMES.get(code) ?? code)];
  const count = shows.length === 1 ? "1 show" : `${shows.length} shows`;
  return {
    kind: "weeklyDigest",
    eventKey: digestEventKey(user._id, week),
    title: `Your week on LiveLocal: ${count} coming up`,
    body: `${count} in the next seven days from ${listWords(sources)}.`,
    path: "/watch-list",
    items: shows.map((show) => ({
      text: `${formatStreamTime(show.start, timeZone)}: ${show.title} (${show.shopName})`,
      path: `/stream/${show.streamId}`,
    })),
  };
}

/** "a", "a and b", "a, b and c". */
function listWords(words: string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}
