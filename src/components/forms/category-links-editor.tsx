import { CATEGORIES } from "@convex/lib/data/categories";
import { MAX_CATEGORY_PRIORITY } from "@convex/lib/validation";
import { newCategoryLinkDraft, type CategoryLinkDraft } from "./category-links";
import { Field, controlClass } from "./field";
import { FieldsetList } from "./fieldset-list";

type CategoryLinksEditorProps = {
  links: CategoryLinkDraft[];
  onChange: (links: CategoryLinkDraft[]) => void;
  errors: Record<string, string>;
};

/** Categories and subcategories with a priority each (0 is the main one). */
export function CategoryLinksEditor({ links, onChange, errors }: CategoryLinksEditorProps) {
  return (
    <FieldsetList
      items={links}
      onChange={onChange}
      keyOf={(link) => link.key}
      nameOf={(_, index) => `category ${index + 1}`}
      newItem={() => newCategoryLinkDraft(links.length)}
      addLabel="Add category"
      empty="No categories yet."
      hint="Priority 0 is the main category; higher numbers come after it."
      rowClassName="grid gap-3 sm:grid-cols-[1fr_1fr_7rem_auto] sm:items-start"
      actionsClassName="sm:mt-6"
      renderItem={(link, index, edit) => {
        const category = CATEGORIES.find((candidate) => candidate.id === link.categoryId);
        const prefix = `categories.${index}`;
        return (
          <>
            <Field label="Category" error={errors[`${prefix}.categoryId`]}>
              {(control) => (
                <select
                  {...control}
                  name={`${prefix}.categoryId`}
                  value={link.categoryId}
                  onChange={(event) => edit({ categoryId: event.target.value, subcategoryId: "" })}
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
                  onChange={(event) => edit({ subcategoryId: event.target.value })}
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
                  onChange={(event) => edit({ priority: event.target.value })}
                  className={controlClass}
                />
              )}
            </Field>
          </>
        );
      }}
    />
  );
}
