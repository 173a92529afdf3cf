/** The app's functions over its component's file storage (storage-components.test.ts). */
import { actionGeneric, mutationGeneric, queryGeneric, type FunctionReference } from "convex/server";
import { v } from "convex/values";
import { components as untyped } from "./_generated/api";

const components = untyped as unknown as {
  counter: {
    files: {
      uploadUrl: FunctionReference<"mutation", "internal", Record<string, never>, string>;
      url: FunctionReference<"query", "internal", { id: string }, string | null>;
      list: FunctionReference<"query", "internal", Record<string, never>, { _id: string; size: number }[]>;
      store: FunctionReference<"action", "internal", { text: string }, string>;
    };
  };
};

export const componentUploadUrl = mutationGeneric({
  args: {},
  handler: async (ctx) => await ctx.runMutation(components.counter.files.uploadUrl, {}),
});

export const componentUrl = queryGeneric({
  args: { id: v.string() },
  handler: async (ctx, { id }) => await ctx.runQuery(components.counter.files.url, { id }),
});

export const componentFiles = queryGeneric({
  args: {},
  handler: async (ctx) => await ctx.runQuery(components.counter.files.list, {}),
});

export const componentStore = actionGeneric({
  args: { text: v.string() },
  handler: async (ctx, { text }) => await ctx.runAction(components.counter.files.store, { text }),
});

/** The app's own files, and its own file URL for an id (null: not the app's). */
export const appFiles = queryGeneric({
  args: {},
  handler: async (ctx) => (await ctx.db.system.query("_storage").collect()).map(({ _id }) => _id),
});

export const appUrl = queryGeneric({
  args: { id: v.string() },
  handler: async (ctx, { id }) => await ctx.storage.getUrl(id),
});
