import { Outlet } from "react-router-dom";
import { Header } from "@/components/layout/header";
import { MenuStateProvider } from "@/components/layout/menu-state";
import { NoticesProvider } from "@/components/notices/notices";
import { AccountControl } from "@/features/auth/account-control";

export function AppLayout() {
  return (
    <NoticesProvider>
      <div className="flex min-h-dvh flex-col">
        {/* Which of the header's and pages' menus is open: at most one (SPEC.md section 2). */}
        <MenuStateProvider>
          <Header accountControl={<AccountControl />} />
          <main className="flex-1">
            <Outlet />
          </main>
        </MenuStateProvider>
        <footer className="border-t border-slate-200 py-6 text-center text-sm text-slate-500 dark:border-slate-800 dark:text-slate-400">
          LiveLocal · live shopping from sellers near you
        </footer>
      </div>
    </NoticesProvider>
  );
}
