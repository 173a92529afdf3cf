import { useCallback, useSyncExternalStore } from "react";

export const THEME_STORAGE_KEY = "livelocal:theme";
export type Theme = "light" | "dark";

function currentTheme(): Theme {
  return document.documentElement.classList.contains("dark") ? "dark" : "light";
}

const listeners = new Set<() => void>();

/** The dark-mode preference, remembered in local storage (docs/product.md#header-and-menus). */
export function useTheme(): [Theme, (theme: Theme) => void] {
  const theme = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    currentTheme,
    () => "light" as const,
  );
  const setTheme = useCallback((next: Theme) => {
    document.documentElement.classList.toggle("dark", next === "dark");
    try {
      localStorage.setItem(THEME_STORAGE_KEY, next);
    } catch {
      // Private mode without storage: the choice lasts for this page only.
    }
    for (const listener of listeners) listener();
  }, []);
  return [theme, setTheme];
}
