import { Link, useLocation } from "react-router-dom";
import { buttonVariants } from "@/components/ui/button-variants";
import { Icon } from "@/components/ui/icon";
import {
  categoryLinks,
  dashboardLink,
  exploreLinks,
  isLiveNowLocation,
  liveNowLink,
  type HeaderLink,
} from "./header-links";
import { useDisclosure } from "./use-disclosure";

function MenuLink({
  link,
  onNavigate,
  current = false,
}: {
  link: HeaderLink;
  onNavigate: () => void;
  current?: boolean;
}) {
  return (
    <Link
      to={link.href}
      onClick={onNavigate}
      aria-current={current ? "page" : undefined}
      className="flex items-center gap-3 rounded-lg px-3 py-2.5 text-base text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-primary-600 aria-[current=page]:font-semibold aria-[current=page]:text-primary-700 dark:text-slate-100 dark:hover:bg-slate-800 dark:aria-[current=page]:text-primary-100"
    >
      <Icon name={link.icon} className="size-5" />
      {link.label}
    </Link>
  );
}

/**
 * The mobile menu (docs/product.md#header-and-menus): on narrow screens the header links live behind it.
 * It shares the open-menu state, so opening it closes the Explore and filter menus and vice versa;
 * it closes on route change with them, and closes itself when a link is followed to the same page.
 */
export function MobileMenu() {
  const { open, close, buttonProps, panelRef, panelId } = useDisclosure("mobile");
  const onNavigate = () => close(false);
  const liveNow = isLiveNowLocation(useLocation());
  return (
    <div className="md:hidden">
      <button
        {...buttonProps}
        className={buttonVariants({ variant: "ghost", size: "icon" })}
        aria-label="Menu"
      >
        <Icon name={open ? "lucide:x" : "lucide:menu"} />
      </button>
      <div
        ref={panelRef}
        id={panelId}
        hidden={!open}
        className="absolute inset-x-0 top-full z-40 max-h-[calc(100dvh-4rem)] overflow-y-auto border-b border-slate-200 bg-white px-4 py-3 shadow-lg dark:border-slate-800 dark:bg-slate-950"
      >
        <nav aria-label="Menu">
          <ul className="space-y-1">
            {[...exploreLinks, liveNowLink, dashboardLink].map((link) => (
              <li key={link.label}>
                <MenuLink link={link} onNavigate={onNavigate} current={link === liveNowLink && liveNow} />
              </li>
            ))}
          </ul>
          <p className="mt-3 px-3 text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">
            Categories
          </p>
          <ul className="mt-1 grid grid-cols-2 gap-x-2">
            {categoryLinks.map((link) => (
              <li key={link.href} className="text-sm">
                <MenuLink link={link} onNavigate={onNavigate} />
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </div>
  );
}
