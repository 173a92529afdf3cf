/** Functions only a test's backend runs, beside the fixture's functions folder (extra-functions.test.ts). */
import { v } from "convex/values";
import { internalMutation } from "../convex/_generated/server";

export const postAs = internalMutation({
  args: { channel: v.string(), author: v.string(), body: v.string() },
  handler: async (ctx, args) => await ctx.db.insert("messages", args),
});
