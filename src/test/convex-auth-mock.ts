/**
 * The session as `useConvexAuth()` reports it, for tests that mock "convex/react":
 * `vi.mock("convex/react", () => ({ ...convexReactMock, useConvexAuth: useMockConvexAuth }))`.
 * Changing it re-renders the components that read it (wrap the change in `act`).
 */
import { useSyncExternalStore } from "react";

type AuthState = { isLoading: boolean; isAuthenticated: boolean; isRefreshing: boolean };

const STATES: Record<"loading" | "signedOut" | "signedIn", AuthState> = {
  loading: { isLoading: true, isAuthenticated: false, isRefreshing: false },
  signedOut: { isLoading: false, isAuthenticated: false, isRefreshing: false },
  signedIn: { isLoading: false, isAuthenticated: true, isRefreshing: false },
};

let current: AuthState = STATES.signedOut;
const listeners = new Set<() => void>();

export function setConvexAuth(state: keyof typeof STATES): void {
  current = STATES[state];
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Stands in for `useConvexAuth`. */
export function useMockConvexAuth(): AuthState {
  // The server's snapshot (a render to HTML, hydration) is the same state.
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => current,
  );
}
