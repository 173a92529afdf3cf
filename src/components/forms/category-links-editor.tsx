import { Button } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import { CATEGORIES } from "@convex/lib/data/categories";
import { MAX_CATEGORY_PRIORITY } from "@convex/lib/validation";
import { newCategoryLinkDraft, type CategoryLinkDraft } from "./category-links";
import { Field, controlClass } from "./field";

type CategoryLinksEditorProps = {
  links: CategoryLinkDraft[];
  onChange: (links: CategoryLinkDraft[]) => void;
  errors: Record<string, string>;
};

/** Categories and subcategories with a priority each (0 is the main one). */
export function CategoryLinksEditor({ links, onChange, errors }: CategoryLinksEditorProps) {
  const edit = (index: number, patch: Partial<CategoryLinkDraft>) =>
    onChange(links.map((link, i) => (i === index ? { ...link, ...patch } : link)));
  return (
    <div className="space-y-3">
      {links.length === 0 && <p className="text-sm text-slate-500 dark:text-slate-400">No categories yet.</p>}
      {links.map((link, index) => {
        const category = CATEGORIES.find((candidate) => candidate.id === link.categoryId);
        const prefix = `categories.${index}`;
        return (
          <div
            key={link.key}
            role="group"
            aria-label={`Category ${index + 1}`}
            className="grid gap-3 rounded-xl border border-slate-200 p-3 sm:grid-cols-[1fr_1fr_7rem_auto] sm:items-start dark:border-slate-800"
          >
            <Field label="Category" error={errors[`${prefix}.categoryId`]}>
              {(control) => (
                <select
                  {...control}
                  name={`${prefix}.categoryId`}
                  value={link.categoryId}
                  onChange={(event) => edit(index, { categoryId: event.target.value, subcategoryId: "" })}
                  className={controlClass}
                >
                  <option value="">Choose a category</option>
                  {CATEGORIES.map((option) => (
                    <option key={option.id} value={option.id}>
                      {option.label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Subcategory" error={errors[`${prefix}.subcategoryId`]}>
              {(control) => (
                <select
                  {...control}
                  name={`${prefix}.subcategoryId`}
                  value={link.subcategoryId}
                  disabled={!category}
                  onChange={(event) => edit(index, { subcategoryId: event.target.value })}
                  className={controlClass}
                >
                  <option value="">
                    {category ? `All of ${category.label}` : "Choose a category first"}
                  </option>
                  {category?.subcategories.map((option) => (
                    <option key={option.id} value={option.id}>
                      {option.label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Priority" error={errors[`${prefix}.priority`]}>
              {(control) => (
                <input
                  {...control}
                  name={`${prefix}.priority`}
                  type="number"
                  min={0}
                  max={MAX_CATEGORY_PRIORITY}
                  step={1}
                  value={link.priority}
                  onChange={(event) => edit(index, { priority: event.target.value })}
                  className={controlClass}
                />
              )}
            </Field>
            <Button
              variant="ghost"
              size="icon"
              className="sm:mt-6"
              aria-label={`Remove category ${index + 1}`}
              onClick={() => onChange(links.filter((_, i) => i !== index))}
            >
              <Icon name="lucide:x" />
            </Button>
          </div>
        );
      })}
      <p className="text-sm text-slate-500 dark:text-slate-400">
        Priority 0 is the main category; higher numbers come after it.
      </p>
      <Button
        variant="outline"
        size="sm"
        onClick={() => onChange([...links, newCategoryLinkDraft(links.length)])}
      >
        <Icon name="lucide:plus" className="size-4" />
        Add category
      </Button>
    </div>
  );
}
