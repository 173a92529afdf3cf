import type { ReactNode } from "react";
import { Link, NavLink, useLocation } from "react-router-dom";
import { buttonVariants } from "@/components/ui/button-variants";
import { Icon } from "@/components/ui/icon";
import { ExploreMenu } from "./explore-menu";
import { dashboardLink, isLiveNowLocation, liveNowLink } from "./header-links";
import { Logo } from "./logo";
import { MobileMenu } from "./mobile-menu";
import { ThemeToggle } from "./theme-toggle";

// The current page's link is green: `aria-current` (set by NavLink, and below for Live now) outranks
// the ghost variant's colour, so no class merging is needed in the main chunk (decision 037).
const navLinkClass = buttonVariants({
  variant: "ghost",
  size: "sm",
  className: "aria-[current=page]:text-primary-700 dark:aria-[current=page]:text-primary-100",
});

/**
 * The site header. The account control comes in from the app layer, which knows about sign-in;
 * shared layout components do not import features (docs/style.md#feature-folders).
 */
export function Header({ accountControl }: { accountControl: ReactNode }) {
  // Current only on the live view: not on other explore URLs, which share its path.
  const liveNow = isLiveNowLocation(useLocation());
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
      <div className="relative mx-auto flex h-16 max-w-6xl items-center gap-1 px-4 sm:gap-2">
        <Logo />
        {/* On phones these links live in the mobile menu, so the header fits 360 px. */}
        <nav aria-label="Main" className="ml-4 flex items-center max-md:hidden">
          <ExploreMenu />
          <Link to={liveNowLink.href} aria-current={liveNow ? "page" : undefined} className={navLinkClass}>
            <Icon name={liveNowLink.icon} className="size-4 text-red-600" />
            {liveNowLink.label}
          </Link>
          {/* Shown to every visitor; signed out, it leads to sign-in (docs/product.md#header-and-menus). */}
          <NavLink to={dashboardLink.href} className={navLinkClass}>
            <Icon name={dashboardLink.icon} className="size-4" />
            {dashboardLink.label}
          </NavLink>
        </nav>
        <div className="ml-auto" />
        <ThemeToggle />
        {accountControl}
        <MobileMenu />
      </div>
    </header>
  );
}
