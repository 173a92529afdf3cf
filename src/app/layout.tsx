import { Outlet } from "react-router-dom";
import { Header } from "@/components/layout/header";
import { MenuStateProvider } from "@/components/layout/menu-state";
import { NoticesProvider } from "@/components/notices/notices";
import { PendingActionRunner } from "@/components/watch-list/pending-action-runner";
import { WatchListProvider } from "@/components/watch-list/watch-list-state";
import { GoLiveAlertsWhenSignedIn } from "@/features/alerts/go-live-alerts-when-signed-in";
import { AccountControl } from "@/features/auth/account-control";
import { AccountDeletedNotice } from "@/features/auth/account-deleted-notice";

export function AppLayout() {
  return (
    <NoticesProvider>
      {/* What the person saved and follows, for every save and follow button (one subscription). */}
      <WatchListProvider>
        <div className="flex min-h-dvh flex-col">
          {/* Which of the header's and pages' menus is open: at most one (SPEC.md section 2). */}
          <MenuStateProvider>
            <Header accountControl={<AccountControl />} />
            <main className="flex-1">
              <AccountDeletedNotice />
              <Outlet />
            </main>
          </MenuStateProvider>
          <footer className="border-t border-slate-200 py-6 text-center text-sm text-slate-500 dark:border-slate-800 dark:text-slate-400">
            LiveLocal · live shopping from sellers near you
          </footer>
        </div>
        {/* Signed in only; its module loads lazily (decision 016). */}
        <GoLiveAlertsWhenSignedIn />
        {/* Completes a save or follow asked for before signing in. */}
        <PendingActionRunner />
      </WatchListProvider>
    </NoticesProvider>
  );
}
