/** The app's functions over its in-repo components (ts-components.test.ts). */
import { mutationGeneric, queryGeneric, type FunctionReference } from "convex/server";
import { v } from "convex/values";
import { components as untyped } from "./_generated/api";

const components = untyped as unknown as {
  counter: {
    counts: {
      get: FunctionReference<"query", "internal", { name: string }, number | null>;
      add: FunctionReference<"mutation", "internal", { name: string; by: number | string }, number>;
      spin: FunctionReference<"query", "internal", Record<string, never>, string>;
    };
  };
  broken: { missing: { hello: FunctionReference<"query", "internal", Record<string, never>, string> } };
};

export const get = queryGeneric({
  args: { name: v.string() },
  handler: async (ctx, { name }) => await ctx.runQuery(components.counter.counts.get, { name }),
});

export const add = mutationGeneric({
  args: { name: v.string(), by: v.union(v.number(), v.string()) },
  handler: async (ctx, { name, by }) => await ctx.runMutation(components.counter.counts.add, { name, by }),
});

export const spin = queryGeneric({
  args: {},
  handler: async (ctx) => await ctx.runQuery(components.counter.counts.spin, {}),
});

export const hello = queryGeneric({
  args: {},
  handler: async (ctx) => await ctx.runQuery(components.broken.missing.hello, {}),
});
