import { useConvexAuth, useQuery } from "convex/react";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, type ReactNode } from "react";
import { api } from "@convex/_generated/api";

/**
 * What the signed-in person saved and follows, for every card's and page's save and follow buttons.
 * "loading": the session or the list is not known yet (signed in without a user row counts as loading:
 * EnsureUser is creating it). "signedOut": the buttons lead to sign-in.
 */
export type WatchListState = {
  status: "loading" | "signedOut" | "ready";
  savedStreamIds: ReadonlySet<string>;
  followedShopIds: ReadonlySet<string>;
  /** Resolves with the status once it is no longer "loading" (at once if it is known already). */
  whenKnown: () => Promise<KnownStatus>;
};

type KnownStatus = Exclude<WatchListState["status"], "loading">;
type Lists = Omit<WatchListState, "whenKnown">;

const EMPTY: ReadonlySet<string> = new Set();

const WatchListContext = createContext<WatchListState | null>(null);

/** One subscription to `watchList.mySaved` for the whole page. Mounted once, in src/app/layout.tsx. */
export function WatchListProvider({ children }: { children: ReactNode }) {
  const { isLoading, isAuthenticated } = useConvexAuth();
  const saved = useQuery(api.watchList.mySaved, isAuthenticated ? {} : "skip");
  const lists = useMemo<Lists>(() => {
    if (isLoading) return { status: "loading", savedStreamIds: EMPTY, followedShopIds: EMPTY };
    if (!isAuthenticated) return { status: "signedOut", savedStreamIds: EMPTY, followedShopIds: EMPTY };
    if (!saved) return { status: "loading", savedStreamIds: EMPTY, followedShopIds: EMPTY };
    return {
      status: "ready",
      savedStreamIds: new Set(saved.streamIds),
      followedShopIds: new Set(saved.liveShopIds),
    };
  }, [isLoading, isAuthenticated, saved]);

  // Clicks made while the session loads wait here, then act on what it turned out to be.
  const known = useRef<KnownStatus | null>(null);
  const waiters = useRef<((status: KnownStatus) => void)[]>([]);
  useEffect(() => {
    known.current = lists.status === "loading" ? null : lists.status;
    if (known.current === null) return;
    for (const resolve of waiters.current.splice(0)) resolve(known.current);
  }, [lists.status]);
  const whenKnown = useCallback(
    () =>
      new Promise<KnownStatus>((resolve) => {
        if (known.current) resolve(known.current);
        else waiters.current.push(resolve);
      }),
    [],
  );

  const value = useMemo(() => ({ ...lists, whenKnown }), [lists, whenKnown]);
  return <WatchListContext value={value}>{children}</WatchListContext>;
}

export function useWatchListState(): WatchListState {
  const state = useContext(WatchListContext);
  if (!state) throw new Error("useWatchListState needs a WatchListProvider (src/app/layout.tsx).");
  return state;
}
