import { useMutation } from "convex/react";
import { useEffect, useEffectEvent } from "react";
import { useNotices } from "@/components/notices/notices";
import { paths } from "@/config/paths";
import { errorMessage } from "@/lib/errors";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { takePendingAction, type PendingAction } from "./pending-action";
import { useWatchListState } from "./watch-list-state";

function confirmation(action: PendingAction): string {
  return action.kind === "saveStream"
    ? `Saved “${action.label}” to your watch list`
    : `Following ${action.label}`;
}

function failure(action: PendingAction): string {
  return action.kind === "saveStream" ? `Couldn't save “${action.label}”` : `Couldn't follow ${action.label}`;
}

/**
 * Completes the save or follow a signed-out person asked for before signing in (pending-action.ts),
 * once they are back signed in with a user row, and says so in a notice; a refusal (the list is full,
 * the show is gone) is shown in the server's words. Taking the action forgets it first, so it runs
 * once even if this mounts twice. Mounted once, in src/app/layout.tsx, inside WatchListProvider.
 */
export function PendingActionRunner() {
  const { status } = useWatchListState();
  const { show } = useNotices();
  const setStreamSaved = useMutation(api.watchList.setStreamSaved);
  const setShopFollowed = useMutation(api.watchList.setShopFollowed);

  const runPending = useEffectEvent(() => {
    const action = takePendingAction();
    if (!action) return;
    const done =
      action.kind === "saveStream"
        ? setStreamSaved({ streamId: action.id as Id<"streams">, saved: true })
        : setShopFollowed({ liveShopId: action.id as Id<"liveShops">, followed: true });
    const id = `pending-action:${action.kind}:${action.id}`;
    done.then(
      () =>
        show({
          id,
          tone: "info",
          title: confirmation(action),
          href: paths.watchList.getHref(),
          linkLabel: "View watch list",
        }),
      (error: unknown) => show({ id, tone: "info", title: failure(action), body: errorMessage(error) }),
    );
  });

  useEffect(() => {
    if (status === "ready") runPending();
  }, [status]);

  return null;
}
