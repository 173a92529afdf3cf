import { createContext, useContext, useState } from "react";
import { Outlet } from "react-router-dom";
import { AccountPlaceholder } from "@/components/layout/account-placeholder";
import { Header } from "@/components/layout/header";
import { MenuStateProvider } from "@/components/layout/menu-state";

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
      {/* Which of the header's and pages' menus is open: at most one (SPEC.md section 2). */}
      <MenuStateProvider>
        <Header accountControl={accountControl} />
        <main className="min-h-[calc(100dvh-4rem)]">
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
