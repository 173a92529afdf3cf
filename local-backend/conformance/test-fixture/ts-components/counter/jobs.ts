/** A job's state as this component sees it. */
import { queryGeneric } from "convex/server";
import { v, type GenericId } from "convex/values";

export const state = queryGeneric({
  args: { id: v.string() },
  handler: async (ctx, { id }) =>
    (await ctx.db.system.get("_scheduled_functions", id as GenericId<"_scheduled_functions">))?.state.kind ??
    null,
});
