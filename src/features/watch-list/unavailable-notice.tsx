import { useMutation } from "convex/react";
import { useState } from "react";
import { FormAlert } from "@/components/forms/form-alert";
import { Button } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import { errorMessage } from "@/lib/errors";
import { api } from "@convex/_generated/api";
import type { WatchList } from "./watch-list-types";

/** "2 saved items are no longer public" */
export function unavailableSentence(count: number): string {
  return count === 1 ? "1 saved item is no longer public" : `${count} saved items are no longer public`;
}

type GoneShop = WatchList["unavailable"]["shops"][number];

/** "Nora's Neon Knits closed its shop: it took your follow and 2 saved shows with it." */
export function goneShopSentence(shop: GoneShop): string {
  const what = [
    shop.followed ? "your follow" : null,
    shop.savedShows === 1 ? "1 saved show" : shop.savedShows > 1 ? `${shop.savedShows} saved shows` : null,
  ].filter(Boolean);
  const why = shop.closed ? "closed its shop" : "is off LiveLocal for now";
  return `${shop.liveShopName} ${why}: ${what.join(" and ")} went with it.`;
}

/**
 * Saved shows and followed shops that left public view (a show moved back to draft, a shop closed or
 * suspended) are not listed, yet still count toward the limits: this says what happened, shop by shop
 * where it was the shop, and removes them in one go.
 */
export function UnavailableNotice({ unavailable }: { unavailable: WatchList["unavailable"] }) {
  const setStreamSaved = useMutation(api.watchList.setStreamSaved);
  const setShopFollowed = useMutation(api.watchList.setShopFollowed);
  const [removing, setRemoving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const count = unavailable.streamIds.length + unavailable.liveShopIds.length;
  if (count === 0) return null;

  async function removeAll() {
    setRemoving(true);
    setError(null);
    // Each removal stands alone: one failing leaves the others done, and the list shows what is left.
    const results = await Promise.allSettled([
      ...unavailable.streamIds.map((streamId) => setStreamSaved({ streamId, saved: false })),
      ...unavailable.liveShopIds.map((liveShopId) => setShopFollowed({ liveShopId, followed: false })),
    ]);
    const failure = results.find((result) => result.status === "rejected");
    if (failure) setError(errorMessage(failure.reason));
    setRemoving(false);
  }

  return (
    <div
      role="group"
      aria-labelledby="unavailable-heading"
      className="rounded-2xl border border-amber-300 bg-amber-50 p-4 sm:p-5 dark:border-amber-800 dark:bg-amber-950/40"
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex gap-2 text-amber-900 dark:text-amber-100">
          <Icon name="lucide:triangle-alert" className="mt-0.5 size-5 shrink-0" />
          <div>
            <p id="unavailable-heading" className="font-semibold">
              {unavailableSentence(count)}
            </p>
            {unavailable.shops.length > 0 && (
              <ul className="mt-1 list-disc pl-5 text-sm" aria-label="Shops that left">
                {unavailable.shops.map((shop) => (
                  <li key={shop.liveShopId}>{goneShopSentence(shop)}</li>
                ))}
              </ul>
            )}
            <p className="mt-0.5 text-sm">
              {unavailable.shops.length > 0
                ? "They are not listed here, but they still count toward your limits."
                : "A seller took them down or they were hidden, so they are not listed here, but they still count toward your limits."}
            </p>
          </div>
        </div>
        <Button
          variant="outline"
          className="shrink-0 self-start sm:self-center"
          disabled={removing}
          onClick={() => void removeAll()}
        >
          <Icon name="lucide:trash-2" className="size-4" />
          {removing ? "Removing…" : "Remove them"}
        </Button>
      </div>
      {error && (
        <div className="mt-3">
          <FormAlert message={error} />
        </div>
      )}
    </div>
  );
}
