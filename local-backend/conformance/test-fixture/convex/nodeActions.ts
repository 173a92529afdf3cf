"use node";
/**
 * Actions of a `"use node"` module, which Convex runs in Node (user-code.test.ts): one that never
 * settles is timed out in the words of Convex's Node executor.
 */
import { action } from "./_generated/server";

export const neverSettles = action({
  args: {},
  handler: () => new Promise<never>(() => undefined),
});
