/** A component written in TypeScript in the app's own repo, as `convex init` writes one. */
import {
  mutationGeneric,
  queryGeneric,
  type DataModelFromSchemaDefinition,
  type MutationBuilder,
  type QueryBuilder,
} from "convex/server";
import { v } from "convex/values";
import { isMainThread } from "node:worker_threads";
import type schema from "./schema";

// What the component's `_generated/server.ts` would give.
type DataModel = DataModelFromSchemaDefinition<typeof schema>;
const query = queryGeneric as QueryBuilder<DataModel, "public">;
const mutation = mutationGeneric as MutationBuilder<DataModel, "public">;

export const get = query({
  args: { name: v.string() },
  handler: async (ctx, { name }) => {
    const row = await ctx.db
      .query("counts")
      .withIndex("by_name", (q) => q.eq("name", name))
      .unique();
    return row?.value ?? null;
  },
});

/**
 * Loops for ever where it can be stopped (an isolate, whose time limit ends it). On the backend's own
 * thread a loop would freeze the server, so there it gives up at once and says where it ran.
 */
export const spin = query({
  args: {},
  handler: () => {
    while (!isMainThread) {
      // spins
    }
    return "ran on the backend's thread";
  },
});

export const add = mutation({
  args: { name: v.string(), by: v.union(v.number(), v.string()) },
  handler: async (ctx, { name, by }) => {
    const row = await ctx.db
      .query("counts")
      .withIndex("by_name", (q) => q.eq("name", name))
      .unique();
    // A string gets as far as the database: the component's schema is what refuses it.
    const value = (row?.value ?? 0) + (by as number);
    if (row) await ctx.db.patch(row._id, { value });
    else await ctx.db.insert("counts", { name, value });
    return value;
  },
});
