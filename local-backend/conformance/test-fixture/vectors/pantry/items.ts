/** A component with a vector index of its own (vector-search.test.ts). */
import { actionGeneric, mutationGeneric } from "convex/server";
import { v } from "convex/values";

export const add = mutationGeneric({
  args: { name: v.string(), embedding: v.array(v.float64()) },
  handler: async (ctx, args) => await ctx.db.insert("items", args),
});

export const search = actionGeneric({
  args: { table: v.string(), vector: v.array(v.float64()) },
  handler: async (ctx, { table, vector }) => await ctx.vectorSearch(table, "by_embedding", { vector }),
});
