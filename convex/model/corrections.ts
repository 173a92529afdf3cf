/**
 * An admin correcting a person's data for their open correction request (GDPR article 16; issue 16,
 * decision 027): the profile (name, email where Clerk does not manage it, picture) and the text of the
 * shops and shows they own. Every change goes through the same write helpers as the person's own edits
 * (so listings, streams' copies of the shop's name and the picture files follow), is kept on the request
 * for the person to read (`corrections`), and is recorded in the activity log. Approving a correction
 * needs at least one.
 */
import { v, type Infer } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import type {
  ProfileCorrectionInput,
  ShopTextCorrectionInput,
  StreamTextCorrectionInput,
} from "../lib/validation";
import { LIMITS, NOTHING_CORRECTED } from "../lib/validation";
import { correctionValidator, shopStatusValidator, streamStatusValidator, type Correction } from "../schema";
import { recordAdminAction } from "./adminLog";
import { signInManagedByClerk } from "./env";
import { appError } from "./errors";
import { assertShopKeepsRequirements, patchLiveShop } from "./liveShops";
import { patchStream } from "./streams";
import { patchWithTimestamps } from "./timestamps";
import { patchUser, pinnedSignInClaims } from "./users";

/** How much of a value before and after a change is kept for the person to read. */
export const CORRECTION_VALUE_LENGTH = 300;
/** Changes one request keeps; a correction is a handful of fields. */
export const MAX_CORRECTIONS_PER_REQUEST = 60;
/** Shows listed per shop on the correction screen, newest first; older ones in the editor. */
export const CORRECTION_STREAMS_PER_SHOP = 10;

export const correctionSubjectValidator = v.object({
  requestId: v.id("privacyRequests"),
  status: v.string(),
  open: v.boolean(),
  details: v.optional(v.string()),
  reason: v.optional(v.string()),
  requestedAt: v.number(),
  dueAt: v.number(),
  corrections: v.array(correctionValidator),
  person: v.object({
    _id: v.id("users"),
    name: v.optional(v.string()),
    email: v.string(),
    avatar: v.optional(v.string()),
    /** False where Clerk manages sign-in: the email is corrected there. */
    emailEditable: v.boolean(),
  }),
  shops: v.array(
    v.object({
      _id: v.id("liveShops"),
      liveShopName: v.string(),
      headline: v.optional(v.string()),
      description: v.optional(v.string()),
      productsSummary: v.optional(v.string()),
      status: shopStatusValidator,
      streams: v.array(
        v.object({
          _id: v.id("streams"),
          streamTitle: v.string(),
          streamDescription: v.optional(v.string()),
          streamStatus: streamStatusValidator,
        }),
      ),
      /** More shows than listed: the older ones are corrected in the stream editor. */
      moreStreams: v.boolean(),
    }),
  ),
});
export type CorrectionSubject = Infer<typeof correctionSubjectValidator>;

function cut(value: string | undefined): string | undefined {
  if (value === undefined || value === "") return undefined;
  return value.length <= CORRECTION_VALUE_LENGTH ? value : `${value.slice(0, CORRECTION_VALUE_LENGTH - 1)}…`;
}

/** The request with its person, for the correction screen: admins only, any status (to read it later). */
export async function readCorrectionSubject(
  ctx: QueryCtx,
  requestId: Id<"privacyRequests">,
): Promise<CorrectionSubject | null> {
  const request = await ctx.db.get("privacyRequests", requestId);
  if (!request || request.type !== "correction" || !request.userId) return null;
  const user = await ctx.db.get("users", request.userId);
  if (!user) return null;
  const shops = await ctx.db
    .query("liveShops")
    .withIndex("by_userId", (q) => q.eq("userId", user._id))
    .take(LIMITS.shopsPerUser);
  return {
    requestId,
    status: request.status,
    open: request.status === "pending_review",
    details: request.details,
    reason: request.reason,
    requestedAt: request.requestedAt,
    dueAt: request.dueAt,
    corrections: request.corrections ?? [],
    person: {
      _id: user._id,
      name: user.name,
      email: user.email,
      avatar: user.avatar,
      emailEditable: !signInManagedByClerk(),
    },
    shops: await Promise.all(
      shops.map(async (shop) => {
        const streams = await ctx.db
          .query("streams")
          .withIndex("by_liveShopId", (q) => q.eq("liveShopId", shop._id))
          .order("desc")
          .take(CORRECTION_STREAMS_PER_SHOP + 1);
        return {
          _id: shop._id,
          liveShopName: shop.liveShopName,
          headline: shop.headline,
          description: shop.description,
          productsSummary: shop.productsSummary,
          status: shop.status,
          streams: streams.slice(0, CORRECTION_STREAMS_PER_SHOP).map((stream) => ({
            _id: stream._id,
            streamTitle: stream.streamTitle,
            streamDescription: stream.streamDescription,
            streamStatus: stream.streamStatus,
          })),
          moreStreams: streams.length > CORRECTION_STREAMS_PER_SHOP,
        };
      }),
    ),
  };
}

