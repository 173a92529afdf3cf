import { paginationOptsValidator, makeFunctionReference } from "convex/server";
import { ConvexError, v } from "convex/values";
import { action, internalMutation, internalQuery, mutation, query } from "./_generated/server";

const addRef = makeFunctionReference<"mutation", { channel: string; author: string; body: string }, string>(
  "messages:add",
);
const countRef = makeFunctionReference<"query", { channel: string }, number>("messages:count");

export const list = query({
  args: { channel: v.string() },
  handler: async (ctx, { channel }) => {
    console.log("listing", channel);
    const rows = await ctx.db
      .query("messages")
      .withIndex("by_channel_rank", (q) => q.eq("channel", channel))
      .collect();
    return rows.map((row) => ({ author: row.author, body: row.body }));
  },
});

export const count = query({
  args: { channel: v.string() },
  handler: async (ctx, { channel }) => {
    const rows = await ctx.db
      .query("messages")
      .withIndex("by_channel_rank", (q) => q.eq("channel", channel))
      .collect();
    return rows.length;
  },
});

export const page = query({
  args: { channel: v.string(), paginationOpts: paginationOptsValidator },
  handler: async (ctx, { channel, paginationOpts }) => {
    return await ctx.db
      .query("messages")
      .withIndex("by_channel_rank", (q) => q.eq("channel", channel))
      .paginate(paginationOpts);
  },
});

export const send = mutation({
  args: { channel: v.string(), body: v.string() },
  handler: async (ctx, { channel, body }) => {
    const identity = await ctx.auth.getUserIdentity();
    console.info("sending", body);
    return await ctx.db.insert("messages", { channel, body, author: identity?.name ?? "anonymous" });
  },
});

/** Inserts at a chosen place in the `page` order. */
export const insertRanked = mutation({
  args: { channel: v.string(), body: v.string(), rank: v.number() },
  handler: async (ctx, args) => await ctx.db.insert("messages", { ...args, author: "ranked" }),
});

/** Internal: only other functions may call it. */
export const add = internalMutation({
  args: { channel: v.string(), author: v.string(), body: v.string() },
  handler: async (ctx, args) => await ctx.db.insert("messages", args),
});

export const secret = internalQuery({
  args: {},
  handler: () => "secret",
});

export const sendViaAction = action({
  args: { channel: v.string(), body: v.string() },
  handler: async (ctx, { channel, body }): Promise<number> => {
    await ctx.runMutation(addRef, { channel, body, author: "action" });
    return await ctx.runQuery(countRef, { channel });
  },
});

export const failWithConvexError = mutation({
  args: {},
  handler: () => {
    throw new ConvexError({ code: "NOT_ALLOWED", message: "You may not do that" });
  },
});

export const queryThrows = query({
  args: {},
  handler: () => {
    throw new Error("query exploded");
  },
});

export const whoami = query({
  args: {},
  handler: async (ctx) => {
    const identity = await ctx.auth.getUserIdentity();
    return identity === null
      ? null
      : {
          tokenIdentifier: identity.tokenIdentifier,
          subject: identity.subject,
          issuer: identity.issuer,
          email: identity.email ?? null,
          name: identity.name ?? null,
          pictureUrl: identity.pictureUrl ?? null,
        };
  },
});

/** The whole identity, as Convex's own auth tests read it. */
export const identity = query({
  args: {},
  handler: async (ctx) => await ctx.auth.getUserIdentity(),
});

export const sendLater = mutation({
  args: { channel: v.string(), body: v.string(), delayMs: v.number() },
  handler: async (ctx, { channel, body, delayMs }) => {
    return await ctx.scheduler.runAfter(delayMs, addRef, { channel, body, author: "scheduler" });
  },
});

export const tick = internalMutation({
  args: {},
  handler: async (ctx) => {
    await ctx.db.insert("ticks", { at: Date.now() });
  },
});

export const tickCount = query({
  args: {},
  handler: async (ctx) => (await ctx.db.query("ticks").collect()).length,
});

/** Takes no arguments and writes: what arguments that are not an object must never reach. */
export const touch = mutation({
  args: {},
  handler: async (ctx) => {
    await ctx.db.insert("ticks", { at: Date.now() });
  },
});

