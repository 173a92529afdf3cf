import type { ReactNode } from "react";
import { AccountPlaceholder } from "@/components/layout/account-placeholder";
import { Header } from "@/components/layout/header";
import { MenuStateProvider } from "@/components/layout/menu-state";
import { PageLoading } from "@/components/layout/page-loading";

/**
 * The header, the page and the footer: what every page sits in. The page fills the screen below the
 * header, so the footer starts below the fold and a page that grows as its data arrives moves nothing
 * in view (no layout shift; decision 037).
 */
export function AppFrame({ accountControl, children }: { accountControl: ReactNode; children: ReactNode }) {
  return (
    <>
      {/* Which of the header's and pages' menus is open: at most one (SPEC.md section 2). */}
      <MenuStateProvider>
        <Header accountControl={accountControl} />
        <main className="min-h-[calc(100dvh-4rem)]">{children}</main>
      </MenuStateProvider>
      <footer className="border-t border-slate-200 py-6 text-center text-sm text-slate-500 dark:border-slate-800 dark:text-slate-400">
        LiveLocal · live shopping from sellers near you
      </footer>
    </>
  );
}

/** The first paint, from the main chunk, while the session and the page's module load (decision 037). */
export function AppFrameLoading({ label }: { label?: string }) {
  return (
    <AppFrame accountControl={<AccountPlaceholder />}>
      <PageLoading label={label} />
    </AppFrame>
  );
}
