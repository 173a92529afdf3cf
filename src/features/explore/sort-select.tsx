import { SORT_LABELS, type ExploreSort } from "@convex/lib/exploreWhen";

/** The list's order, where it offers a choice (decision 031). */
export function SortSelect({
  sort,
  sorts,
  onChange,
}: {
  sort: ExploreSort;
  sorts: readonly ExploreSort[];
  onChange: (sort: ExploreSort) => void;
}) {
  return (
    <label className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
      Sort by
      <select
        value={sort}
        onChange={(event) => onChange(event.target.value as ExploreSort)}
        className="h-9 rounded-lg border border-slate-300 bg-white px-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-primary-600 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
      >
        {sorts.map((option) => (
          <option key={option} value={option}>
            {SORT_LABELS[option]}
          </option>
        ))}
      </select>
    </label>
  );
}
