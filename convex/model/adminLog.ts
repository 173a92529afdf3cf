/**
 * The admin console's activity log: every admin action, who took it, when, on what and why, and every
 * role change however it came about (decision 025). Written by the mutation that takes the action, in
 * the same transaction, so a refused action leaves no entry.
 */
import type { Doc, Id, TableNames } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import type { AdminAction } from "../lib/constants";
import { insertWithTimestamps } from "./timestamps";

export type AdminActionEntry = {
  action: AdminAction;
  targetTable: TableNames;
  targetId: string;
  targetLabel: string;
  reason?: string;
};

/**
 * Who an entry names as having acted: a person (an admin, or someone whose own action changed their
 * role), or what did it without one (a setting, the command line), by name alone.
 */
export type LogActor = { userId?: Id<"users">; name: string };

export function personActor(user: Doc<"users">): LogActor {
  return { userId: user._id, name: user.name ?? user.email };
}

export async function recordActivity(
  ctx: MutationCtx,
  actor: LogActor,
  entry: AdminActionEntry,
  now = Date.now(),
): Promise<void> {
  await insertWithTimestamps(
    ctx,
    "adminActions",
    { adminId: actor.userId, adminName: actor.name, ...entry },
    now,
  );
}

export async function recordAdminAction(
  ctx: MutationCtx,
  admin: Doc<"users">,
  entry: AdminActionEntry,
  now = Date.now(),
): Promise<void> {
  await recordActivity(ctx, personActor(admin), entry, now);
}
