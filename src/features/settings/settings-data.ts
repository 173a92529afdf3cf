import type { OptimisticLocalStore } from "convex/browser";
import type { FunctionReturnType } from "convex/server";
import { api } from "@convex/_generated/api";

export type Settings = NonNullable<FunctionReturnType<typeof api.settings.mySettings>>;

/** For optimistic updates: shows `change` applied to the caller's settings until the server answers. */
export function updateLocalSettings(store: OptimisticLocalStore, change: (settings: Settings) => Settings) {
  const current = store.getQuery(api.settings.mySettings, {});
  if (current) store.setQuery(api.settings.mySettings, {}, change(current));
}

/** The switches a preferences change names, over their current values. */
export function withSwitches<T extends Record<string, boolean>>(current: T, changes: Partial<T>): T {
  const named = Object.entries(changes).filter(([, value]) => typeof value === "boolean");
  return { ...current, ...Object.fromEntries(named) };
}
