import { Icon } from "@/components/ui/icon";
import { CATEGORIES } from "@convex/lib/data/categories";
import { MSAS } from "@convex/lib/data/msas";
import { US_STATES } from "@convex/lib/data/states";
import {
  clearFilter,
  removeCategory,
  removeMsa,
  removeState,
  toggleSubcategory,
  type ExploreFilter,
} from "@convex/lib/explore";
import type { ExploreFilterUpdate } from "./use-explore-filter";

type Chip = { key: string; label: string; remove: ExploreFilterUpdate };

/** One chip per applied choice; a selected category stands for its subcategories. */
function chipsOf(filter: ExploreFilter): Chip[] {
  const chips: Chip[] = [];
  for (const category of CATEGORIES) {
    if (filter.categories.includes(category.id)) {
      chips.push({
        key: `c:${category.id}`,
        label: category.label,
        remove: (f) => removeCategory(f, category.id, CATEGORIES),
      });
      continue;
    }
    for (const sub of category.subcategories) {
      if (filter.subcategories.includes(sub.id)) {
        chips.push({
          key: `s:${sub.id}`,
          label: sub.label,
          remove: (f) => toggleSubcategory(f, sub.id, CATEGORIES),
        });
      }
    }
  }
  for (const code of filter.states) {
    const name = US_STATES.find((state) => state.code === code)?.name ?? code;
    chips.push({ key: `st:${code}`, label: name, remove: (f) => removeState(f, code, MSAS) });
  }
  for (const code of filter.msas) {
    const name = MSAS.find((msa) => msa.cbsaCode === code)?.name ?? code;
    chips.push({ key: `m:${code}`, label: name, remove: (f) => removeMsa(f, code) });
  }
  return chips;
}

/** The applied filters as removable chips, with "Clear all" (the search text has its own box). */
export function FilterChips({
  filter,
  onUpdate,
}: {
  filter: ExploreFilter;
  onUpdate: (update: ExploreFilterUpdate) => void;
}) {
  const chips = chipsOf(filter);
  if (chips.length === 0) return null;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <ul aria-label="Applied filters" className="flex flex-wrap gap-2">
        {chips.map((chip) => (
          <li
            key={chip.key}
            className="inline-flex items-center gap-1 rounded-full bg-primary-50 py-1 pl-3 pr-1 text-sm text-primary-900 dark:bg-primary-900/40 dark:text-primary-100"
          >
            {chip.label}
            <button
              type="button"
              aria-label={`Remove ${chip.label}`}
              onClick={() => onUpdate(chip.remove)}
              className="rounded-full p-1 hover:bg-primary-100 focus-visible:outline-2 focus-visible:outline-primary-600 dark:hover:bg-primary-900"
            >
              <Icon name="lucide:x" className="size-3.5" />
            </button>
          </li>
        ))}
      </ul>
      <button
        type="button"
        onClick={() => onUpdate(clearFilter)}
        className="rounded-full px-2 py-1 text-sm font-medium text-secondary-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-primary-600 dark:text-blue-300"
      >
        Clear all
      </button>
    </div>
  );
}
