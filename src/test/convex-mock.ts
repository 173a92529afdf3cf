/**
 * Page tests answer Convex queries from a table keyed by function name, so pages render as they would
 * with data, without a backend. Use with `vi.mock("convex/react", ...)` as in the tests that import it.
 */
import { getFunctionName, type FunctionReference } from "convex/server";
import { vi } from "vitest";

export const queryResults = new Map<string, unknown>();
export const mutationCalls: { name: string; args: unknown }[] = [];
export const mutationImpl = {
  current: (_name: string, _args: unknown): Promise<unknown> => Promise.resolve(null),
};

export function setQueryResult(ref: FunctionReference<"query">, value: unknown): void {
  queryResults.set(getFunctionName(ref), value);
}

export function resetConvexMock(): void {
  queryResults.clear();
  mutationCalls.length = 0;
  mutationImpl.current = () => Promise.resolve(null);
}

export const convexReactMock = {
  useQuery: vi.fn((ref: FunctionReference<"query">) => queryResults.get(getFunctionName(ref))),
  useMutation: vi.fn((ref: FunctionReference<"mutation">) => (args: unknown) => {
    const name = getFunctionName(ref);
    mutationCalls.push({ name, args });
    return mutationImpl.current(name, args);
  }),
};
