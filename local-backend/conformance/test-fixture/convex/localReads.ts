/**
 * Reads an isolate makes itself, then a syscall that crosses in the middle of a stream (decision 092):
 * the stream is handed on to the backend's thread, which must continue it where it was.
 */
import { v } from "convex/values";
import { mutation, query } from "./_generated/server";

/** A channel in rank order; after the `crossAfter`th row, a read of a system table (which crosses). */
export const readAcrossACrossing = query({
  args: { channel: v.string(), crossAfter: v.number() },
  handler: async (ctx, { channel, crossAfter }) => {
    const bodies: string[] = [];
    let crossed = false;
    for await (const row of ctx.db
      .query("messages")
      .withIndex("by_channel_rank", (q) => q.eq("channel", channel))) {
      if (bodies.length === crossAfter) {
        await ctx.db.system.query("_storage").take(1);
        crossed = true;
      }
      bodies.push(row.body);
    }
    return { bodies, crossed };
  },
});

/** Renames a channel's messages as it reads them, then gets each again: what it wrote. */
export const renameAll = mutation({
  args: { channel: v.string(), suffix: v.string() },
  handler: async (ctx, { channel, suffix }) => {
    const ids = [];
    for await (const row of ctx.db
      .query("messages")
      .withIndex("by_channel_rank", (q) => q.eq("channel", channel))) {
      await ctx.db.patch("messages", row._id, { body: `${row.body}${suffix}` });
      ids.push(row._id);
    }
    const again = await Promise.all(ids.map((id) => ctx.db.get("messages", id)));
    return again.map((row) => row?.body ?? null);
  },
});

/** One message's body, by id (null when it is gone). */
export const bodyOf = query({
  args: { id: v.id("messages") },
  handler: async (ctx, { id }) => (await ctx.db.get("messages", id))?.body ?? null,
});
