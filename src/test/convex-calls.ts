/**
 * What a page test on the embedded backend (convex-backend.tsx) sees of the page's calls: the
 * mutations it sent through the real client, with their arguments, and a way to keep them in flight.
 */
import { getFunctionName } from "convex/server";
import { vi } from "vitest";
import type { ConvexTestBackend } from "./convex-backend";

/**
 * Records the mutations this test's client is asked to run from now on: `name` is Convex's
 * ("watchList:setStreamSaved"), `args` what the page passed.
 */
export function recordMutations(convex: ConvexTestBackend): () => { name: string; args: unknown }[] {
  const spy = vi.spyOn(convex.client, "mutation");
  return () => spy.mock.calls.map(([ref, args]) => ({ name: getFunctionName(ref), args: args as unknown }));
}

/**
 * Holds the backend's database until the returned function is called: every function waits, so a
 * mutation the page sends meanwhile stays in flight (its optimistic update shows, its answer does not).
 * The returned function lets them through and resolves once the hold is over.
 */
export async function holdBackend(convex: ConvexTestBackend): Promise<() => Promise<void>> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let holding!: () => void;
  const taken = new Promise<void>((resolve) => (holding = resolve));
  const running = convex.run(async () => {
    holding();
    await held;
  });
  await taken;
  return async () => {
    release();
    await running;
  };
}