/** The open correction request and its person, or a refusal in words. */
async function openCorrectionOrThrow(
  ctx: MutationCtx,
  requestId: Id<"privacyRequests">,
): Promise<{ request: Doc<"privacyRequests">; user: Doc<"users"> }> {
  const request = await ctx.db.get("privacyRequests", requestId);
  if (!request || request.type !== "correction")
    throw appError("NOT_FOUND", "This correction request does not exist.");
  if (request.status !== "pending_review")
    throw appError(
      "CONFLICT",
      "This request has already been answered; corrections are made while it is open.",
    );
  const user = request.userId && (await ctx.db.get("users", request.userId));
  if (!user) throw appError("NOT_FOUND", "The person who made this request no longer has an account.");
  return { request, user };
}

type Change = { what: string; from?: string; to?: string; kind?: "picture" };

/** The changes between `before` and `after`, field by field, named by `labels`. */
function changesOf<K extends string>(
  labels: Record<K, string>,
  before: Partial<Record<K, string>>,
  after: Partial<Record<K, string>>,
): Change[] {
  return (Object.keys(labels) as K[])
    .filter((key) => (before[key] ?? "") !== (after[key] ?? ""))
    .map((key) => ({ what: labels[key], from: before[key], to: after[key] }));
}

/**
 * Keeps the changes on the request for the person and records the save in the activity log (which
 * fields, never their values: the log outlives a deleted account's words).
 */
async function recordCorrections(
  ctx: MutationCtx,
  admin: Doc<"users">,
  request: Doc<"privacyRequests">,
  user: Doc<"users">,
  changes: Change[],
  logged: string,
  now: number,
): Promise<void> {
  const existing = request.corrections ?? [];
  if (existing.length + changes.length > MAX_CORRECTIONS_PER_REQUEST) {
    throw appError(
      "LIMIT_EXCEEDED",
      `A request keeps at most ${MAX_CORRECTIONS_PER_REQUEST} changes. Approve this one; the person can ask again for more.`,
    );
  }
  const entries: Correction[] = changes.map(({ what, from, to, kind }) => ({
    at: now,
    what,
    ...(cut(from) !== undefined && { from: cut(from) }),
    ...(cut(to) !== undefined && { to: cut(to) }),
    ...(kind && { kind }),
  }));
  await patchWithTimestamps(
    ctx,
    "privacyRequests",
    request._id,
    { corrections: [...existing, ...entries] },
    now,
  );
  await recordAdminAction(
    ctx,
    admin,
    {
      action: "correct_personal_data",
      targetTable: "privacyRequests",
      targetId: request._id,
      targetLabel: `Correction request from ${user.name ?? user.email}`,
      reason: `Corrected ${logged}.`,
    },
    now,
  );
}

