import { Link } from "react-router-dom";
import { Icon } from "@/components/ui/icon";
import { cn } from "@/lib/cn";
import { EXPLORE_WHENS, WHEN_LABELS, type ExploreWhen } from "@convex/lib/exploreWhen";

const pillClass =
  "inline-flex items-center gap-1.5 whitespace-nowrap rounded-full border px-3.5 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-primary-600";

/**
 * Which shows by time (decision 031): links that keep the filter, the current one marked. On a phone
 * the row scrolls sideways rather than wrapping under the search box.
 */
export function WhenFilter({
  when,
  searchFor,
}: {
  when: ExploreWhen;
  searchFor: (when: ExploreWhen) => string;
}) {
  return (
    <nav aria-label="When" className="-mx-4 overflow-x-auto px-4 pb-1">
      <ul className="flex gap-2">
        {EXPLORE_WHENS.map((option) => {
          const current = option === when;
          return (
            <li key={option}>
              <Link
                to={{ search: searchFor(option) }}
                preventScrollReset
                aria-current={current ? "page" : undefined}
                className={cn(
                  pillClass,
                  current
                    ? "border-primary-700 bg-primary-700 text-white dark:border-primary-500"
                    : "border-slate-300 bg-white text-slate-700 hover:border-slate-400 hover:text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:text-white",
                )}
              >
                {option === "live" && (
                  <Icon
                    name="lucide:radio"
                    className={cn("size-4", current ? "text-white" : "text-red-600")}
                  />
                )}
                {WHEN_LABELS[option]}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
