import { v } from "convex/values";
import { query } from "./_generated/server";

/** A deployment environment variable as functions see it (`npx convex env set`). */
export const read = query({
  args: { name: v.string() },
  returns: v.union(v.string(), v.null()),
  handler: (_ctx, { name }) => process.env[name] ?? null,
});
