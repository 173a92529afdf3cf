/** Convex's smaller behaviours (behaviour.test.ts): the scheduler, console timers, staged indexes, ids. */
import { makeFunctionReference, paginationOptsValidator } from "convex/server";
import { v } from "convex/values";
import type { GenericId as Id } from "convex/values";
import { mutation, query } from "./_generated/server";

const aQueryRef = makeFunctionReference<"query">("behaviour:aQuery");
const cancelOwnJobRef = makeFunctionReference<"mutation">("behaviour:cancelOwnJob");

export const aQuery = query({ args: {}, handler: () => "a query" });

/** Schedules a query: accepted; the job fails when it runs. */
export const scheduleQuery = mutation({
  args: {},
  handler: async (ctx) =>
    // @ts-expect-error a query on purpose: Convex's types refuse it, its backend accepts it and fails the job
    await ctx.scheduler.runAfter(0, aQueryRef, {}),
});

export const scheduleSelfCanceling = mutation({
  args: {},
  handler: async (ctx) => await ctx.scheduler.runAfter(0, cancelOwnJobRef, {}),
});

/** Cancels every job still pending (its own among them), and writes a tick that must stay. */
export const cancelOwnJob = mutation({
  args: {},
  handler: async (ctx) => {
    for (const job of await ctx.db.system.query("_scheduled_functions").collect()) {
      if (job.state.kind === "pending" || job.state.kind === "inProgress")
        await ctx.scheduler.cancel(job._id);
    }
    await ctx.db.insert("ticks", { at: 1, note: "self-canceled" });
  },
});

export const job = query({
  args: { id: v.string() },
  handler: async (ctx, { id }) => {
    const found = await ctx.db.system.get("_scheduled_functions", id as Id<"_scheduled_functions">);
    return found ? { name: found.name, state: found.state } : null;
  },
});

export const ticks = query({
  args: {},
  handler: async (ctx) => (await ctx.db.query("ticks").collect()).map((tick) => tick.note ?? null),
});

export const addTick = mutation({
  args: { note: v.string() },
  handler: async (ctx, { note }) => await ctx.db.insert("ticks", { at: Date.now(), note }),
});

export const countTicks = query({
  args: {},
  handler: async (ctx) => (await ctx.db.query("ticks").collect()).length,
});

/** `console.time` and its kin, as a mutation's log lines. */
export const timers = mutation({
  args: {},
  handler: () => {
    console.time();
    console.timeLog();
    console.timeEnd();
    console.time("foo");
    console.time("foo");
    console.timeLog("foo", "bar", 3);
    console.timeEnd("foo");
    console.timeEnd("foo");
  },
});

export const stagedIndex = query({
  args: {},
  handler: async (ctx) =>
    await ctx.db
      .query("ticks")
      .withIndex("by_at" as never)
      .collect(),
});

export const stagedSearch = query({
  args: {},
  handler: async (ctx) =>
    await ctx.db
      .query("ticks")
      .withSearchIndex("search_note" as never, (q) => q.search("note" as never, "x"))
      .collect(),
});

export const page = query({
  args: { paginationOpts: paginationOptsValidator },
  handler: async (ctx, { paginationOpts }) => await ctx.db.query("ticks").paginate(paginationOpts),
});

export const searchPage = query({
  args: { text: v.string(), paginationOpts: paginationOptsValidator },
  handler: async (ctx, { text, paginationOpts }) =>
    await ctx.db
      .query("ticks")
      .withSearchIndex("by_note", (q) => q.search("note", text))
      .paginate(paginationOpts),
});

/** `db.get` of any id, or `db.system.get` of one: without a table name, so an id of the wrong kind gets through. */
export const get = query({
  args: { id: v.string(), system: v.boolean() },
  handler: async (ctx, { id, system }) =>
    system
      ? // eslint-disable-next-line @convex-dev/explicit-table-ids -- the id's own table is the point
        await ctx.db.system.get(id as Id<"_scheduled_functions">)
      : // eslint-disable-next-line @convex-dev/explicit-table-ids -- the id's own table is the point
        await ctx.db.get(id as Id<"ticks">),
});
