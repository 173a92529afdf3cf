import { Icon } from "@/components/ui/icon";

export type SettingsNavItem = { id: string; label: string; icon: string };

/** In-page links to the settings sections, beside them on wide screens. */
export function SettingsNav({ items }: { items: readonly SettingsNavItem[] }) {
  return (
    <nav aria-label="Settings sections" className="hidden lg:block">
      <ul className="sticky top-24 space-y-1">
        {items.map((item) => (
          <li key={item.id}>
            <a
              href={`#${item.id}`}
              className="flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-primary-600 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white"
            >
              <Icon name={item.icon} className="size-4" />
              {item.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
