import { clsx } from "clsx";
import { Link } from "react-router-dom";
import { buttonVariants } from "@/components/ui/button-variants";
import { Icon } from "@/components/ui/icon";
import { categoryLinks, exploreLinks } from "./header-links";
import { useDisclosure } from "./use-disclosure";

const linkClass =
  "flex items-center gap-2 rounded-lg px-3 py-2 text-sm text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-primary-600 dark:text-slate-200 dark:hover:bg-slate-800";

/** The header's Explore menu (wide screens): a disclosure of links to the lists and each category. */
export function ExploreMenu() {
  const { open, close, buttonProps, panelRef, panelId } = useDisclosure("explore");
  return (
    <div className="relative">
      <button {...buttonProps} className={buttonVariants({ variant: "ghost", size: "sm" })}>
        <Icon name="lucide:compass" className="size-4" />
        Explore
        <Icon
          name="lucide:chevron-down"
          className={clsx("size-4 transition-transform", open && "rotate-180")}
        />
      </button>
      <div
        ref={panelRef}
        id={panelId}
        hidden={!open}
        className="absolute left-0 z-40 mt-2 w-[38rem] max-w-[calc(100vw-2rem)] rounded-xl border border-slate-200 bg-white p-3 shadow-lg dark:border-slate-800 dark:bg-slate-900"
      >
        <nav aria-label="Explore" className="grid gap-3 sm:grid-cols-[10rem_1fr]">
          <ul className="space-y-1">
            {exploreLinks.map((link) => (
              <li key={link.href}>
                <Link to={link.href} className={clsx(linkClass, "font-medium")} onClick={() => close(false)}>
                  <Icon name={link.icon} className="size-4" />
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
          <div>
            <p className="px-3 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">
              Categories
            </p>
            <ul className="grid gap-x-2 sm:grid-cols-2">
              {categoryLinks.map((link) => (
                <li key={link.href}>
                  <Link to={link.href} className={linkClass} onClick={() => close(false)}>
                    <Icon name={link.icon} className="size-4 text-primary-600" />
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        </nav>
      </div>
    </div>
  );
}
