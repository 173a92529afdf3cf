/**
 * The stream and live shop lifecycles of docs/product.md ("Stream lifecycle", "Live shop lifecycle") as data,
 * plus the visibility rules that follow from a status. Pure: used by the mutations that change a status
 * (which enforce it) and by the dashboard (which only mirrors it to show the right buttons).
 */
import { AUTO_END_AFTER_MS, TIME_ZONES, type Role, type ShopStatus, type StreamStatus } from "./constants";
import { LIMITS } from "./limits";

/**
 * Who is asking, relative to the shop or stream in question; an admin may also own the shop. `isOwner`
 * means acting as the owner: the shop is theirs and their role lets them run shops (`mayRunShops`).
 */
export type Actor = { isOwner: boolean; isAdmin: boolean };

/**
 * docs/product.md#roles: managing a shop and its streams is for sellers (their own) and admins. A viewer
 * who still owns shops (an admin made them one) keeps them, hidden from the public, but cannot change
 * them (decision 025).
 */
export function mayRunShops(role: Role): boolean {
  return role !== "viewer";
}

type ActorRole = "owner" | "admin";

export type TransitionErrorCode =
  | "INVALID_TRANSITION"
  | "FORBIDDEN"
  | "SHOP_NOT_ACTIVE"
  | "MISSING_TITLE"
  | "MISSING_TIMES"
  | "STOP_BEFORE_START"
  | "MISSING_SHOP_DETAILS"
  | "REASON_REQUIRED"
  | "REASON_TOO_LONG";

export type TransitionRefusal = { ok: false; code: TransitionErrorCode; message: string };

export type TransitionResult<Patch> = { ok: true; patch: Patch } | TransitionRefusal;

function refuse(code: TransitionErrorCode, message: string): TransitionRefusal {
  return { ok: false, code, message };
}

/** Not in the specification (it gives no length for a status reason); LIMITS.statusReason, as the forms use. */
export const MAX_STATUS_REASON_LENGTH = LIMITS.statusReason;

/** A required reason, trimmed, or why it is refused; `reader` is who reads it ("the shop's owner"). */
function checkReason(
  reason: string | undefined,
  reader: string,
): { ok: true; reason: string } | TransitionRefusal {
  const trimmed = reason?.trim() ?? "";
  if (trimmed === "") return refuse("REASON_REQUIRED", `Give a reason; ${reader} will see it.`);
  if (trimmed.length > MAX_STATUS_REASON_LENGTH) {
    return refuse("REASON_TOO_LONG", `Keep the reason under ${MAX_STATUS_REASON_LENGTH} characters.`);
  }
  return { ok: true, reason: trimmed };
}

function actorMayAct(actor: Actor, who: readonly ActorRole[]): boolean {
  return (actor.isOwner && who.includes("owner")) || (actor.isAdmin && who.includes("admin"));
}

function describeWho(who: readonly ActorRole[]): string {
  return who.length === 2
    ? "the shop's owner or an admin"
    : who[0] === "owner"
      ? "the shop's owner"
      : "an admin";
}

// ---------------------------------------------------------------------------------------------------
// Streams

export type StreamAction = "schedule" | "goLive" | "backToDraft" | "pause" | "resume" | "end" | "cancel";

/** What a rule needs from the stream or its shop before it applies, checked in this order. */
type StreamCondition = "shopActive" | "schedule";

type StreamRule = {
  from: StreamStatus;
  to: StreamStatus;
  who: readonly ActorRole[];
  action: StreamAction;
  label: string;
  requires: readonly StreamCondition[];
};

const OWNER: readonly ActorRole[] = ["owner"];
const ADMIN: readonly ActorRole[] = ["admin"];
const OWNER_OR_ADMIN: readonly ActorRole[] = ["owner", "admin"];

