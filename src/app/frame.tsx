import type { ReactNode } from "react";
import { AccountPlaceholder } from "@/components/layout/account-placeholder";
import { Header } from "@/components/layout/header";
import { MenuStateProvider } from "@/components/layout/menu-state";
import { PageLoading } from "@/components/layout/page-loading";

type AppFrameProps = { accountControl: ReactNode; children: ReactNode; footer?: boolean };

/** The header, the page and the footer: what every page sits in. */
export function AppFrame({ accountControl, children, footer = true }: AppFrameProps) {
  return (
    <div className="flex min-h-dvh flex-col">
      {/* Which of the header's and pages' menus is open: at most one (SPEC.md section 2). */}
      <MenuStateProvider>
        <Header accountControl={accountControl} />
        <main className="flex-1">{children}</main>
      </MenuStateProvider>
      {footer && (
        <footer className="border-t border-slate-200 py-6 text-center text-sm text-slate-500 dark:border-slate-800 dark:text-slate-400">
          LiveLocal · live shopping from sellers near you
        </footer>
      )}
    </div>
  );
}

/**
 * The first paint, drawn from the main chunk while the session (Convex and sign-in) and the page's
 * module load (decision 037). No footer: the page pushing it down would count as a layout shift.
 */
export function AppFrameLoading({ label }: { label?: string }) {
  return (
    <AppFrame accountControl={<AccountPlaceholder />} footer={false}>
      <PageLoading label={label} />
    </AppFrame>
  );
}