/** Two queries open at once, the first closed before a third opens (query ids must not be reused). */
export const interleaved = query({
  args: {},
  handler: async (ctx) => {
    const first = ctx.db.query("messages").order("asc")[Symbol.asyncIterator]();
    const second = ctx.db.query("messages").order("desc")[Symbol.asyncIterator]();
    const a = await first.next();
    const b = await second.next();
    await first.return?.();
    const third = await ctx.db.query("messages").order("asc").take(1);
    const c = await second.next();
    const body = (row: unknown) => (row as { body?: string } | undefined)?.body ?? null;
    return [body(a.value), body(b.value), body(third[0]), body(c.value)];
  },
});

/** Part of a channel in rank order (`rank` bounds, order, limit, a filter): read sets of every shape. */
export const window = query({
  args: {
    channel: v.string(),
    above: v.optional(v.number()),
    below: v.optional(v.number()),
    order: v.union(v.literal("asc"), v.literal("desc")),
    take: v.number(),
    bodyNot: v.optional(v.string()),
  },
  handler: async (ctx, { channel, above, below, order, take, bodyNot }) => {
    let query = ctx.db
      .query("messages")
      .withIndex("by_channel_rank", (q) => {
        const eq = q.eq("channel", channel);
        if (above !== undefined && below !== undefined) return eq.gt("rank", above).lt("rank", below);
        if (above !== undefined) return eq.gt("rank", above);
        if (below !== undefined) return eq.lt("rank", below);
        return eq;
      })
      .order(order);
    // A filter on purpose: read sets cover the rows a filter skips.
    // eslint-disable-next-line @convex-dev/no-filter-in-query
    if (bodyNot !== undefined) query = query.filter((q) => q.neq(q.field("body"), bodyNot));
    const rows = await query.take(take);
    return rows.map((row) => `${row.body}@${row.rank ?? "-"}`);
  },
});

/** Moves, renames or deletes a message. */
export const edit = mutation({
  args: {
    id: v.id("messages"),
    channel: v.optional(v.string()),
    rank: v.optional(v.number()),
    body: v.optional(v.string()),
    remove: v.optional(v.boolean()),
  },
  handler: async (ctx, { id, remove, ...fields }) => {
    if (remove) await ctx.db.delete("messages", id);
    else await ctx.db.patch("messages", id, fields);
  },
});

/** A channel's messages, each marked when the caller wrote it: the result depends on who asks. */
export const listForViewer = query({
  args: { channel: v.string() },
  handler: async (ctx, { channel }) => {
    const identity = await ctx.auth.getUserIdentity();
    const rows = await ctx.db
      .query("messages")
      .withIndex("by_channel_rank", (q) => q.eq("channel", channel))
      .collect();
    return rows.map((row) => ({ body: row.body, mine: row.author === identity?.name }));
  },
});

const stopEarlyArgs = {
  channel: v.string(),
  how: v.union(v.literal("first"), v.literal("take"), v.literal("break")),
  n: v.number(),
};
const stopEarlyRef = makeFunctionReference<
  "query",
  { channel: string; how: "first" | "take" | "break"; n: number },
  { ranks: (number | null)[]; documentsRead: number }
>("messages:stopEarly");

/**
 * Reads the channel in rank order and stops early (`first()`, `take(n)`, or a loop that breaks after
 * `n`): the ranks it read and the documents read counted against its limits.
 */
export const stopEarly = query({
  args: stopEarlyArgs,
  handler: async (ctx, { channel, how, n }) => {
    const query = ctx.db.query("messages").withIndex("by_channel_rank", (q) => q.eq("channel", channel));
    let rows: { rank?: number }[] = [];
    if (how === "first") rows = [await query.first()].flatMap((row) => row ?? []);
    else if (how === "take") rows = await query.take(n);
    else {
      for await (const row of query) {
        rows.push(row);
        if (rows.length >= n) break;
      }
    }
    const metrics = await ctx.meta.getTransactionMetrics();
    return { ranks: rows.map((row) => row.rank ?? null), documentsRead: metrics.documentsRead.used };
  },
});

/** `stopEarly` run within a budget of `documentsRead` (`transactionLimits`). */
export const stopEarlyWithin = query({
  args: { ...stopEarlyArgs, documentsRead: v.number() },
  handler: async (ctx, { documentsRead, ...args }) =>
    await ctx.runQuery(stopEarlyRef, args, { transactionLimits: { documentsRead } }),
});
