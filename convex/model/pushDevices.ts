import type { Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { appError } from "./errors";
import { patchWithTimestamps } from "./timestamps";

/** Removes one of the person's devices; another person's, or one already gone, is "not found". */
export async function removeOwnDevice(
  ctx: MutationCtx,
  userId: Id<"users">,
  deviceId: Id<"pushSubscriptions">,
) {
  const device = await ctx.db.get("pushSubscriptions", deviceId);
  if (!device || device.userId !== userId) {
    throw appError("NOT_FOUND", "This device is not on your account.");
  }
  await ctx.db.delete("pushSubscriptions", deviceId);
}

/** After a send: devices whose push service said 404/410 are dropped, the others marked as reached. */
export async function recordDeliveries(
  ctx: MutationCtx,
  { delivered, gone }: { delivered: Id<"pushSubscriptions">[]; gone: Id<"pushSubscriptions">[] },
) {
  const now = Date.now();
  for (const id of gone) {
    if (await ctx.db.get("pushSubscriptions", id)) await ctx.db.delete("pushSubscriptions", id);
  }
  for (const id of delivered) {
    if (await ctx.db.get("pushSubscriptions", id)) {
      await patchWithTimestamps(ctx, "pushSubscriptions", id, { lastSuccessAt: now }, now);
    }
  }
}
