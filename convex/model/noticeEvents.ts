/**
 * Which writes are news, and to whom (decision 036). The triggers of model/triggers.ts call these with
 * each change; what they return is scheduled, so a failing notice never undoes the write that caused it.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { isShopPublic } from "../lib/lifecycle";
import { formatStreamTime } from "../lib/time";
import type { Notice } from "./notifications";
import { isHiddenByOwner } from "./restriction";

/**
 * Notices for the people who saved a stream (fanned out in batches), for one person, or for everyone
 * who follows a shop or saved one of its shows.
 */
export type NoticeTarget =
  | { to: "savers"; streamId: Id<"streams">; notice: Notice }
  | { to: "person"; userId: Id<"users">; notice: Notice }
  | { to: "shopAudience"; liveShopId: Id<"liveShops">; notice: Notice };

export function goLiveNotice(stream: Doc<"streams">): Notice {
  return {
    kind: "goLive",
    eventKey: `goLive:${stream._id}`,
    title: `${stream.liveShopName} is live: ${stream.streamTitle}`,
    body: `${stream.liveShopName} just went live with "${stream.streamTitle}". Join now on LiveLocal.`,
    path: `/stream/${stream._id}`,
  };
}

/**
 * How far off a start is, as a reminder says it: the real lead time, since a show scheduled (or saved)
 * late gets its "one-hour" reminder with less than an hour to go. Minutes are rounded, at least one.
 */
export function leadTimeWords(msUntil: number): string {
  const minutes = Math.max(1, Math.round(msUntil / 60_000));
  if (minutes >= 50) return "in about an hour";
  return minutes === 1 ? "in a minute" : `in ${minutes} minutes`;
}

/** A saved show's reminder, worded with the time left at `now` and the start in the shop's zone. */
export function reminderNotice(
  stream: Doc<"streams">,
  kind: "reminder1h" | "reminder10m",
  now: number,
): Notice {
  const start = stream.streamStartUTC ?? now;
  const when = leadTimeWords(start - now);
  return {
    kind,
    eventKey: `${kind}:${stream._id}:${stream.streamStartUTC ?? 0}`,
    title: `Starting ${when}: ${stream.streamTitle}`,
    body: `"${stream.streamTitle}" from ${stream.liveShopName}, a show you saved, starts ${when} (${formatStreamTime(start, stream.timezone)}).`,
    path: `/stream/${stream._id}`,
  };
}

function dateWords(ms: number, timeZone: string): string {
  return new Date(ms).toLocaleString("en-US", {
    timeZone,
    weekday: "short",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  });
}

/** A saved show cancelled (by anyone) or moved to another start time. */
export function streamChangeTargets(before: Doc<"streams">, after: Doc<"streams">): NoticeTarget[] {
  const targets: NoticeTarget[] = [];
  const path = `/stream/${after._id}`;
  const upcoming = before.streamStatus === "SCHEDULED" || before.streamStatus === "CREATED";
  if (upcoming && after.streamStatus === "CANCELLED") {
    targets.push({
      to: "savers",
      streamId: after._id,
      notice: {
        kind: "showChanged",
        eventKey: `showChanged:${after._id}:cancelled`,
        title: `Cancelled: ${after.streamTitle}`,
        body: `${after.liveShopName} cancelled "${after.streamTitle}", a show you saved.`,
        path,
      },
    });
  } else if (
    after.streamStatus === "SCHEDULED" &&
    before.streamStatus === "SCHEDULED" &&
    after.streamStartUTC !== undefined &&
    before.streamStartUTC !== after.streamStartUTC
  ) {
    targets.push({
      to: "savers",
      streamId: after._id,
      notice: {
        kind: "showChanged",
        eventKey: `showChanged:${after._id}:moved:${after.streamStartUTC}`,
        title: `New time: ${after.streamTitle}`,
        body: `"${after.streamTitle}" from ${after.liveShopName} now starts ${dateWords(after.streamStartUTC, after.timezone)}.`,
        path,
      },
    });
  }
  return targets;
}

