import { useMutation } from "convex/react";
import type { OptimisticLocalStore } from "convex/browser";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { WatchToggleButton, type WatchToggleVariant } from "./watch-toggle-button";
import { useWatchListState } from "./watch-list-state";

/** Puts the change into `watchList.mySaved` at once; Convex rolls it back if the mutation fails. */
function saveOptimistically(
  store: OptimisticLocalStore,
  { streamId, saved }: { streamId: Id<"streams">; saved: boolean },
) {
  const current = store.getQuery(api.watchList.mySaved, {});
  if (!current) return;
  const others = current.streamIds.filter((id) => id !== streamId);
  store.setQuery(
    api.watchList.mySaved,
    {},
    { ...current, streamIds: saved ? [...others, streamId] : others },
  );
}

/**
 * Saves a show to the watch list or removes it: an icon on cards, "Save"/"Saved" on the stream page.
 * Its name is always "Save <title>"; `aria-pressed` says whether it is saved.
 */
export function SaveStreamButton({
  streamId,
  streamTitle,
  variant = "icon",
}: {
  streamId: Id<"streams">;
  streamTitle: string;
  variant?: WatchToggleVariant;
}) {
  const { savedStreamIds } = useWatchListState();
  const setStreamSaved = useMutation(api.watchList.setStreamSaved).withOptimisticUpdate(saveOptimistically);
  return (
    <WatchToggleButton
      kind="saveStream"
      id={streamId}
      name={streamTitle}
      verb="Save"
      pressedSuffix="d"
      icon="lucide:bookmark"
      pressedIcon="lucide:bookmark-check"
      pressed={savedStreamIds.has(streamId)}
      variant={variant}
      toggle={(saved) => setStreamSaved({ streamId, saved })}
      errorTitle={(saved) => (saved ? "Couldn't save this show" : "Couldn't remove this show")}
    />
  );
}
