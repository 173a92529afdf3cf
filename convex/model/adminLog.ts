/**
 * The admin console's activity log: every admin action, who took it, when, on what and why. Written by
 * the mutation that takes the action, in the same transaction, so a refused action leaves no entry.
 */
import type { Doc, TableNames } from "../_generated/dataModel";
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

export async function recordAdminAction(
  ctx: MutationCtx,
  admin: Doc<"users">,
  entry: AdminActionEntry,
  now = Date.now(),
): Promise<void> {
  await insertWithTimestamps(
    ctx,
    "adminActions",
    { adminId: admin._id, adminName: admin.name ?? admin.email, ...entry },
    now,
  );
}
