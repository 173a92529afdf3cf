import { useMutation } from "convex/react";
import { useCallback, useEffect } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { PlatformType } from "@convex/lib/constants";

/**
 * What a public page tells seller insights (decision 089): one view per page, an add to calendar and a
 * click-through to a platform, each a mutation fired after the page has rendered and never awaited, so
 * counting costs the visitor nothing they can see. The backend keeps no token, only a keyed hash of it
 * for the hour.
 */

const TOKEN_KEY = "livelocal.visitor";

type StoredToken = { token: string; day: string };

function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * The browser's anonymous visitor token: random, made here, replaced each UTC day so even the hashes
 * made from it cannot be tied together beyond a day; a browser that keeps nothing gets one per page.
 */
export function visitorToken(now = new Date()): string {
  const day = now.toISOString().slice(0, 10);
  try {
    const stored = JSON.parse(localStorage.getItem(TOKEN_KEY) ?? "null") as StoredToken | null;
    if (stored?.day === day && typeof stored.token === "string") return stored.token;
    const token = newToken();
    localStorage.setItem(TOKEN_KEY, JSON.stringify({ token, day } satisfies StoredToken));
    return token;
  } catch {
    return newToken();
  }
}

/** Whether the browser asks not to be tracked (Global Privacy Control or Do Not Track): then nothing is sent. */
export function browserOptsOut(): boolean {
  const nav = navigator as Navigator & { globalPrivacyControl?: boolean };
  return nav.globalPrivacyControl === true || nav.doNotTrack === "1";
}

/** The page a view is of: a shop's (`liveShopId`) or a show's (`streamId`). */
type Page = { liveShopId?: Id<"liveShops">; streamId?: Id<"streams"> };

/**
 * Counts a view of the page once it has rendered, and returns `count` for the page's calendar adds and
 * click-throughs (a shop page's click-throughs name their show). Failures are dropped: a count is never
 * worth an error in front of a visitor.
 */
export function useInsightsCounter({ liveShopId, streamId }: Page) {
  const record = useMutation(api.insights.record);
  const count = useCallback(
    (metric: "view" | "calendar" | "click", platform?: PlatformType, showId = streamId) => {
      if (browserOptsOut()) return;
      const page = showId ? { streamId: showId } : { liveShopId };
      void record({ ...page, metric, ...(platform && { platform }), visitor: visitorToken() }).catch(
        () => {},
      );
    },
    [record, liveShopId, streamId],
  );
  useEffect(() => {
    count("view");
  }, [count]);
  return count;
}
