/** Jobs the app schedules on its component's function (behaviour.test.ts). */
import { mutationGeneric, queryGeneric, type FunctionReference } from "convex/server";
import { v, type GenericId } from "convex/values";
import { components as untyped } from "./_generated/api";

const components = untyped as unknown as {
  counter: {
    counts: { add: FunctionReference<"mutation", "internal", { name: string; by: number }, number> };
    jobs: { state: FunctionReference<"query", "internal", { id: string }, string | null> };
  };
};

export const scheduleAdd = mutationGeneric({
  args: { name: v.string(), by: v.number(), delayMs: v.number() },
  handler: async (ctx, { name, by, delayMs }) =>
    await ctx.scheduler.runAfter(delayMs, components.counter.counts.add, { name, by }),
});

/** The job's state as the app sees it. */
export const state = queryGeneric({
  args: { id: v.string() },
  handler: async (ctx, { id }) =>
    (await ctx.db.system.get("_scheduled_functions", id as GenericId<"_scheduled_functions">))?.state.kind ??
    null,
});

/** The job's state as the component sees it (it has none: the job is the app's). */
export const stateInComponent = queryGeneric({
  args: { id: v.string() },
  handler: async (ctx, { id }) => await ctx.runQuery(components.counter.jobs.state, { id }),
});

export const cancel = mutationGeneric({
  args: { id: v.string() },
  handler: async (ctx, { id }) => await ctx.scheduler.cancel(id as GenericId<"_scheduled_functions">),
});
