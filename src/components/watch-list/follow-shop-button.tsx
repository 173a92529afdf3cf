import { useMutation } from "convex/react";
import type { OptimisticLocalStore } from "convex/browser";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { WatchToggleButton, type WatchToggleVariant } from "./watch-toggle-button";
import { useWatchListState } from "./watch-list-state";

/** Puts the change into `watchList.mySaved` at once; Convex rolls it back if the mutation fails. */
function followOptimistically(
  store: OptimisticLocalStore,
  { liveShopId, followed }: { liveShopId: Id<"liveShops">; followed: boolean },
) {
  const current = store.getQuery(api.watchList.mySaved, {});
  if (!current) return;
  const others = current.liveShopIds.filter((id) => id !== liveShopId);
  store.setQuery(
    api.watchList.mySaved,
    {},
    { ...current, liveShopIds: followed ? [...others, liveShopId] : others },
  );
}

/**
 * Follows a shop or stops following it: an icon on cards, "Follow"/"Following" on the shop's page.
 * Its name is always "Follow <shop name>"; `aria-pressed` says whether it is followed.
 */
export function FollowShopButton({
  liveShopId,
  liveShopName,
  variant = "icon",
}: {
  liveShopId: Id<"liveShops">;
  liveShopName: string;
  variant?: WatchToggleVariant;
}) {
  const { followedShopIds } = useWatchListState();
  const setShopFollowed = useMutation(api.watchList.setShopFollowed).withOptimisticUpdate(
    followOptimistically,
  );
  return (
    <WatchToggleButton
      kind="followShop"
      id={liveShopId}
      name={liveShopName}
      verb="Follow"
      pressedSuffix="ing"
      icon="lucide:heart"
      pressedIcon="lucide:heart"
      pressedIconClassName="[&_path]:fill-current"
      pressed={followedShopIds.has(liveShopId)}
      variant={variant}
      toggle={(followed) => setShopFollowed({ liveShopId, followed })}
      errorTitle={(followed) => (followed ? "Couldn't follow this shop" : "Couldn't unfollow this shop")}
    />
  );
}
