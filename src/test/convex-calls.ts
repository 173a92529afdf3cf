/**
 * What a page sends, and when the server answers it, for page tests on the embedded backend
 * (convex-backend.tsx). The client stays the real one: `sentCalls` only watches what it is asked to
 * send, and `holdDatabase` makes the backend wait, as a busy server would.
 */
import type { ConvexReactClient } from "convex/react";
import { getFunctionName, type FunctionReference } from "convex/server";
import { vi } from "vitest";
import type { MutationCtx } from "@convex/_generated/server";
import type { ConvexTestBackend } from "./convex-backend";

export type SentCall = { name: string; args: unknown };

/**
 * The mutations and actions `client` is asked to run from now on, by function name with the arguments
 * the page gave, in order. A page's own checks (a missing reason, a rule the browser knows) send none.
 */
export function sentCalls(client: ConvexReactClient): SentCall[] {
  const calls: SentCall[] = [];
  for (const kind of ["mutation", "action"] as const) {
    const send = client[kind].bind(client) as (...args: unknown[]) => Promise<unknown>;
    vi.spyOn(client, kind).mockImplementation(((ref: FunctionReference<typeof kind>, ...rest: unknown[]) => {
      calls.push({ name: getFunctionName(ref), args: rest[0] ?? {} });
      return send(ref, ...rest);
    }) as never);
  }
  return calls;
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
