/** The fixture's vector searches and the writes they follow (vector-search.test.ts). */
import {
  actionGeneric,
  mutationGeneric,
  type DataModelFromSchemaDefinition,
  type FunctionReference,
  type MutationBuilder,
} from "convex/server";
import { v, type GenericId, type Value } from "convex/values";
import { components as untyped } from "./_generated/api";
import type schema from "./schema";

// What `_generated/server.ts` would give.
const mutation = mutationGeneric as MutationBuilder<DataModelFromSchemaDefinition<typeof schema>, "public">;

const components = untyped as unknown as {
  pantry: {
    items: {
      add: FunctionReference<"mutation", "internal", { name: string; embedding: number[] }, string>;
      search: FunctionReference<
        "action",
        "internal",
        { table: string; vector: number[] },
        { _id: string; _score: number }[]
      >;
    };
  };
};

const food = {
  name: v.string(),
  cuisine: v.string(),
  spicy: v.optional(v.boolean()),
  embedding: v.optional(v.array(v.float64())),
};

/** Empties `foods` and inserts `rows`; their ids by name. */
export const reset = mutation({
  args: { rows: v.array(v.object(food)) },
  handler: async (ctx, { rows }) => {
    for (const row of await ctx.db.query("foods").collect()) await ctx.db.delete("foods", row._id);
    const ids: Record<string, string> = {};
    for (const row of rows) ids[row.name] = await ctx.db.insert("foods", row);
    return ids;
  },
});

export const insert = mutation({
  args: food,
  handler: async (ctx, row) => await ctx.db.insert("foods", row),
});

/** Patches `fields` into a food; `unset` names a field to remove. */
export const patch = mutation({
  args: { id: v.string(), fields: v.any(), unset: v.optional(v.string()) },
  handler: async (ctx, { id, fields, unset }) => {
    const patch = { ...(fields as Record<string, Value>), ...(unset && { [unset]: undefined }) };
    await ctx.db.patch("foods", id as GenericId<"foods">, patch);
  },
});

export const remove = mutation({
  args: { id: v.string() },
  handler: async (ctx, { id }) => await ctx.db.delete("foods", id as GenericId<"foods">),
});

/**
 * `ctx.vectorSearch` as asked: `filter` lists `q.eq(field, value)` conditions (a missing `value`
 * is `undefined`), one alone or all in a `q.or`.
 */
export const search = actionGeneric({
  args: {
    table: v.optional(v.string()),
    index: v.optional(v.string()),
    vector: v.array(v.float64()),
    limit: v.optional(v.number()),
    filter: v.optional(v.array(v.object({ field: v.string(), value: v.optional(v.any()) }))),
  },
  handler: async (ctx, { table, index, vector, limit, filter }) => {
    return await ctx.vectorSearch(table ?? "foods", index ?? "by_embedding", {
      vector,
      ...(limit !== undefined && { limit }),
      ...(filter && {
        filter: (q) => {
          const conditions = filter.map(({ field, value }) => q.eq(field, value as Value));
          return conditions.length === 1 ? conditions[0] : q.or(...conditions);
        },
      }),
    });
  },
});

/** A filter that is not `q.eq`/`q.or` (an `as never` away in TypeScript). */
export const searchWithBadFilter = actionGeneric({
  args: { vector: v.array(v.float64()) },
  handler: async (ctx, { vector }) =>
    await ctx.vectorSearch("foods", "by_embedding", { vector, filter: () => true as never }),
});

export const pantryAdd = actionGeneric({
  args: { name: v.string(), embedding: v.array(v.float64()) },
  handler: async (ctx, args) => await ctx.runMutation(components.pantry.items.add, args),
});

export const pantrySearch = actionGeneric({
  args: { table: v.string(), vector: v.array(v.float64()) },
  handler: async (ctx, args) => await ctx.runAction(components.pantry.items.search, args),
});
