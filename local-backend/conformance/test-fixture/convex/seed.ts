import { internalMutation } from "./_generated/server";

/** What the backend runs on an empty store (host/backend.ts seeds with `seed:seedDemoData`). */
export const seedDemoData = internalMutation({
  args: {},
  handler: async (ctx) => {
    const existing = await ctx.db
      .query("messages")
      .withIndex("by_channel_rank", (q) => q.eq("channel", "seeded"))
      .first();
    if (existing) return;
    await ctx.db.insert("messages", { channel: "seeded", author: "seed", body: "welcome" });
  },
});