/** One entry per from→to pair of docs/product.md's stream table; ENDED and CANCELLED have none (terminal). */
export const STREAM_TRANSITIONS: readonly StreamRule[] = [
  {
    from: "CREATED",
    to: "SCHEDULED",
    who: OWNER,
    action: "schedule",
    label: "Schedule",
    requires: ["shopActive", "schedule"],
  },
  { from: "CREATED", to: "LIVE", who: OWNER, action: "goLive", label: "Go live", requires: ["shopActive"] },
  { from: "SCHEDULED", to: "LIVE", who: OWNER, action: "goLive", label: "Go live", requires: ["shopActive"] },
  {
    from: "SCHEDULED",
    to: "CREATED",
    who: OWNER,
    action: "backToDraft",
    label: "Back to draft",
    requires: [],
  },
  { from: "LIVE", to: "PAUSED", who: OWNER_OR_ADMIN, action: "pause", label: "Pause", requires: [] },
  { from: "LIVE", to: "ENDED", who: OWNER_OR_ADMIN, action: "end", label: "End", requires: [] },
  // docs/product.md sets no condition on resuming, so a paused stream of a shop not "active" may resume;
  // it is still kept off public lists by isStreamListedPublicly.
  { from: "PAUSED", to: "LIVE", who: OWNER, action: "resume", label: "Resume", requires: [] },
  { from: "PAUSED", to: "ENDED", who: OWNER_OR_ADMIN, action: "end", label: "End", requires: [] },
  { from: "CREATED", to: "CANCELLED", who: OWNER_OR_ADMIN, action: "cancel", label: "Cancel", requires: [] },
  {
    from: "SCHEDULED",
    to: "CANCELLED",
    who: OWNER_OR_ADMIN,
    action: "cancel",
    label: "Cancel",
    requires: [],
  },
  { from: "PAUSED", to: "CANCELLED", who: OWNER_OR_ADMIN, action: "cancel", label: "Cancel", requires: [] },
];

/** Each action as the end of "Only … can …": a button's label does not always read as a verb phrase. */
const STREAM_ACTION_PHRASES: Record<StreamAction, string> = {
  schedule: "schedule this stream",
  goLive: "take this stream live",
  backToDraft: "move this stream back to draft",
  pause: "pause this stream",
  resume: "resume this stream",
  end: "end this stream",
  cancel: "cancel this stream",
};

const STREAM_STATUS_WORDS: Record<StreamStatus, string> = {
  CREATED: "a draft",
  SCHEDULED: "scheduled",
  LIVE: "live",
  PAUSED: "paused",
  ENDED: "ended",
  CANCELLED: "cancelled",
};

export type StreamTimes = {
  streamTitle: string;
  streamStartUTC?: number;
  streamStopUTC?: number;
  /** When it first went live, once it has (decision 058). */
  streamStartedUTC?: number;
};

export type StreamPatch = {
  streamStatus: StreamStatus;
  streamStartUTC?: number;
  streamStopUTC?: number;
  /** What happened (decision 058): set when it first goes live, and when it ends. */
  streamStartedUTC?: number;
  streamEndedUTC?: number;
  /** Set when an admin ends or cancels someone else's stream. */
  statusReason?: string;
};

export type StreamTransitionRequest = {
  from: StreamStatus;
  to: StreamStatus;
  actor: Actor;
  stream: StreamTimes;
  shopStatus: ShopStatus;
  now: number;
  /** Why: required when an admin ends or cancels someone else's stream (`streamMoveNeedsReason`). */
  reason?: string;
};

/**
 * Whether this move needs a reason for the stream's owner: an admin ending or cancelling a stream of a
 * shop they do not own, as suspending a shop does. Their own streams, and pausing (the owner resumes),
 * need none.
 */
export function streamMoveNeedsReason(action: StreamAction, actor: Actor): boolean {
  return (action === "end" || action === "cancel") && actor.isAdmin && !actor.isOwner;
}

