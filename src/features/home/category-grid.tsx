import { Link } from "react-router-dom";
import { CARD_LINK_CLASS } from "@/components/ui/card-link";
import { Icon } from "@/components/ui/icon";
import { paths } from "@/config/paths";
import { CATEGORIES } from "@convex/lib/data/categories";

export function CategoryGrid() {
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {CATEGORIES.map((category) => (
        <li
          key={category.id}
          className="relative rounded-2xl border border-slate-200 bg-white p-5 shadow-sm hover:border-primary-300 dark:border-slate-800 dark:bg-slate-900"
        >
          <div className="flex items-center gap-3">
            <span className="grid size-11 place-items-center rounded-xl bg-primary-50 text-primary-700 dark:bg-primary-900/40 dark:text-primary-100">
              <Icon name={category.icon} className="size-6" />
            </span>
            <h3 className="font-semibold">
              {/* The ::after stretches the link over the whole tile. */}
              <Link
                to={paths.explore.streams.getHref(new URLSearchParams({ category: category.id }).toString())}
                className={CARD_LINK_CLASS}
              >
                {category.label}
              </Link>
            </h3>
          </div>
          <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">{category.description}</p>
          <p className="mt-3 text-xs text-slate-500 dark:text-slate-400">
            {category.subcategories.map((sub) => sub.label).join(" · ")}
          </p>
        </li>
      ))}
    </ul>
  );
}
