import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  messages: defineTable({
    channel: v.string(),
    author: v.string(),
    body: v.string(),
    rank: v.optional(v.number()),
  }).index("by_channel_rank", ["channel", "rank"]),
  ticks: defineTable({ at: v.number(), note: v.optional(v.string()) })
    .index("by_at", { fields: ["at"], staged: true })
    .searchIndex("search_note", { searchField: "note", staged: true })
    .searchIndex("by_note", { searchField: "note" }),
});
