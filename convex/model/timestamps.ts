import type { WithoutSystemFields } from "convex/server";
import type { Doc, Id, TableNames } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";

/** A document as written by callers: everything but the system fields and the timestamps. */
export type NewDoc<T extends TableNames> = Omit<WithoutSystemFields<Doc<T>>, "createdAt" | "updatedAt">;
export type DocPatch<T extends TableNames> = Partial<NewDoc<T>>;

/** Inserts with `createdAt` and `updatedAt` set: the only way rows are created. */
export async function insertWithTimestamps<T extends TableNames>(
  ctx: MutationCtx,
  table: T,
  doc: NewDoc<T>,
  now: number = Date.now(),
): Promise<Id<T>> {
  const row = { ...doc, createdAt: now, updatedAt: now } as unknown as WithoutSystemFields<Doc<T>>;
  return await ctx.db.insert(table, row);
}

/** Patches and bumps `updatedAt`: the only way rows are changed. */
export async function patchWithTimestamps<T extends TableNames>(
  ctx: MutationCtx,
  table: T,
  id: Id<T>,
  patch: DocPatch<T>,
  now: number = Date.now(),
): Promise<void> {
  await ctx.db.patch(table, id, { ...patch, updatedAt: now } as unknown as Partial<Doc<T>>);
}