/**
 * What scheduling needs (title, both times, stop after start), also usable when a scheduled stream's
 * times are edited. Returns the refusal, or null when the schedule is complete.
 */
export function checkStreamSchedule(stream: StreamTimes): TransitionRefusal | null {
  if (stream.streamTitle.trim() === "") return refuse("MISSING_TITLE", "Give the stream a title first.");
  const { streamStartUTC: start, streamStopUTC: stop } = stream;
  if (start === undefined && stop === undefined) {
    return refuse("MISSING_TIMES", "Set a start and a stop time first.");
  }
  if (start === undefined) return refuse("MISSING_TIMES", "Set a start time first.");
  if (stop === undefined) return refuse("MISSING_TIMES", "Set a stop time first.");
  if (stop <= start) return refuse("STOP_BEFORE_START", "The stop time must be after the start time.");
  return null;
}

function checkStreamCondition(
  condition: StreamCondition,
  request: StreamTransitionRequest,
): TransitionRefusal | null {
  switch (condition) {
    case "shopActive":
      return request.shopStatus === "active"
        ? null
        : refuse("SHOP_NOT_ACTIVE", "The shop must be active (verified and open) first.");
    case "schedule":
      return checkStreamSchedule(request.stream);
  }
}

export function findStreamRule(from: StreamStatus, to: StreamStatus): StreamRule | undefined {
  return STREAM_TRANSITIONS.find((rule) => rule.from === from && rule.to === to);
}

/** Decides a status change and returns the fields to write, or why it is refused. */
export function checkStreamTransition(request: StreamTransitionRequest): TransitionResult<StreamPatch> {
  const { from, to, actor, stream, now } = request;
  const rule = findStreamRule(from, to);
  if (!rule) {
    const message =
      from === to
        ? `The stream is already ${STREAM_STATUS_WORDS[from]}.`
        : `A stream that is ${STREAM_STATUS_WORDS[from]} cannot become ${STREAM_STATUS_WORDS[to]}.`;
    return refuse("INVALID_TRANSITION", message);
  }
  if (!actorMayAct(actor, rule.who)) {
    return refuse("FORBIDDEN", `Only ${describeWho(rule.who)} can ${STREAM_ACTION_PHRASES[rule.action]}.`);
  }
  for (const condition of rule.requires) {
    const refusal = checkStreamCondition(condition, request);
    if (refusal) return refusal;
  }
  const patch: StreamPatch = { streamStatus: to };
  if (streamMoveNeedsReason(rule.action, actor)) {
    const reason = checkReason(request.reason, "the stream's owner");
    if (!reason.ok) return reason;
    patch.statusReason = reason.reason;
  }
  return { ok: true, patch: { ...patch, ...timesRecordedByMove(from, to, stream, now) } };
}

/**
 * The times a status change writes, at `now`. What happened, whatever the plan said (decision 058): the
 * first go-live (a resume is not a start), and the end of a show that was on (ended, or cancelled while
 * paused). And going live without a planned start plans it now, ending without a planned stop likewise
 * (so a show's plan is always complete once it has run). The dashboard's optimistic update uses it too.
 */
export function timesRecordedByMove(
  from: StreamStatus,
  to: StreamStatus,
  stream: Omit<StreamTimes, "streamTitle">,
  now: number,
): Pick<StreamPatch, "streamStartUTC" | "streamStopUTC" | "streamStartedUTC" | "streamEndedUTC"> {
  return {
    ...(to === "LIVE" && stream.streamStartUTC === undefined && { streamStartUTC: now }),
    ...(to === "ENDED" && stream.streamStopUTC === undefined && { streamStopUTC: now }),
    ...(to === "LIVE" &&
      from !== "PAUSED" &&
      stream.streamStartedUTC === undefined && { streamStartedUTC: now }),
    ...((to === "ENDED" || (to === "CANCELLED" && from === "PAUSED")) && { streamEndedUTC: now }),
  };
}

