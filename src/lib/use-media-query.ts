import { useCallback, useSyncExternalStore } from "react";

/**
 * Whether the browser's window matches a CSS media query, following it as the window changes. The
 * server's page (and a browser without `matchMedia`) reads `false`; the browser's answer follows at
 * hydration without a mismatch.
 */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia?.(query);
      list?.addEventListener("change", onChange);
      return () => list?.removeEventListener("change", onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia?.(query).matches ?? false,
    () => false,
  );
}
