/** Functions that meet Convex's limits on values and transactions (limits.test.ts), in tables of their own. */
import {
  makeFunctionReference,
  paginationOptsValidator,
  type GenericDatabaseWriter,
  type GenericDataModel,
} from "convex/server";
import { v, type Value } from "convex/values";
import { internalMutation, mutation, query } from "./_generated/server";

type Writer = GenericDatabaseWriter<GenericDataModel>;
const writer = (ctx: { db: unknown }) => ctx.db as Writer;
const writeManyRef = makeFunctionReference<"mutation", { table: string; count: number }, null>(
  "limits:writeMany",
);

/** `{s}` documents of exactly these Convex sizes, `_id` (`idLength` long) and `_creationTime` included. */
export const insertSized = mutation({
  args: { table: v.string(), sizes: v.array(v.number()), idLength: v.number() },
  handler: async (ctx, { table, sizes, idLength }) => {
    // {} 2; _creationTime 13 + 1 + 9; _id 3 + 1 + idLength + 2; s 1 + 1 + its length + 2
    const overhead = 2 + 23 + 6 + idLength + 4;
    for (const size of sizes) await writer(ctx).insert(table, { s: "a".repeat(size - overhead) });
    return null;
  },
});

export const insertValue = mutation({
  args: {
    table: v.string(),
    kind: v.union(
      v.literal("array"),
      v.literal("object"),
      v.literal("fields"),
      v.literal("nested"),
      v.literal("name"),
    ),
    n: v.number(),
  },
  handler: async (ctx, { table, kind, n }) => {
    const object = () => Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, i]));
    let nested: Value = 1;
    for (let i = 0; i < n; i += 1) nested = [nested];
    const document: Record<string, Value> =
      kind === "array"
        ? { list: new Array(n).fill(0) }
        : kind === "object"
          ? { o: object() }
          : kind === "fields"
            ? object()
            : kind === "nested"
              ? { a: nested }
              : { ["f".repeat(n)]: 1 };
    return await writer(ctx).insert(table, document);
  },
});

export const count = query({
  args: { table: v.string() },
  handler: async (ctx, { table }) => (await (ctx.db as Writer).query(table).collect()).length,
});

/** `count` single-key index ranges of `messages`, none of them touching another. */
export const ranges = query({
  args: { count: v.number() },
  handler: async (ctx, { count }) => {
    for (let i = 0; i < count; i += 1) {
      await ctx.db
        .query("messages")
        .withIndex("by_channel_rank", (q) => q.eq("channel", `range-${i}`))
        .first();
    }
    return count;
  },
});

export const bigResult = query({
  args: { length: v.number() },
  handler: (_ctx, { length }) => Promise.resolve("a".repeat(length)),
});

export const page = query({
  args: { table: v.string(), paginationOpts: paginationOptsValidator },
  handler: async (ctx, { table, paginationOpts }) =>
    await (ctx.db as Writer).query(table).paginate(paginationOpts),
});

export const writeMany = internalMutation({
  args: { table: v.string(), count: v.number() },
  handler: async (ctx, { table, count }) => {
    for (let i = 0; i < count; i += 1) await writer(ctx).insert(table, { s: `${i}` });
    return null;
  },
});

/** Writes one document, then has a nested mutation write `writes` within a budget of `budget` writes. */
export const nestedBudget = mutation({
  args: { table: v.string(), budget: v.number(), writes: v.number() },
  handler: async (ctx, { table, budget, writes }) => {
    await writer(ctx).insert(table, { s: "parent" });
    let error: string | null = null;
    try {
      await ctx.runMutation(
        writeManyRef,
        { table, count: writes },
        { transactionLimits: { documentsWritten: budget } },
      );
    } catch (e) {
      error = (e as Error).message;
    }
    const metrics = await ctx.meta.getTransactionMetrics();
    return { error, documentsWritten: metrics.documentsWritten };
  },
});
