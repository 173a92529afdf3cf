import { createPortal } from "react-dom";
import { Outlet } from "react-router-dom";
import { NoticesProvider } from "@/components/notices/notices";
import { PendingActionRunner } from "@/components/watch-list/pending-action-runner";
import { WatchListProvider } from "@/components/watch-list/watch-list-state";
import { GoLiveAlertsWhenSignedIn } from "@/features/alerts/go-live-alerts-when-signed-in";
import { AccountControl } from "@/features/auth/account-control";
import { AccountDeletedNotice } from "@/features/auth/account-deleted-notice";
import { useAccountSlot } from "./frame";

/** Everything around the pages that needs the session: account control, notices, the watch list. */
export function AppLayout() {
  const accountSlot = useAccountSlot();
  return (
    <NoticesProvider>
      {/* What the person saved and follows, for every save and follow button (one subscription). */}
      <WatchListProvider>
        {/* Into the header's slot (./frame.tsx), keeping this tree's context. */}
        {accountSlot && createPortal(<AccountControl />, accountSlot)}
        <AccountDeletedNotice />
        <Outlet />
        {/* Signed in only; its module loads lazily (decision 016). */}
        <GoLiveAlertsWhenSignedIn />
        {/* Completes a save or follow asked for before signing in. */}
        <PendingActionRunner />
      </WatchListProvider>
    </NoticesProvider>
  );
}