export type AllowedTransition<Status, Action> = { to: Status; action: Action; label: string };

/**
 * The buttons to offer: every rule this actor may use from this status. Conditions are not checked here
 * (call checkStreamTransition to explain a disabled button).
 */
export function allowedStreamTransitions(
  from: StreamStatus,
  actor: Actor,
): (AllowedTransition<StreamStatus, StreamAction> & { needsReason: boolean })[] {
  return STREAM_TRANSITIONS.filter((rule) => rule.from === from && actorMayAct(actor, rule.who)).map(
    ({ to, action, label }) => ({ to, action, label, needsReason: streamMoveNeedsReason(action, actor) }),
  );
}

export function isTerminalStreamStatus(status: StreamStatus): boolean {
  return status === "ENDED" || status === "CANCELLED";
}

/** ENDED is terminal for its status, but a replay URL may still be added or changed afterwards. */
export function canSetReplayUrl(status: StreamStatus): boolean {
  return status === "ENDED";
}

/** The scheduled job ends a LIVE or PAUSED stream whose stop time passed more than two hours ago. */
export function shouldAutoEnd(
  stream: { streamStatus: StreamStatus; streamStopUTC?: number },
  now: number,
): boolean {
  if (stream.streamStatus !== "LIVE" && stream.streamStatus !== "PAUSED") return false;
  return stream.streamStopUTC !== undefined && now - stream.streamStopUTC > AUTO_END_AFTER_MS;
}

/** How late a scheduled show may be before the dashboard flags it. */
export const LATE_START_AFTER_MS = 15 * 60 * 1000;

export type StreamAttention = "missingTimes" | "startPassed" | "stopPassed";

/**
 * Why the dashboard should flag a stream to its owner, given the viewer's clock (computed in the
 * browser: queries cannot read the time). A draft or scheduled show without both times, a scheduled
 * show whose start passed over 15 minutes ago, a live or paused show past its stop time.
 */
export function streamAttention(
  stream: { streamStatus: StreamStatus; streamStartUTC?: number; streamStopUTC?: number },
  now: number,
): StreamAttention[] {
  const { streamStatus: status, streamStartUTC: start, streamStopUTC: stop } = stream;
  const reasons: StreamAttention[] = [];
  if ((status === "CREATED" || status === "SCHEDULED") && (start === undefined || stop === undefined))
    reasons.push("missingTimes");
  if (status === "SCHEDULED" && start !== undefined && now - start > LATE_START_AFTER_MS)
    reasons.push("startPassed");
  if ((status === "LIVE" || status === "PAUSED") && stop !== undefined && now > stop)
    reasons.push("stopPassed");
  return reasons;
}

// ---------------------------------------------------------------------------------------------------
// Live shops

export type ShopAction =
  | "submit"
  | "approve"
  | "reject"
  | "closeTemporarily"
  | "endTemporaryClosure"
  | "suspend"
  | "reinstate"
  | "close"
  | "reopen";

type ShopRule = {
  from: ShopStatus;
  to: ShopStatus;
  who: readonly ActorRole[];
  action: ShopAction;
  label: string;
  /** The reason is stored on the shop and shown to its owner. */
  needsReason: boolean;
  /** Only submission has conditions: the details a verifier needs. */
  needsDetails: boolean;
};

function shopRule(
  from: ShopStatus,
  to: ShopStatus,
  who: readonly ActorRole[],
  action: ShopAction,
  label: string,
  needs: { reason?: boolean; details?: boolean } = {},
): ShopRule {
  return {
    from,
    to,
    who,
    action,
    label,
    needsReason: needs.reason ?? false,
    needsDetails: needs.details ?? false,
  };
}

