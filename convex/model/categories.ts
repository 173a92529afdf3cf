import type { Doc } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import { appError } from "./errors";

export type CategoryLink = { categoryId: string; subcategoryId?: string; priority?: number };

export async function getCategory(ctx: QueryCtx, categoryId: string): Promise<Doc<"categories"> | null> {
  return await ctx.db
    .query("categories")
    .withIndex("by_categoryId", (q) => q.eq("categoryId", categoryId))
    .unique();
}

/** A link names a top-level category and, optionally, one of that category's own subcategories. */
export async function assertValidCategoryLink(ctx: QueryCtx, link: CategoryLink): Promise<void> {
  const category = await getCategory(ctx, link.categoryId);
  if (!category || category.parentCategoryId !== undefined) {
    throw appError("INVALID_ARGUMENT", `Unknown category "${link.categoryId}".`);
  }
  if (link.subcategoryId !== undefined) {
    const subcategory = await getCategory(ctx, link.subcategoryId);
    if (!subcategory || subcategory.parentCategoryId !== link.categoryId) {
      throw appError(
        "INVALID_ARGUMENT",
        `"${link.subcategoryId}" is not a subcategory of ${category.label}.`,
      );
    }
  }
}
