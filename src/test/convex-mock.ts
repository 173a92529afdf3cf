/**
 * Page tests answer Convex queries from a table keyed by function name, so pages render as they would
 * with data, without a backend. Use with `vi.mock("convex/react", ...)` as in the tests that import it.
 *
 * Changing the table with `setQueryResult` re-renders the components that read it (wrap it in `act`).
 * `useMutation(...).withOptimisticUpdate(update)` behaves like Convex's: the update runs against the
 * table at once, and is rolled back when the mutation settles (a test that wants the "server" to agree
 * sets the new value from `mutationImpl`).
 */
import type { OptimisticLocalStore, OptimisticUpdate } from "convex/browser";
import { getFunctionName, type FunctionReference } from "convex/server";
import { useSyncExternalStore } from "react";
import { vi } from "vitest";

export const queryResults = new Map<string, unknown>();
export const mutationCalls: { name: string; args: unknown }[] = [];
export const mutationImpl = {
  current: (_name: string, _args: unknown): Promise<unknown> => Promise.resolve(null),
};

/** Optimistic updates still in flight, oldest first; each maps a query name to its local value. */
const optimisticLayers: Map<string, unknown>[] = [];
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function currentResult(name: string): unknown {
  for (let index = optimisticLayers.length - 1; index >= 0; index--) {
    const layer = optimisticLayers[index];
    if (layer?.has(name)) return layer.get(name);
  }
  return queryResults.get(name);
}

export function setQueryResult(ref: FunctionReference<"query">, value: unknown): void {
  queryResults.set(getFunctionName(ref), value);
  notify();
}

export function resetConvexMock(): void {
  queryResults.clear();
  optimisticLayers.length = 0;
  mutationCalls.length = 0;
  mutationImpl.current = () => Promise.resolve(null);
}

/** The local store an optimistic update sees; query arguments are ignored, as in the table. */
function localStore(layer: Map<string, unknown>): OptimisticLocalStore {
  return {
    getQuery: (ref: FunctionReference<"query">) => currentResult(getFunctionName(ref)),
    getAllQueries: (ref: FunctionReference<"query">) => {
      const value = currentResult(getFunctionName(ref));
      return value === undefined ? [] : [{ args: {}, value: value }];
    },
    setQuery: (ref: FunctionReference<"query">, _args: unknown, value: unknown) => {
      layer.set(getFunctionName(ref), value);
    },
  } as OptimisticLocalStore;
}

function mockMutation(name: string, update?: OptimisticUpdate<Record<string, never>>) {
  const mutate = (args: Record<string, never>) => {
    mutationCalls.push({ name, args });
    const layer = new Map<string, unknown>();
    if (update) {
      optimisticLayers.push(layer);
      update(localStore(layer), args);
      notify();
    }
    const settle = () => {
      const index = optimisticLayers.indexOf(layer);
      if (index === -1) return;
      optimisticLayers.splice(index, 1);
      notify();
    };
    return mutationImpl.current(name, args).then(
      (value) => {
        settle();
        return value;
      },
      (error: unknown) => {
        settle();
        throw error;
      },
    );
  };
  mutate.withOptimisticUpdate = (next: OptimisticUpdate<Record<string, never>>) => mockMutation(name, next);
  return mutate;
}

function useMockQuery(ref: FunctionReference<"query">): unknown {
  const name = getFunctionName(ref);
  // On a server (a render to HTML, and while hydrating it) Convex has no answer yet, as the real client.
  return useSyncExternalStore(
    subscribe,
    () => currentResult(name),
    () => undefined,
  );
}

/**
 * `usePaginatedQuery`: the table holds every item of a paginated query as one array, answered as a
 * single, complete page; no entry means the first page is still loading. Arguments are in `.mock.calls`.
 */
function useMockPaginatedQuery(ref: FunctionReference<"query">, _args: unknown, _options: unknown) {
  const items = useMockQuery(ref) as unknown[] | undefined;
  const loadMore = () => {};
  if (items === undefined) return { results: [], status: "LoadingFirstPage", isLoading: true, loadMore };
  return { results: items, status: "Exhausted", isLoading: false, loadMore };
}

export const convexReactMock = {
  useQuery: vi.fn(useMockQuery),
  usePaginatedQuery: vi.fn(useMockPaginatedQuery),
  useMutation: vi.fn((ref: FunctionReference<"mutation">) => mockMutation(getFunctionName(ref))),
  /** Actions behave as mutations here: recorded in `mutationCalls`, answered by `mutationImpl`. */
  useAction: vi.fn((ref: FunctionReference<"action">) => mockMutation(getFunctionName(ref))),
};
