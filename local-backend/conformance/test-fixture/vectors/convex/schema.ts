import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  foods: defineTable({
    name: v.string(),
    cuisine: v.string(),
    spicy: v.optional(v.boolean()),
    embedding: v.optional(v.array(v.float64())),
  })
    .index("by_name", ["name"])
    .vectorIndex("by_embedding", {
      vectorField: "embedding",
      dimensions: 3,
      filterFields: ["cuisine", "spicy"],
    }),
  drafts: defineTable({ embedding: v.array(v.float64()) }).vectorIndex("by_embedding", {
    vectorField: "embedding",
    dimensions: 3,
    staged: true,
  }),
});
