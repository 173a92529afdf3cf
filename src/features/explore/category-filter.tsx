import { useEffect, useRef, useState } from "react";
import { Icon } from "@/components/ui/icon";
import { cn } from "@/lib/cn";
import { CATEGORIES, type CategoryRecord } from "@convex/lib/data/categories";
import {
  addCategory,
  categorySelection,
  removeCategory,
  toggleSubcategory,
  type ExploreFilter,
} from "@convex/lib/explore";
import type { ExploreFilterUpdate } from "./use-explore-filter";

const checkboxClass = "size-4 shrink-0 rounded accent-primary-600";

function TriStateCheckbox({
  state,
  label,
  onChange,
}: {
  state: "all" | "some" | "none";
  label: string;
  onChange: () => void;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = state === "some";
  }, [state]);
  return (
    <label className="flex min-w-0 flex-1 items-center gap-2 py-1.5 text-sm font-medium">
      <input
        ref={ref}
        type="checkbox"
        className={checkboxClass}
        checked={state === "all"}
        onChange={onChange}
      />
      <span className="truncate">{label}</span>
    </label>
  );
}

function CategoryRow({
  category,
  filter,
  onUpdate,
}: {
  category: CategoryRecord;
  filter: ExploreFilter;
  onUpdate: (update: ExploreFilterUpdate) => void;
}) {
  const state = categorySelection(filter, category.id, CATEGORIES);
  const [expanded, setExpanded] = useState(state === "some");
  const listId = `subcategories-${category.id}`;
  return (
    <li>
      <div className="flex items-center gap-1">
        <TriStateCheckbox
          state={state}
          label={category.label}
          onChange={() =>
            onUpdate((current) =>
              state === "all"
                ? removeCategory(current, category.id, CATEGORIES)
                : addCategory(current, category.id, CATEGORIES),
            )
          }
        />
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-label={`${category.label} subcategories`}
          onClick={() => setExpanded((value) => !value)}
          className="rounded-md p-1 text-slate-500 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-primary-600 dark:hover:bg-slate-800"
        >
          <Icon
            name="lucide:chevron-down"
            className={cn("size-4 transition-transform", expanded && "rotate-180")}
          />
        </button>
      </div>
      <ul
        id={listId}
        hidden={!expanded}
        className="mb-1 ml-6 border-l border-slate-200 pl-3 dark:border-slate-700"
      >
        {category.subcategories.map((sub) => (
          <li key={sub.id}>
            <label className="flex items-center gap-2 py-1 text-sm text-slate-700 dark:text-slate-300">
              <input
                type="checkbox"
                className={checkboxClass}
                checked={filter.subcategories.includes(sub.id)}
                onChange={() => onUpdate((current) => toggleSubcategory(current, sub.id, CATEGORIES))}
              />
              {sub.label}
            </label>
          </li>
        ))}
      </ul>
    </li>
  );
}

/** Categories with tri-state checkboxes; each expands to its subcategories (decision 004). */
export function CategoryFilter({
  filter,
  onUpdate,
}: {
  filter: ExploreFilter;
  onUpdate: (update: ExploreFilterUpdate) => void;
}) {
  return (
    <fieldset>
      <legend className="text-sm font-semibold">Categories</legend>
      <ul className="mt-2">
        {CATEGORIES.map((category) => (
          <CategoryRow key={category.id} category={category} filter={filter} onUpdate={onUpdate} />
        ))}
      </ul>
    </fieldset>
  );
}
