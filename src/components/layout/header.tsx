import type { ReactNode } from "react";
import { NavLink } from "react-router-dom";
import { buttonVariants } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import { paths } from "@/config/paths";
import { cn } from "@/lib/cn";
import { Logo } from "./logo";
import { ThemeToggle } from "./theme-toggle";

/**
 * The site header. The account control comes in from the app layer, which knows about sign-in;
 * shared layout components do not import features (STYLE.md point 10).
 */
export function Header({ accountControl }: { accountControl: ReactNode }) {
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-1 px-4 sm:gap-2">
        <Logo />
        <nav aria-label="Main" className="ml-auto flex items-center">
          {/* SPEC.md section 2: shown to every visitor; signed-out visitors are sent on to sign in. */}
          <NavLink
            to={paths.dashboard.root.getHref()}
            className={({ isActive }) =>
              cn(
                buttonVariants({ variant: "ghost", size: "sm" }),
                isActive && "text-primary-700 dark:text-primary-100",
              )
            }
          >
            <Icon name="lucide:layout-dashboard" className="size-4" />
            {/* Icon only on phones, so the header fits 390 px with the account control. */}
            <span className="max-sm:sr-only">Dashboard</span>
          </NavLink>
        </nav>
        <ThemeToggle />
        {accountControl}
      </div>
    </header>
  );
}
