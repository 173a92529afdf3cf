/**
 * A page's calls through the real client (decision 087), watched or held back: what the page sent,
 * and the moment while the server has it. Every call still goes to the backend, which answers it.
 */
import type { ConvexReactClient } from "convex/react";
import { getFunctionName, type FunctionReference } from "convex/server";
import { vi } from "vitest";

type Kind = "mutation" | "action";

/** The calls of `kind` the page makes from now on, by function name and arguments, as sent. */
export function watchCalls(client: ConvexReactClient, kind: Kind): () => { name: string; args: unknown }[] {
  const spy = vi.spyOn(client, kind);
  return () =>
    spy.mock.calls.map((call) => {
      const [ref, args] = call as unknown as [FunctionReference<Kind>, unknown];
      return { name: getFunctionName(ref), args: args ?? {} };
    });
}

/** The client's own `kind` method, whatever spy a test put over it. */
export function sendThrough(client: ConvexReactClient, kind: Kind): (...args: unknown[]) => Promise<unknown> {
  const own = Reflect.get(Object.getPrototypeOf(client) as object, kind) as (
    this: ConvexReactClient,
    ...args: unknown[]
  ) => Promise<unknown>;
  return own.bind(client);
}

/**
 * Holds the calls of `kind` until `release()`, then sends each to the backend as it was made
 * (`watchCalls` still records them).
 */
export function holdCalls(client: ConvexReactClient, kind: Kind): { release: () => void } {
  const send = sendThrough(client, kind);
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  vi.spyOn(client, kind).mockImplementation(((...args: unknown[]) =>
    gate.then(() => send(...args))) as never);
  return { release };
}