/** Words for the log: "name and email", "the name and headline of a shop". */
function listWords(words: string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words.at(-1) ?? ""}`;
}

const PROFILE_LABELS = { name: "Your name", email: "Your email", avatar: "Your picture" } as const;

/** Returns how many fields changed (0: nothing was written). */
export async function correctProfile(
  ctx: MutationCtx,
  admin: Doc<"users">,
  requestId: Id<"privacyRequests">,
  input: ProfileCorrectionInput,
  now = Date.now(),
): Promise<number> {
  const { request, user } = await openCorrectionOrThrow(ctx, requestId);
  const email = input.email?.trim().toLowerCase();
  if (email !== undefined && email !== user.email && signInManagedByClerk()) {
    throw appError(
      "FORBIDDEN",
      "Emails are managed by the sign-in service here: the person changes theirs there, and LiveLocal follows.",
    );
  }
  const after = { name: input.name, email: email ?? user.email, avatar: input.avatar };
  const changes = changesOf(
    PROFILE_LABELS,
    { name: user.name, email: user.email, avatar: user.avatar },
    after,
  ).map((change) =>
    change.what === PROFILE_LABELS.avatar ? { ...change, kind: "picture" as const } : change,
  );
  if (changes.length === 0) return 0;
  const nameOrEmail = after.name !== user.name || after.email !== user.email;
  // patchUser keeps an uploaded picture's use in step (model/images.ts).
  await patchUser(
    ctx,
    user._id,
    {
      ...(after.name !== user.name && { name: after.name }),
      ...(after.email !== user.email && { email: after.email }),
      ...(after.avatar !== user.avatar && { avatar: after.avatar }),
      ...(nameOrEmail && pinnedSignInClaims(user)),
    },
    now,
  );
  const logged = changes.map(({ what }) => what.replace("Your ", ""));
  await recordCorrections(ctx, admin, request, user, changes, `the ${listWords(logged)}`, now);
  return changes.length;
}

/** The owned shop, or a refusal: an admin corrects only the data of the person who asked. */
async function ownedShopOrThrow(ctx: MutationCtx, user: Doc<"users">, liveShopId: Id<"liveShops">) {
  const shop = await ctx.db.get("liveShops", liveShopId);
  if (!shop) throw appError("NOT_FOUND", "This live shop does not exist.");
  if (shop.userId !== user._id)
    throw appError(
      "FORBIDDEN",
      "This shop is not one of the requester's: only their data is corrected here.",
    );
  return shop;
}

export async function correctShopText(
  ctx: MutationCtx,
  admin: Doc<"users">,
  requestId: Id<"privacyRequests">,
  liveShopId: Id<"liveShops">,
  input: ShopTextCorrectionInput,
  now = Date.now(),
): Promise<number> {
  const { request, user } = await openCorrectionOrThrow(ctx, requestId);
  const shop = await ownedShopOrThrow(ctx, user, liveShopId);
  const labels = {
    liveShopName: `Name of your shop “${shop.liveShopName}”`,
    headline: `Headline of your shop “${shop.liveShopName}”`,
    description: `Description of your shop “${shop.liveShopName}”`,
    productsSummary: `Products summary of your shop “${shop.liveShopName}”`,
  };
  const changes = changesOf<keyof typeof labels>(labels, shop, input);
  if (changes.length === 0) return 0;
  await assertShopKeepsRequirements(ctx, shop, { description: input.description });
  await patchLiveShop(
    ctx,
    shop._id,
    {
      liveShopName: input.liveShopName,
      headline: input.headline,
      description: input.description,
      productsSummary: input.productsSummary,
    },
    now,
  );
  const fields = changes.map(({ what }) => what.split(" of your shop")[0]?.toLowerCase() ?? "");
  await recordCorrections(ctx, admin, request, user, changes, `the ${listWords(fields)} of a shop`, now);
  return changes.length;
}

export async function correctStreamText(
  ctx: MutationCtx,
  admin: Doc<"users">,
  requestId: Id<"privacyRequests">,
  streamId: Id<"streams">,
  input: StreamTextCorrectionInput,
  now = Date.now(),
): Promise<number> {
  const { request, user } = await openCorrectionOrThrow(ctx, requestId);
  const stream = await ctx.db.get("streams", streamId);
  if (!stream) throw appError("NOT_FOUND", "This stream does not exist.");
  await ownedShopOrThrow(ctx, user, stream.liveShopId);
  const labels = {
    streamTitle: `Title of your show “${stream.streamTitle}”`,
    streamDescription: `Description of your show “${stream.streamTitle}”`,
  };
  const changes = changesOf<keyof typeof labels>(labels, stream, input);
  if (changes.length === 0) return 0;
  // A correction is the person's right whatever the show's status: an ended show's words too.
  await patchStream(
    ctx,
    stream._id,
    { streamTitle: input.streamTitle, streamDescription: input.streamDescription },
    now,
  );
  const fields = changes.map(({ what }) => what.split(" of your show")[0]?.toLowerCase() ?? "");
  await recordCorrections(ctx, admin, request, user, changes, `the ${listWords(fields)} of a show`, now);
  return changes.length;
}

/** Approving a correction needs something corrected: otherwise it is answered by rejecting, saying why. */
export function assertSomethingCorrected(request: Doc<"privacyRequests">): void {
  if ((request.corrections ?? []).length > 0) return;
  throw appError("CONFLICT", NOTHING_CORRECTED);
}