/** One entry per from→to pair of docs/product.md's live shop table. */
export const SHOP_TRANSITIONS: readonly ShopRule[] = [
  shopRule("draft", "pending_verification", OWNER, "submit", "Submit for verification", { details: true }),
  shopRule("pending_verification", "active", ADMIN, "approve", "Approve"),
  shopRule("pending_verification", "draft", ADMIN, "reject", "Reject", { reason: true }),
  shopRule("active", "maintenance", OWNER, "closeTemporarily", "Close temporarily"),
  shopRule("maintenance", "active", OWNER, "endTemporaryClosure", "End temporary closure"),
  shopRule("active", "suspended", ADMIN, "suspend", "Suspend", { reason: true }),
  shopRule("maintenance", "suspended", ADMIN, "suspend", "Suspend", { reason: true }),
  shopRule("suspended", "active", ADMIN, "reinstate", "Reinstate"),
  shopRule("draft", "inactive", OWNER, "close", "Close shop"),
  shopRule("active", "inactive", OWNER, "close", "Close shop"),
  shopRule("maintenance", "inactive", OWNER, "close", "Close shop"),
  shopRule("inactive", "draft", OWNER, "reopen", "Reopen shop"),
];

/** Each action as the end of "Only … can …" (see STREAM_ACTION_PHRASES). */
const SHOP_ACTION_PHRASES: Record<ShopAction, string> = {
  submit: "submit this shop for verification",
  approve: "approve this shop",
  reject: "reject this shop",
  closeTemporarily: "close this shop temporarily",
  endTemporaryClosure: "end this shop's temporary closure",
  suspend: "suspend this shop",
  reinstate: "reinstate this shop",
  close: "close this shop",
  reopen: "reopen this shop",
};

const SHOP_STATUS_WORDS: Record<ShopStatus, string> = {
  draft: "a draft",
  pending_verification: "waiting for verification",
  active: "active",
  maintenance: "temporarily closed",
  suspended: "suspended",
  inactive: "closed",
};

export type ShopRequirement = "name" | "slug" | "timezone" | "description" | "category" | "metroArea";

const SHOP_REQUIREMENT_WORDS: Record<ShopRequirement, string> = {
  name: "a name",
  slug: "a web address (slug)",
  timezone: "a time zone",
  description: "a description",
  category: "at least one category",
  metroArea: "at least one metro area",
};

export type ShopDetails = {
  liveShopName: string;
  slug: string;
  timezone?: string;
  description?: string;
  categoryCount: number;
  msaCount: number;
};

export type ShopTransitionRefusal = TransitionRefusal & { missing?: ShopRequirement[] };

/** `statusReason: undefined` removes the field in a Convex patch: a reason only outlives its own change. */
export type ShopPatch = { status: ShopStatus; statusReason: string | undefined };

export type ShopTransitionResult = { ok: true; patch: ShopPatch } | ShopTransitionRefusal;

export type ShopTransitionRequest = {
  from: ShopStatus;
  to: ShopStatus;
  actor: Actor;
  shop: ShopDetails;
  reason?: string;
};

/** What a shop still lacks before it can be submitted for verification, in form order. */
export function missingShopRequirements(shop: ShopDetails): ShopRequirement[] {
  const isBlank = (value: string | undefined) => value === undefined || value.trim() === "";
  const missing: ShopRequirement[] = [];
  if (isBlank(shop.liveShopName)) missing.push("name");
  if (isBlank(shop.slug)) missing.push("slug");
  if (!TIME_ZONES.some((zone) => zone === shop.timezone)) missing.push("timezone");
  if (isBlank(shop.description)) missing.push("description");
  if (shop.categoryCount < 1) missing.push("category");
  if (shop.msaCount < 1) missing.push("metroArea");
  return missing;
}

