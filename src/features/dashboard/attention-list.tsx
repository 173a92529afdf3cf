import { Link } from "react-router-dom";
import { Icon } from "@/components/ui/icon";
import { paths } from "@/config/paths";
import type { AttentionItem } from "./attention";

/** "Needs attention": each item says what is wrong and links to where it is fixed. */
export function AttentionList({ items }: { items: AttentionItem[] }) {
  if (items.length === 0) return null;
  return (
    <section
      aria-labelledby="attention-heading"
      className="rounded-2xl border border-amber-300 bg-amber-50 p-4 sm:p-6 dark:border-amber-700 dark:bg-amber-950/40"
    >
      <h2
        id="attention-heading"
        className="flex items-center gap-2 text-lg font-semibold text-amber-950 dark:text-amber-100"
      >
        <Icon name="lucide:triangle-alert" className="size-5" />
        Needs attention
      </h2>
      <ul className="mt-3 space-y-3">
        {items.map((item) => (
          <li
            key={item.key}
            className="flex flex-col gap-1 sm:flex-row sm:items-start sm:justify-between sm:gap-4"
          >
            <div className="min-w-0">
              <p className="font-medium text-amber-950 dark:text-amber-50">{item.title}</p>
              {item.detail && (
                <p className="[overflow-wrap:anywhere] text-sm text-amber-900 dark:text-amber-200">
                  {item.detail}
                </p>
              )}
            </div>
            <Link
              to={
                item.link.kind === "shop"
                  ? paths.dashboard.liveShop.getHref(item.link.id)
                  : paths.dashboard.stream.getHref(item.link.id)
              }
              aria-label={item.link.label}
              className="shrink-0 text-sm font-medium text-amber-950 underline dark:text-amber-100"
            >
              {item.link.kind === "shop" ? "Edit shop" : "Open stream"}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
