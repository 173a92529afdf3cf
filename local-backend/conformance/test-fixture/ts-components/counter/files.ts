/** File storage inside a component: its upload URLs, file URLs and `_storage` are its own. */
import { actionGeneric, mutationGeneric, queryGeneric } from "convex/server";
import { v } from "convex/values";

export const uploadUrl = mutationGeneric({
  args: {},
  handler: async (ctx) => await ctx.storage.generateUploadUrl(),
});

export const url = queryGeneric({
  args: { id: v.string() },
  handler: async (ctx, { id }) => await ctx.storage.getUrl(id),
});

export const list = queryGeneric({
  args: {},
  handler: async (ctx) =>
    (await ctx.db.system.query("_storage").collect()).map(({ _id, size }) => ({ _id, size })),
});

export const store = actionGeneric({
  args: { text: v.string() },
  handler: async (ctx, { text }) => await ctx.storage.store(new Blob([text], { type: "text/plain" })),
});