function listInWords(words: string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/** "a description, at least one category and at least one metro area". */
export function describeShopRequirements(missing: readonly ShopRequirement[]): string {
  return listInWords(missing.map((requirement) => SHOP_REQUIREMENT_WORDS[requirement]));
}

/**
 * Once submitted, a shop keeps what submission required, so verified details cannot be emptied
 * behind the verifier's back; drafts and closed shops may be incomplete.
 */
export function mustKeepShopRequirements(status: ShopStatus): boolean {
  return status !== "draft" && status !== "inactive";
}

export function findShopRule(from: ShopStatus, to: ShopStatus): ShopRule | undefined {
  return SHOP_TRANSITIONS.find((rule) => rule.from === from && rule.to === to);
}

export function checkShopTransition(request: ShopTransitionRequest): ShopTransitionResult {
  const { from, to, actor, shop } = request;
  const rule = findShopRule(from, to);
  if (!rule) {
    const message =
      from === to
        ? `The shop is already ${SHOP_STATUS_WORDS[from]}.`
        : `A shop that is ${SHOP_STATUS_WORDS[from]} cannot become ${SHOP_STATUS_WORDS[to]}.`;
    return refuse("INVALID_TRANSITION", message);
  }
  if (!actorMayAct(actor, rule.who)) {
    return refuse("FORBIDDEN", `Only ${describeWho(rule.who)} can ${SHOP_ACTION_PHRASES[rule.action]}.`);
  }
  if (rule.needsDetails) {
    const missing = missingShopRequirements(shop);
    if (missing.length > 0) {
      const words = describeShopRequirements(missing);
      return {
        ...refuse("MISSING_SHOP_DETAILS", `Add ${words} before submitting for verification.`),
        missing,
      };
    }
  }
  if (!rule.needsReason) return { ok: true, patch: { status: to, statusReason: undefined } };
  const reason = checkReason(request.reason, "the shop's owner");
  if (!reason.ok) return reason;
  return { ok: true, patch: { status: to, statusReason: reason.reason } };
}

export function allowedShopTransitions(
  from: ShopStatus,
  actor: Actor,
): (AllowedTransition<ShopStatus, ShopAction> & { needsReason: boolean })[] {
  return SHOP_TRANSITIONS.filter((rule) => rule.from === from && actorMayAct(actor, rule.who)).map(
    ({ to, action, label, needsReason }) => ({ to, action, label, needsReason }),
  );
}

// ---------------------------------------------------------------------------------------------------
// Visibility

/** Public pages show active shops, and shops in maintenance with a "temporarily closed" notice. */
export function isShopPublic(status: ShopStatus): boolean {
  return status === "active" || status === "maintenance";
}

export function isShopTemporarilyClosed(status: ShopStatus): boolean {
  return status === "maintenance";
}

const PUBLICLY_LISTED_STREAM_STATUSES: readonly StreamStatus[] = ["SCHEDULED", "LIVE", "PAUSED", "ENDED"];

/**
 * Home, explore, live-now and watch-list style lists. docs/product.md says lists show streams "of active
 * shops", so a shop in maintenance drops out of them; its streams stay reachable from its own page and
 * by direct link (isStreamPagePublic), under the shop's "temporarily closed" notice.
 */
export function isStreamListedPublicly(streamStatus: StreamStatus, shopStatus: ShopStatus): boolean {
  return shopStatus === "active" && PUBLICLY_LISTED_STREAM_STATUSES.includes(streamStatus);
}

/**
 * Whether anyone may open the stream's own page: every status but CREATED (a draft, private to its
 * owner), while its shop is public. A CANCELLED stream keeps its page, shown with a notice.
 */
export function isStreamPagePublic(streamStatus: StreamStatus, shopStatus: ShopStatus): boolean {
  return streamStatus !== "CREATED" && isShopPublic(shopStatus);
}

/** The owner, and admins for moderation, also see drafts and streams of shops that are not public. */
export function canViewStreamPage(streamStatus: StreamStatus, shopStatus: ShopStatus, actor: Actor): boolean {
  return actor.isOwner || actor.isAdmin || isStreamPagePublic(streamStatus, shopStatus);
}
