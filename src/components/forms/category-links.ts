import { CATEGORIES } from "@convex/lib/data/categories";
import { categoryLinkSchema, fieldErrors, type CategoryLinkInput } from "@convex/lib/validation";

/** One category row of a form; `subcategoryId` "" means the whole category. */
export type CategoryLinkDraft = { key: string; categoryId: string; subcategoryId: string; priority: string };

export function newCategoryLinkDraft(priority: number): CategoryLinkDraft {
  return { key: crypto.randomUUID(), categoryId: "", subcategoryId: "", priority: String(priority) };
}

export function toCategoryLinkDrafts(
  links: readonly { categoryId: string; subcategoryId?: string; priority: number }[],
): CategoryLinkDraft[] {
  return [...links]
    .sort((a, b) => a.priority - b.priority)
    .map((link) => ({
      key: crypto.randomUUID(),
      categoryId: link.categoryId,
      subcategoryId: link.subcategoryId ?? "",
      priority: String(link.priority),
    }));
}

/** Parses the rows with the shared schema; errors are keyed `categories.<row>.<field>`. */
export function parseCategoryLinks(drafts: readonly CategoryLinkDraft[]): {
  links: CategoryLinkInput[];
  errors: Record<string, string>;
} {
  const links: CategoryLinkInput[] = [];
  const errors: Record<string, string> = {};
  const seen = new Set<string>();
  drafts.forEach((draft, index) => {
    const prefix = `categories.${index}`;
    if (draft.categoryId === "") {
      errors[`${prefix}.categoryId`] = "Choose a category, or remove this row.";
      return;
    }
    const priority = draft.priority.trim() === "" ? Number.NaN : Number(draft.priority);
    const parsed = categoryLinkSchema.safeParse({
      categoryId: draft.categoryId,
      subcategoryId: draft.subcategoryId,
      priority,
    });
    if (!parsed.success) {
      for (const [path, message] of Object.entries(fieldErrors(parsed.error)))
        errors[`${prefix}.${path}`] = message;
      return;
    }
    const category = CATEGORIES.find((candidate) => candidate.id === draft.categoryId);
    if (
      !category ||
      (draft.subcategoryId && !category.subcategories.some((sub) => sub.id === draft.subcategoryId))
    ) {
      errors[`${prefix}.subcategoryId`] = "Choose a subcategory of this category.";
      return;
    }
    const pair = `${draft.categoryId}/${draft.subcategoryId}`;
    if (seen.has(pair)) {
      errors[`${prefix}.subcategoryId`] = "This category is already listed.";
      return;
    }
    seen.add(pair);
    links.push(parsed.data);
  });
  return { links, errors };
}
