/**
 * The only builders public functions use: each gives the handler its caller. Lint forbids importing the
 * raw `query`/`mutation`/`action`/`internalMutation` from `_generated/server` anywhere else
 * (eslint.config.js).
 *
 * Queries degrade: `ctx.viewer` is null for a signed-out caller and the handler returns an empty result.
 * Mutations throw a ConvexError with a code and a sentence.
 */
import {
  customAction,
  customCtx,
  customMutation,
  customQuery,
  type CustomCtx,
} from "convex-helpers/server/customFunctions";
import { zodToConvexFields, type Zid } from "convex-helpers/server/zod4";
import type { RegisteredMutation, UserIdentity } from "convex/server";
import type { GenericId, GenericValidator, Infer } from "convex/values";
import { z } from "zod";
import {
  action as rawAction,
  internalMutation as rawInternalMutation,
  mutation as rawMutation,
  query as rawQuery,
  type MutationCtx,
} from "./_generated/server";
import { fieldErrors } from "./lib/validation";
import { appError } from "./model/errors";
import { triggers } from "./model/triggers";
import { getViewer, getViewerOrThrow } from "./model/viewer";

/**
 * Anyone may call, and everyone gets the same answer: the public boards (live now, starting soon,
 * featured shops) and explore's lists, counts and searches. The handler has no viewer and never asks who is calling, so Convex runs it once
 * for all its viewers instead of once per signed-in person (decision 035). Anything whose answer
 * depends on the caller uses `query`.
 */
export const publicQuery = customQuery(
  rawQuery,
  customCtx(async () => await Promise.resolve({})),
);

/** Anyone may call. `ctx.viewer` is the signed-in caller's user row, or null. */
export const query = customQuery(
  rawQuery,
  customCtx(async (ctx) => ({ viewer: await getViewer(ctx) })),
);

/**
 * Every mutation builder writes through the triggers of model/triggers.ts, which keep derived tables
 * (explore's listings, decision 012) in step whichever helper writes.
 */
function withTriggers(ctx: MutationCtx): Pick<MutationCtx, "db"> {
  return { db: triggers.wrapDB(ctx).db };
}

/** A signed-in caller with a user row: `ctx.viewer`. */
export const mutation = customMutation(
  rawMutation,
  customCtx(async (ctx) => ({ ...withTriggers(ctx), viewer: await getViewerOrThrow(ctx) })),
);

/**
 * Anyone may call, signed in or not: `ctx.viewer` is the caller's user row, or null. Only for what a
 * public page does for its visitor (counting a view, decision 089); it must write nothing about them.
 */
export const visitorMutation = customMutation(
  rawMutation,
  customCtx(async (ctx) => ({ ...withTriggers(ctx), viewer: await getViewer(ctx) })),
);

/** An admin: `ctx.viewer` has role admin. */
export const adminMutation = customMutation(
  rawMutation,
  customCtx(async (ctx) => {
    const viewer = await getViewerOrThrow(ctx);
    if (viewer.role !== "admin") throw appError("FORBIDDEN", "Only an admin can do this.");
    return { ...withTriggers(ctx), viewer };
  }),
);

/**
 * A caller with a valid sign-in token who may not have a user row yet (the row is created from the
 * token by `users.ensureUser`): `ctx.identity`.
 */
export const identityMutation = customMutation(
  rawMutation,
  customCtx(async (ctx): Promise<Pick<MutationCtx, "db"> & { identity: UserIdentity }> => {
    const identity = await ctx.auth.getUserIdentity();
    if (!identity) throw appError("UNAUTHENTICATED", "Sign in to continue.");
    return { ...withTriggers(ctx), identity };
  }),
);

/**
 * An action for a caller with a valid sign-in token: `ctx.identity`. Actions have no database; the
 * internal functions they run take the caller's `identity.subject` (clerkId) from here, never from an
 * argument. Used where a mutation cannot do the work: unseeded randomness (calendarFeed.turnOn).
 */
export const identityAction = customAction(
  rawAction,
  customCtx(async (ctx): Promise<{ identity: UserIdentity }> => {
    const identity = await ctx.auth.getUserIdentity();
    if (!identity) throw appError("UNAUTHENTICATED", "Sign in to continue.");
    return { identity };
  }),
);

/**
 * What the scheduler, crons, webhooks, migrations and the seed run: internal, with the same triggers
 * (docs/style.md#background-work-is-internal). Lint forbids the raw `internalMutation` elsewhere.
 */
export const internalMutation = customMutation(rawInternalMutation, customCtx(withTriggers));

type ZodArgs = Record<string, z.ZodType>;

/**
 * What a caller passes: each schema's input (blank text, absent defaults allowed), with `zid` fields as
 * typed ids. convex-helpers types nested objects by their parsed output instead, which would make
 * callers send defaulted fields (a shop's `timezone`, a category's `priority`) that Convex accepts absent.
 */
type ZodArgsInput<Args extends ZodArgs> = {
  [K in keyof z.input<z.ZodObject<Args>>]: K extends keyof Args
    ? Args[K] extends Zid<infer Table>
      ? GenericId<Table>
      : z.input<z.ZodObject<Args>>[K]
    : never;
};

/**
 * `mutation` with arguments given as zod schemas, the same ones the forms use (convex/lib/validation.ts).
 * Convex checks the shape (`zodToConvexFields`); after the caller is known, zod checks every rule and
 * hands the handler the parsed values (trimmed, defaults applied). A refusal is an INVALID_ARGUMENT
 * ConvexError with the form's first message and `fields` (every message by dotted path), so the
 * browser shows the sentence the form would have shown. convex-helpers' `zCustomMutation` throws
 * `{ ZodError }` instead, which has no `code` or `message`.
 */
export function zMutation<Args extends ZodArgs, Returns extends GenericValidator>(definition: {
  args: Args;
  returns: Returns;
  handler: (ctx: CustomCtx<typeof mutation>, args: z.output<z.ZodObject<Args>>) => Promise<Infer<Returns>>;
}): RegisteredMutation<"public", ZodArgsInput<Args>, Promise<Infer<Returns>>> {
  const schema = z.object(definition.args);
  const registered = mutation({
    args: zodToConvexFields(definition.args),
    returns: definition.returns,
    handler: async (ctx, rawArgs) => {
      const parsed = schema.safeParse(rawArgs);
      if (!parsed.success) {
        const fields = fieldErrors(parsed.error);
        const message = parsed.error.issues[0]?.message ?? "Check the highlighted fields.";
        throw appError("INVALID_ARGUMENT", message, { fields });
      }
      return await definition.handler(ctx, parsed.data);
    },
  });
  // The declared return type only narrows what callers pass to what Convex accepts (see ZodArgsInput).
  return registered;
}
