import { v } from "convex/values";
import { action, mutation, query } from "./_generated/server";

/** Stores a text file (file storage writes happen in actions). */
export const store = action({
  args: { text: v.string() },
  handler: async (ctx, { text }) => await ctx.storage.store(new Blob([text], { type: "text/plain" })),
});

export const read = action({
  args: { id: v.id("_storage") },
  handler: async (ctx, { id }) => {
    const blob = await ctx.storage.get(id);
    return blob ? await blob.text() : null;
  },
});

export const remove = mutation({
  args: { id: v.id("_storage") },
  handler: async (ctx, { id }) => {
    await ctx.storage.delete(id);
    return null;
  },
});

export const uploadUrl = mutation({
  args: {},
  handler: async (ctx) => await ctx.storage.generateUploadUrl(),
});

export const url = query({
  args: { id: v.id("_storage") },
  handler: async (ctx, { id }) => await ctx.storage.getUrl(id),
});

export const metadata = query({
  args: { id: v.id("_storage") },
  handler: async (ctx, { id }) => {
    const doc = await ctx.db.system.get("_storage", id);
    return doc ? { size: doc.size, contentType: doc.contentType ?? null } : null;
  },
});

// What `ctx.storage` answers for any string (Convex's own tests pass ids of every kind).
export const storageMetadata = query({
  args: { id: v.string() },
  handler: async (ctx, { id }) => await ctx.storage.getMetadata(id as never),
});

export const storageMetadataInAction = action({
  args: { id: v.string() },
  handler: async (ctx, { id }) => await ctx.storage.getMetadata(id as never),
});

export const removeAny = mutation({
  args: { id: v.string() },
  handler: async (ctx, { id }) => {
    await ctx.storage.delete(id as never);
    return null;
  },
});

/** The `_storage` document's digest, as stored (base64). */
export const storedDigest = query({
  args: { id: v.id("_storage") },
  handler: async (ctx, { id }) => (await ctx.db.system.get("_storage", id))?.sha256 ?? null,
});

export const storeChecked = action({
  args: { text: v.string(), sha256: v.string() },
  handler: async (ctx, { text, sha256 }) =>
    await ctx.storage.store(new Blob([text], { type: "text/plain" }), { sha256 }),
});

/** How many files the app's own `_storage` holds. */
export const count = query({
  args: {},
  handler: async (ctx) => (await ctx.db.system.query("_storage").collect()).length,
});
