import { Outlet } from "react-router-dom";
import { NoticesProvider } from "@/components/notices/notices";
import { PendingActionRunner } from "@/components/watch-list/pending-action-runner";
import { WatchListProvider } from "@/components/watch-list/watch-list-state";
import { GoLiveAlertsWhenSignedIn } from "@/features/alerts/go-live-alerts-when-signed-in";
import { AccountControl } from "@/features/auth/account-control";
import { AccountDeletedNotice } from "@/features/auth/account-deleted-notice";
import { AppFrame } from "./frame";

/** The frame with everything that needs the session: account control, notices, the watch list. */
export function AppLayout() {
  return (
    <NoticesProvider>
      {/* What the person saved and follows, for every save and follow button (one subscription). */}
      <WatchListProvider>
        <AppFrame accountControl={<AccountControl />}>
          <AccountDeletedNotice />
          <Outlet />
        </AppFrame>
        {/* Signed in only; its module loads lazily (decision 016). */}
        <GoLiveAlertsWhenSignedIn />
        {/* Completes a save or follow asked for before signing in. */}
        <PendingActionRunner />
      </WatchListProvider>
    </NoticesProvider>
  );
}
