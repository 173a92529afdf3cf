/**
 * Functions that fail in each way a client must be told about (error-texts.test.ts). Handlers are
 * nameless, as in Convex's own tests, so their frames read `<anonymous>`.
 */
import {
  actionGeneric,
  internalMutationGeneric,
  mutationGeneric,
  queryGeneric,
  type FunctionReference,
} from "convex/server";
import { ConvexError } from "convex/values";
import { api as untypedApi, components as untypedComponents } from "./_generated/api";

type Ref<Kind extends "query" | "mutation" | "action"> = FunctionReference<
  Kind,
  "public",
  Record<string, never>
>;
const api = untypedApi as unknown as {
  failing: {
    queryConvexError: Ref<"query">;
    subclassError: Ref<"query">;
    mutationConvexError: Ref<"mutation">;
    actionConvexError: Ref<"action">;
  };
};
const components = untypedComponents as unknown as {
  thrower: { errors: { throwConvexError: Ref<"query">; throwError: Ref<"query"> } };
};

/** An app's own error class: its name is what the client reads, its data what the app shows. */
class ShopClosedError extends ConvexError<{ message: string; code: bigint }> {
  name = "ShopClosedError";
  constructor(message: string) {
    super({ message, code: 42n });
  }
}

export const queryConvexError = queryGeneric(() => {
  throw new ConvexError("Boom boom bop");
});

export const queryError = queryGeneric(() => {
  throw new Error("Normal error");
});

export const subclassError = queryGeneric(() => {
  throw new ShopClosedError("The shop is closed");
});

export const mutationConvexError = mutationGeneric(() => {
  throw new ConvexError({ message: "Boom boom bop", code: 123n });
});

export const actionConvexError = actionGeneric(() => {
  throw new ConvexError("Boom boom bop");
});

export const actionCallingQuery = actionGeneric(async (ctx) => {
  await ctx.runQuery(api.failing.queryConvexError, {});
});

export const actionCallingSubclass = actionGeneric(async (ctx) => {
  await ctx.runQuery(api.failing.subclassError, {});
});

export const actionCallingMutation = actionGeneric(async (ctx) => {
  await ctx.runMutation(api.failing.mutationConvexError, {});
});

export const actionCallingAction = actionGeneric(async (ctx) => {
  await ctx.runAction(api.failing.actionConvexError, {});
});

export const queryCallingComponent = queryGeneric(async (ctx) => {
  await ctx.runQuery(components.thrower.errors.throwConvexError, {});
});

export const queryCallingComponentError = queryGeneric(async (ctx) => {
  await ctx.runQuery(components.thrower.errors.throwError, {});
});

export const actionCallingComponent = actionGeneric(async (ctx) => {
  await ctx.runQuery(components.thrower.errors.throwConvexError, {});
});

export const hidden = internalMutationGeneric(() => null);

/** Reads `notes`, then fails: every note written re-runs it, failing alike. */
export const failsAfterReading = queryGeneric(async (ctx) => {
  const notes = await ctx.db.query("notes").collect();
  throw new ConvexError(`Cannot list ${notes.length > 0 ? "some" : "no"} notes`);
});

export const countNotes = queryGeneric(async (ctx) => (await ctx.db.query("notes").collect()).length);

export const addNote = mutationGeneric(async (ctx) => {
  await ctx.db.insert("notes", { at: Date.now() });
});