/** An admin ending or cancelling a stream (it carries their reason): its shop's owner is told. */
export async function streamModeratedTargets(
  ctx: MutationCtx,
  before: Doc<"streams">,
  after: Doc<"streams">,
): Promise<NoticeTarget[]> {
  const moderated =
    after.statusReason !== undefined &&
    before.streamStatus !== after.streamStatus &&
    (after.streamStatus === "ENDED" || after.streamStatus === "CANCELLED");
  if (!moderated) return [];
  const shop = await ctx.db.get("liveShops", after.liveShopId);
  if (!shop) return [];
  const verb = after.streamStatus === "ENDED" ? "ended" : "cancelled";
  return [
    {
      to: "person",
      userId: shop.userId,
      notice: {
        kind: "streamModerated",
        eventKey: `streamModerated:${after._id}:${after.streamStatus}`,
        title: `An admin ${verb} "${after.streamTitle}"`,
        body: `LiveLocal's moderators ${verb} your show "${after.streamTitle}". Reason: ${after.statusReason}`,
        path: "/dashboard/streams",
      },
    },
  ];
}

/** An admin's decision on a shop: approved, rejected, suspended or reinstated, with the reason. */
export function shopDecisionTargets(before: Doc<"liveShops">, after: Doc<"liveShops">): NoticeTarget[] {
  if (before.status === after.status) return [];
  let decision: string | null = null;
  if (before.status === "pending_verification" && after.status === "active") decision = "approved";
  else if (before.status === "pending_verification" && after.status === "draft" && after.statusReason)
    decision = "rejected";
  else if (after.status === "suspended") decision = "suspended";
  else if (before.status === "suspended" && after.status === "active") decision = "reinstated";
  if (!decision) return [];
  const reason = after.statusReason && decision !== "approved" && decision !== "reinstated";
  return [
    {
      to: "person",
      userId: after.userId,
      notice: {
        kind: "shopDecision",
        eventKey: `shopDecision:${after._id}:${decision}:${after.updatedAt}`,
        title: `Your shop ${after.liveShopName} was ${decision}`,
        body:
          `An admin ${decision} your shop ${after.liveShopName}.` +
          (reason ? ` Reason: ${after.statusReason}` : ""),
        path: "/dashboard/liveshops",
      },
    },
  ];
}

/**
 * A public shop closed by its owner or suspended by an admin: its followers and the savers of its
 * shows are told why it left their watch list. A shop hidden because of its owner (a GDPR restriction,
 * an owner made a viewer) is not announced: that would tell strangers about the owner's account.
 */
export function shopClosedTargets(before: Doc<"liveShops">, after: Doc<"liveShops">): NoticeTarget[] {
  const wasPublic = isShopPublic(before.status) && !isHiddenByOwner(before);
  if (!wasPublic || before.status === after.status) return [];
  if (after.status !== "inactive" && after.status !== "suspended") return [];
  const name = after.liveShopName;
  const notice: Notice =
    after.status === "inactive"
      ? {
          kind: "shopClosed",
          eventKey: `shopClosed:${after._id}:inactive:${after.updatedAt}`,
          title: `${name} closed its shop`,
          body: `${name} closed its shop on LiveLocal, so its shows are off your watch list.`,
          path: "/watch-list",
        }
      : {
          kind: "shopClosed",
          eventKey: `shopClosed:${after._id}:suspended:${after.updatedAt}`,
          title: `${name} is off LiveLocal for now`,
          body: `${name} was taken off LiveLocal for now, so its shows are off your watch list.`,
          path: "/watch-list",
        };
  return [{ to: "shopAudience", liveShopId: after._id, notice }];
}

const REQUEST_WORDS: Record<string, string> = {
  access: "data export",
  deletion: "deletion",
  correction: "correction",
  restriction: "restriction",
};

/** A privacy request decided (completed or rejected): its person is told, if they still exist. */
export function privacyDecisionTargets(
  before: Doc<"privacyRequests">,
  after: Doc<"privacyRequests">,
): NoticeTarget[] {
  const decided = after.status === "completed" || after.status === "rejected";
  if (!after.userId || before.status === after.status || !decided) return [];
  const what = REQUEST_WORDS[after.type] ?? "privacy";
  const verb = after.status === "completed" ? "was carried out" : "was declined";
  return [
    {
      to: "person",
      userId: after.userId,
      notice: {
        kind: "privacyDecision",
        eventKey: `privacyDecision:${after._id}:${after.status}`,
        title: `Your ${what} request ${verb}`,
        body:
          `Your ${what} request ${verb}.` + (after.decisionReason ? ` Reason: ${after.decisionReason}` : ""),
        path: "/dashboard/settings#privacy",
      },
    },
  ];
}
