import { createContext, useContext, useState } from "react";
import { Outlet } from "react-router-dom";
import { AccountPlaceholder } from "@/components/layout/account-placeholder";
import { Header } from "@/components/layout/header";
import { MenuStateProvider } from "@/components/layout/menu-state";

const MAIN_ID = "main";

const AccountSlotContext = createContext<HTMLElement | null>(null);

/**
 * The root route: the header, the page and the footer, from the main chunk, so the header is drawn and
 * its menus work before the session's module arrives, and stay mounted when it does (decision 037). The
 * session's layout puts the account control into the header's slot with a portal, inside Convex's
 * context; the placeholder shows while the slot is empty. The page fills the screen below the header, so
 * the footer starts below the fold and a page that grows as its data arrives moves nothing in view.
 */
export function AppShell() {
  const [accountSlot, setAccountSlot] = useState<HTMLElement | null>(null);
  const accountControl = (
    <>
      <span ref={setAccountSlot} className="peer contents" />
      <span className="hidden peer-empty:block">
        <AccountPlaceholder />
      </span>
    </>
  );
  return (
    <>
      {/* WCAG 2.4.1: the first Tab stop passes the header by. The href serves before the app's script runs. */}
      <a
        href={`#${MAIN_ID}`}
        onClick={(event) => {
          event.preventDefault();
          document.getElementById(MAIN_ID)?.focus();
        }}
        className="sr-only rounded-full bg-primary-700 px-4 py-2 text-sm font-medium text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-4 focus:z-50 focus:outline-2 focus:outline-offset-2 focus:outline-primary-600"
      >
        Skip to main content
      </a>
      {/* Which of the header's and pages' menus is open: at most one (docs/product.md#header-and-menus). */}
      <MenuStateProvider>
        <Header accountControl={accountControl} />
        {/* Focusable from script only, for the skip link: the next Tab goes on from the page's start. */}
        <main id={MAIN_ID} tabIndex={-1} className="min-h-[calc(100dvh-4rem)] outline-none">
          <AccountSlotContext value={accountSlot}>
            <Outlet />
          </AccountSlotContext>
        </main>
      </MenuStateProvider>
      <footer className="border-t border-slate-200 py-6 text-center text-sm text-slate-500 dark:border-slate-800 dark:text-slate-400">
        LiveLocal · live shopping from sellers near you
      </footer>
    </>
  );
}

/** The header's element for the account control (a portal's target), once it is in the page. */
export function useAccountSlot(): HTMLElement | null {
  return useContext(AccountSlotContext);
}
