/**
 * What a page sends, and when the server answers it, for page tests on the embedded backend
 * (convex-backend.tsx). The client stays the real one: `sentCalls` only watches what it is asked to
 * send, `holdCalls` holds a call on the client, and `holdDatabase` makes the backend wait, as a busy
 * server would. Every call still reaches the backend, which answers it.
 */
import type { ConvexReactClient } from "convex/react";
import { getFunctionName, type FunctionReference } from "convex/server";
import { vi } from "vitest";
import type { MutationCtx } from "@convex/_generated/server";
import type { ConvexTestBackend } from "./convex-backend";

export type SentCall = { name: string; args: unknown };

type Kind = "mutation" | "action";

/** A client's watch: the lists `sentCalls` gave out, and the calls held back by kind. */
type Watch = { lists: SentCall[][]; held: Partial<Record<Kind, Promise<void>>> };

const watches = new WeakMap<ConvexReactClient, Watch>();

/** The client's own `kind` method, whatever spy a test put over it. */
export function sendThrough(client: ConvexReactClient, kind: Kind): (...args: unknown[]) => Promise<unknown> {
  const own = Reflect.get(Object.getPrototypeOf(client) as object, kind) as (
    this: ConvexReactClient,
    ...args: unknown[]
  ) => Promise<unknown>;
  return own.bind(client);
}

/** The one spy over the client's `mutation` and `action`: records each call as sent, then sends it. */
function watch(client: ConvexReactClient): Watch {
  const watching = watches.get(client);
  if (watching) return watching;
  const state: Watch = { lists: [], held: {} };
  watches.set(client, state);
  for (const kind of ["mutation", "action"] as const) {
    const send = sendThrough(client, kind);
    vi.spyOn(client, kind).mockImplementation(((ref: FunctionReference<Kind>, ...rest: unknown[]) => {
      for (const list of state.lists) list.push({ name: getFunctionName(ref), args: rest[0] ?? {} });
      const held = state.held[kind];
      return held ? held.then(() => send(ref, ...rest)) : send(ref, ...rest);
    }) as never);
  }
  return state;
}

/**
 * The mutations and actions `client` is asked to run from now on, by function name with the arguments
 * the page gave, in order, as they are sent (a held call too). A page's own checks (a missing reason, a
 * rule the browser knows) send none.
 */
export function sentCalls(client: ConvexReactClient): SentCall[] {
  const calls: SentCall[] = [];
  watch(client).lists.push(calls);
  return calls;
}

/**
 * Holds the client's calls of `kind` until `release()`, then sends each to the backend as it was made:
 * the moment while the server has it (for an action, which no database hold stops).
 */
export function holdCalls(client: ConvexReactClient, kind: Kind): { release: () => void } {
  const state = watch(client);
  let release = () => {};
  state.held[kind] = new Promise<void>((resolve) => (release = resolve));
  return {
    release: () => {
      delete state.held[kind];
      release();
    },
  };
}

/**
 * Holds the backend's database (its transactions run one at a time) until the returned `release` is
 * called: a mutation the page sends meanwhile waits, so the page shows what it shows before the server
 * answers. `then` runs in the held transaction once released, before the waiting mutation: a change
 * made "meanwhile" (a shop suspended while its stream's "Go live" was on its way).
 */
export async function holdDatabase(
  convex: ConvexTestBackend,
  then?: (ctx: MutationCtx) => Promise<void>,
): Promise<() => Promise<void>> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let holding!: () => void;
  const held = new Promise<void>((resolve) => (holding = resolve));
  const done = convex.run(async (ctx) => {
    holding();
    await released;
    await then?.(ctx);
  });
  await held;
  return async () => {
    release();
    await done;
  };
}
